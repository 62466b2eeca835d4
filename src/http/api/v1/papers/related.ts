/** @module GET /api/v1/papers/{id}/related */

import type { OpenAPIHono } from "@hono/zod-openapi";
import { createRoute } from "@hono/zod-openapi";
import {
  RelatedInputSchema,
  RelatedPapersSchema,
  relatedPapers,
} from "../../../../services/papers/index.ts";
import type { AppEnv } from "../../../env.ts";
import { PaperIdParamSchema, problemResponses } from "../common.ts";

const route = createRoute({
  method: "get",
  path: "/api/v1/papers/{id}/related",
  operationId: "getRelatedPapers",
  tags: ["Papers"],
  summary: "Papers whose text is closest to this one",
  description:
    "Other published papers (their current versions) closest to this paper's text, closest " +
    "first, from the search index: the paper's most distinctive words as one BM25 query, " +
    "fused with the character n-gram channel (a lexical model, not a neural one). Never the " +
    "paper itself or another version of it; `{id}vN` finds papers close to version N's " +
    "text. Each item is a paper list item with a `score` in [0, 1].",
  request: { params: PaperIdParamSchema, query: RelatedInputSchema },
  responses: {
    200: {
      description: "Related papers, closest first.",
      content: { "application/json": { schema: RelatedPapersSchema } },
    },
    ...problemResponses(400, 404, 429),
  },
});

export function registerV1GetRelatedPapers(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    const { limit } = c.req.valid("query");
    return c.json(await relatedPapers(c.get("ctx"), { id, limit }), 200);
  });
}
