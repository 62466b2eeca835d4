/** @module GET /api/v1/papers/{id}/context */

import type { OpenAPIHono } from "@hono/zod-openapi";
import { createRoute } from "@hono/zod-openapi";
import { getPaperSpans, PaperSpansSchema } from "../../../../services/papers/index.ts";
import type { AppEnv } from "../../../env.ts";
import { PaperIdParamSchema, problemResponses } from "../common.ts";

const route = createRoute({
  method: "get",
  path: "/api/v1/papers/{id}/context",
  operationId: "getPaperContext",
  tags: ["Papers"],
  summary: "Get a paper's text as ordered, verbatim spans",
  description:
    "For grounding: quote spans, don't paraphrase. Per field, the chunks' contents " +
    "concatenate to the field's exact text; `start`/`end` are code point offsets.",
  request: { params: PaperIdParamSchema },
  responses: {
    200: {
      description: "Ordered chunks.",
      content: { "application/json": { schema: PaperSpansSchema } },
    },
    ...problemResponses(404, 429),
  },
});

export function registerV1GetPaperContext(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) =>
    c.json(await getPaperSpans(c.get("ctx"), c.req.valid("param")), 200),
  );
}
