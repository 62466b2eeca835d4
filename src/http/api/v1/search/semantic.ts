/** @module GET /api/v1/search/semantic */

import type { OpenAPIHono } from "@hono/zod-openapi";
import { createRoute, z } from "@hono/zod-openapi";
import { NotImplemented } from "../../../../services/errors.ts";
import {
  SEARCH_LIMIT,
  SEARCH_QUERY_CHARS,
  SearchResponseSchema,
} from "../../../../services/search/schemas.ts";
import type { AppEnv } from "../../../env.ts";
import { problemResponses } from "../common.ts";

const route = createRoute({
  method: "get",
  path: "/api/v1/search/semantic",
  operationId: "searchSemantic",
  tags: ["Search"],
  summary: "Search paper text; results are verbatim spans",
  request: {
    query: z.object({
      q: z
        .string()
        .trim()
        .min(SEARCH_QUERY_CHARS.min, "must be at least 2 characters after trimming")
        .max(SEARCH_QUERY_CHARS.max, "must be at most 1000 characters")
        .openapi({
          param: { name: "q", in: "query" },
          description: "Query, 2 to 1000 characters.",
        }),
      limit: z.coerce
        .number()
        .int()
        .min(SEARCH_LIMIT.min)
        .max(SEARCH_LIMIT.max)
        .default(SEARCH_LIMIT.default)
        .openapi({ param: { name: "limit", in: "query" }, description: "1 to 20.", example: 8 }),
      mode: z
        .enum(["hybrid", "lexical", "semantic"])
        .default("hybrid")
        .openapi({
          param: { name: "mode", in: "query" },
          description: "Ranking channels; `semantic` needs a configured embedding backend.",
        }),
    }),
  },
  responses: {
    200: {
      description: "Results.",
      content: { "application/json": { schema: SearchResponseSchema } },
    },
    ...problemResponses(400, 429, 501, 503),
  },
});

export function registerV1SearchSemantic(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, () => {
    throw new NotImplemented("Semantic search is not available on this server yet.");
  });
}
