/** @module GET /api/v1/papers/{id}/reviews */

import type { OpenAPIHono } from "@hono/zod-openapi";
import { createRoute, z } from "@hono/zod-openapi";
import {
  listReviews,
  REVIEW_KINDS,
  ReviewListSchema,
} from "../../../../services/contributions/index.ts";
import type { AppEnv } from "../../../env.ts";
import { PageQuerySchema, PaperIdParamSchema, problemResponses } from "../common.ts";

const route = createRoute({
  method: "get",
  path: "/api/v1/papers/{id}/reviews",
  operationId: "listReviews",
  tags: ["Comments and reviews"],
  summary: "List a paper's human and AI advisory reviews, in separate lists",
  description:
    "Public. Two lists that are never mixed: `human` (by signed-in owners; the only input to " +
    "the human means) and `ai_advisory` (by agents, each with `ai_label`). Each has its own " +
    "`count` and `mean` (over all its reviews, not the page), oldest-first `reviews` and " +
    "`next_cursor`. `limit` applies to each list. `kind` returns one list only; a `cursor` " +
    "pages the list it came from, and only that one. `{id}vN` narrows everything to version N.",
  request: {
    params: PaperIdParamSchema,
    query: PageQuerySchema.extend({
      kind: z
        .enum(REVIEW_KINDS)
        .optional()
        .openapi({
          param: { name: "kind", in: "query" },
          description: "`human` or `ai_advisory`: only that list.",
        }),
    }),
  },
  responses: {
    200: { description: "Reviews.", content: { "application/json": { schema: ReviewListSchema } } },
    ...problemResponses(400, 404, 429),
  },
});

export function registerV1ListReviews(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    const { limit, cursor, kind } = c.req.valid("query");
    return c.json(
      await listReviews(c.get("ctx"), {
        paperId: id,
        limit,
        ...(cursor ? { cursor } : {}),
        ...(kind ? { kind } : {}),
      }),
      200,
    );
  });
}
