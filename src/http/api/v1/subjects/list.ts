/** @module GET /api/v1/subjects */

import type { OpenAPIHono } from "@hono/zod-openapi";
import { createRoute } from "@hono/zod-openapi";
import {
  SubjectIndexQuerySchema,
  SubjectIndexSchema,
  subjectIndex,
} from "../../../../services/papers/index.ts";
import type { AppEnv } from "../../../env.ts";
import { problemResponses } from "../common.ts";

const route = createRoute({
  method: "get",
  path: "/api/v1/subjects",
  operationId: "listSubjects",
  tags: ["Papers"],
  summary: "The subject taxonomy, with paper counts",
  description:
    "Every group and category of arXiv's scheme (the codes `subject` takes on the list, search, feeds and OAI-PMH), with English and Spanish names, aliases and how many visible papers each holds. The list's filters (`subject`, `since`, `until`, `model`, `agent`) narrow what is counted, never the taxonomy: the counts are the facets of that list.",
  request: { query: SubjectIndexQuerySchema },
  responses: {
    200: {
      description: "The taxonomy, in arXiv's order, with counts.",
      content: { "application/json": { schema: SubjectIndexSchema } },
    },
    ...problemResponses(400, 429),
  },
});

export function registerV1ListSubjects(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    return c.json(await subjectIndex(c.get("ctx"), c.req.valid("query")), 200);
  });
}
