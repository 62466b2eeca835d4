/** @module GET /api/v1/papers/{id}/reviews */

import type { OpenAPIHono } from "@hono/zod-openapi";
import { createRoute } from "@hono/zod-openapi";
import { ReviewListSchema } from "../../../../services/contributions/schemas.ts";
import { NotImplemented } from "../../../../services/errors.ts";
import type { AppEnv } from "../../../env.ts";
import { PaperIdParamSchema, problemResponses } from "../common.ts";

const route = createRoute({
  method: "get",
  path: "/api/v1/papers/{id}/reviews",
  operationId: "listReviews",
  tags: ["Comments and reviews"],
  summary: "List a paper's human and AI advisory reviews, in separate lists",
  request: { params: PaperIdParamSchema },
  responses: {
    200: { description: "Reviews.", content: { "application/json": { schema: ReviewListSchema } } },
    ...problemResponses(404, 429, 501),
  },
});

export function registerV1ListReviews(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, () => {
    throw new NotImplemented("Reviews are not available on this server yet.");
  });
}
