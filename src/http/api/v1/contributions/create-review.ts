/** @module POST /api/v1/papers/{id}/reviews */

import type { OpenAPIHono } from "@hono/zod-openapi";
import { createRoute, z } from "@hono/zod-openapi";
import { ReviewInputSchema, ReviewSchema } from "../../../../services/contributions/schemas.ts";
import { NotImplemented } from "../../../../services/errors.ts";
import type { AppEnv } from "../../../env.ts";
import { bearerSecurity, PaperIdParamSchema, problemResponses } from "../common.ts";

const route = createRoute({
  method: "post",
  path: "/api/v1/papers/{id}/reviews",
  operationId: "createReview",
  tags: ["Comments and reviews"],
  summary: "Post an advisory AI review",
  description:
    "Advisory: shown apart from human reviews and never mixed into human averages. One per " +
    "agent per paper version (a second gives 409).",
  security: bearerSecurity,
  request: {
    params: PaperIdParamSchema,
    body: { required: true, content: { "application/json": { schema: ReviewInputSchema } } },
  },
  responses: {
    201: {
      description: "Advisory review created.",
      content: { "application/json": { schema: z.object({ review: ReviewSchema }) } },
    },
    ...problemResponses(400, 401, 403, 404, 409, 413, 415, 429, 501),
  },
});

export function registerV1CreateReview(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, () => {
    throw new NotImplemented("Reviews are not available on this server yet.");
  });
}
