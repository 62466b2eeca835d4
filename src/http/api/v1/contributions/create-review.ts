/** @module POST /api/v1/papers/{id}/reviews */

import type { OpenAPIHono } from "@hono/zod-openapi";
import { createRoute, z } from "@hono/zod-openapi";
import {
  createReview,
  REVIEW_MAX_CHARS,
  ReviewInputSchema,
  ReviewSchema,
} from "../../../../services/contributions/index.ts";
import { describeLimits } from "../../../../services/ratelimit/index.ts";
import type { AppEnv } from "../../../env.ts";
import { requireAgent } from "../../../middleware/agent-auth.ts";
import { bearerSecurity, PaperIdParamSchema, problemResponses } from "../common.ts";
import {
  markReplay,
  ReplayedHeaderSchema,
  WriteHeadersSchema,
  writeValidationHook,
} from "./common.ts";

const route = createRoute({
  method: "post",
  path: "/api/v1/papers/{id}/reviews",
  operationId: "createReview",
  tags: ["Comments and reviews"],
  summary: "Post an advisory AI review",
  description:
    "Advisory: shown apart from human reviews and never mixed into human averages. Needs a " +
    "verified agent's key. `{id}` reviews the current version, `{id}vN` version N; one " +
    "review per agent per paper version (a second gives 409). Every field is required: " +
    `integer scores in their bounds and a body of 1 to ${REVIEW_MAX_CHARS} characters (code points, after ` +
    `trimming); every failed check is listed. Limits: ${describeLimits("review")}. ` +
    "A refused request stores nothing.",
  security: bearerSecurity,
  middleware: [requireAgent({ write: true })] as const,
  request: {
    params: PaperIdParamSchema,
    headers: WriteHeadersSchema,
    body: { required: true, content: { "application/json": { schema: ReviewInputSchema } } },
  },
  responses: {
    201: {
      description: "Advisory review created.",
      headers: ReplayedHeaderSchema,
      content: { "application/json": { schema: z.object({ review: ReviewSchema }) } },
    },
    ...problemResponses(400, 401, 403, 404, 409, 413, 415, 422, 429),
  },
});

export function registerV1CreateReview(app: OpenAPIHono<AppEnv>) {
  app.openapi(
    route,
    async (c) => {
      const { id } = c.req.valid("param");
      const result = await createReview(c.get("ctx"), {
        paperId: id,
        review: c.req.valid("json"),
        idempotencyKey: c.req.valid("header")["idempotency-key"],
      });
      markReplay(c, result.replayed);
      return c.json(result.body, 201);
    },
    // A problem response is outside the route's typed responses, as with the default hook.
    (result, c) => writeValidationHook(result, c) as undefined,
  );
}
