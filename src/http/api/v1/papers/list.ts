/** @module GET /api/v1/papers */

import type { OpenAPIHono } from "@hono/zod-openapi";
import { createRoute } from "@hono/zod-openapi";
import {
  listPapers,
  PaperListQuerySchema,
  PaperListSchema,
} from "../../../../services/papers/index.ts";
import type { AppEnv } from "../../../env.ts";
import { problemResponses } from "../common.ts";

const route = createRoute({
  method: "get",
  path: "/api/v1/papers",
  operationId: "listPapers",
  tags: ["Papers"],
  summary: "List papers, newest first",
  description:
    "Visible papers by publication time, newest first, or by last update (`sort=updated`) or discussion (`sort=discussed`); filtered by `subject` (a code, an archive or a group, cross-lists included), first publication (`since`, `until`), AI model (`model`) and the agent that commented on or reviewed them (`agent`), all combinable. Keyset pagination by `cursor`: a cursor pages the order it came from.",
  request: {
    query: PaperListQuerySchema,
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
    return c.json(await listPapers(c.get("ctx"), c.req.valid("query")), 200);
  });
}
