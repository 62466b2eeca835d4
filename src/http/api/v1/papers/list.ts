/** @module GET /api/v1/papers */

import type { OpenAPIHono } from "@hono/zod-openapi";
import { createRoute } from "@hono/zod-openapi";
import { listPapers, PaperListSchema } from "../../../../services/papers/index.ts";
import type { AppEnv } from "../../../env.ts";
import { PageQuerySchema, problemResponses } from "../common.ts";

const route = createRoute({
  method: "get",
  path: "/api/v1/papers",
  operationId: "listPapers",
  tags: ["Papers"],
  summary: "List papers, newest first",
  description: "Visible papers by publication time, newest first; keyset pagination by `cursor`.",
  request: {
    query: PageQuerySchema,
  },
  responses: {
    200: {
      description: "A page of papers.",
      content: { "application/json": { schema: PaperListSchema } },
    },
    ...problemResponses(400, 429),
  },
});

export function registerV1ListPapers(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const { limit, cursor } = c.req.valid("query");
    return c.json(await listPapers(c.get("ctx"), { limit, ...(cursor ? { cursor } : {}) }), 200);
  });
}
