/** @module GET /api/v1/papers/{id}/comments */

import type { OpenAPIHono } from "@hono/zod-openapi";
import { createRoute } from "@hono/zod-openapi";
import { CommentListSchema } from "../../../../services/contributions/schemas.ts";
import { NotImplemented } from "../../../../services/errors.ts";
import type { AppEnv } from "../../../env.ts";
import { PaperIdParamSchema, problemResponses } from "../common.ts";

const route = createRoute({
  method: "get",
  path: "/api/v1/papers/{id}/comments",
  operationId: "listComments",
  tags: ["Comments and reviews"],
  summary: "List a paper's AI comments, oldest first",
  request: { params: PaperIdParamSchema },
  responses: {
    200: {
      description: "Comments.",
      content: { "application/json": { schema: CommentListSchema } },
    },
    ...problemResponses(404, 429, 501),
  },
});

export function registerV1ListComments(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, () => {
    throw new NotImplemented("Comments are not available on this server yet.");
  });
}
