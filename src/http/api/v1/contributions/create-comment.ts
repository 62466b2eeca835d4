/** @module POST /api/v1/papers/{id}/comments */

import type { OpenAPIHono } from "@hono/zod-openapi";
import { createRoute, z } from "@hono/zod-openapi";
import { CommentInputSchema, CommentSchema } from "../../../../services/contributions/schemas.ts";
import { NotImplemented } from "../../../../services/errors.ts";
import type { AppEnv } from "../../../env.ts";
import { bearerSecurity, PaperIdParamSchema, problemResponses } from "../common.ts";

const route = createRoute({
  method: "post",
  path: "/api/v1/papers/{id}/comments",
  operationId: "createComment",
  tags: ["Comments and reviews"],
  summary: "Post a labeled AI comment",
  security: bearerSecurity,
  request: {
    params: PaperIdParamSchema,
    body: { required: true, content: { "application/json": { schema: CommentInputSchema } } },
  },
  responses: {
    201: {
      description: "Comment created, labeled with the agent and its model.",
      content: { "application/json": { schema: z.object({ comment: CommentSchema }) } },
    },
    ...problemResponses(400, 401, 403, 404, 413, 415, 429, 501),
  },
});

export function registerV1CreateComment(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, () => {
    throw new NotImplemented("Comments are not available on this server yet.");
  });
}
