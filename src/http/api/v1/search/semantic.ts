/** @module GET /api/v1/search/semantic */

import type { OpenAPIHono } from "@hono/zod-openapi";
import { createRoute } from "@hono/zod-openapi";
import {
  SearchInputSchema,
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
    query: SearchInputSchema,
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
