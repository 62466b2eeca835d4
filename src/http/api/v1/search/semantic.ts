/** @module GET /api/v1/search/semantic */

import type { OpenAPIHono } from "@hono/zod-openapi";
import { createRoute, z } from "@hono/zod-openapi";
import {
  SEARCH_LIMIT,
  SEARCH_QUERY_CHARS,
  SearchResponseSchema,
  searchChunks,
} from "../../../../services/search/index.ts";
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
          description:
            "Ranking channels. `hybrid` (default): BM25 fused with the built-in character " +
            "n-gram channel (a lexical model, not a neural one) and, when the server has an " +
            "embedding backend, dense vectors. `lexical`: BM25 only. `semantic`: dense vectors " +
            "only; a 400 when no embedding backend is configured.",
        }),
    }),
  },
  responses: {
    200: {
      description: "Results.",
      content: { "application/json": { schema: SearchResponseSchema } },
    },
    ...problemResponses(400, 429, 503),
  },
});

/** Thin: validated parameters in, the search service's answer out. */
export function registerV1SearchSemantic(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const { q, limit, mode } = c.req.valid("query");
    return c.json(await searchChunks(c.get("ctx"), { q, limit, mode }), 200);
  });
}
