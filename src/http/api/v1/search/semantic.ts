/** @module GET /api/v1/search/semantic */

import type { OpenAPIHono } from "@hono/zod-openapi";
import { createRoute, z } from "@hono/zod-openapi";
import {
  GroupedSearchResponseSchema,
  SearchInputSchema,
  SearchResponseSchema,
  searchChunks,
  searchPapers,
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
      description:
        "Results: passages (`results`), or with `group=paper` one entry per paper (`papers`).",
      content: {
        "application/json": {
          schema: z.union([SearchResponseSchema, GroupedSearchResponseSchema]),
        },
      },
    },
    ...problemResponses(400, 429, 503),
  },
});

/** Thin: validated parameters in, the search service's answer out. */
export function registerV1SearchSemantic(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const { group, ...input } = c.req.valid("query");
    const ctx = c.get("ctx");
    return c.json(
      group === "paper" ? await searchPapers(ctx, input) : await searchChunks(ctx, input),
      200,
    );
  });
}
