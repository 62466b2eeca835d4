/** @module GET /api/v1/papers/{id} */

import type { OpenAPIHono } from "@hono/zod-openapi";
import { createRoute, z } from "@hono/zod-openapi";
import { NotImplemented } from "../../../../services/errors.ts";
import { getPaper } from "../../../../services/papers/get.ts";
import { PaperDetailSchema } from "../../../../services/papers/schemas.ts";
import type { AppEnv } from "../../../env.ts";
import { PaperIdParamSchema, problemResponses } from "../common.ts";

const route = createRoute({
  method: "get",
  path: "/api/v1/papers/{id}",
  operationId: "getPaper",
  tags: ["Papers"],
  summary: "Get a paper with its current version",
  description:
    "The paper and its current version; `{id}vN` gives version N. With `format=jsonld` (or " +
    "`Accept: application/ld+json`) a schema.org ScholarlyArticle as `application/ld+json`.",
  request: {
    params: PaperIdParamSchema,
    query: z.object({
      format: z
        .enum(["json", "jsonld"])
        .optional()
        .openapi({
          param: { name: "format", in: "query" },
          description: "`jsonld` for schema.org JSON-LD.",
        }),
    }),
  },
  responses: {
    200: {
      description: "The paper and the requested version.",
      content: {
        "application/json": { schema: PaperDetailSchema },
        "application/ld+json": {
          schema: z
            .object({})
            .passthrough()
            .openapi({ description: "schema.org ScholarlyArticle." }),
        },
      },
    },
    ...problemResponses(400, 404, 429),
  },
});

export function registerV1GetPaper(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    const { format } = c.req.valid("query");
    const wantsJsonLd =
      format === "jsonld" ||
      (format === undefined && /application\/ld\+json/.test(c.req.header("accept") ?? ""));
    const detail = await getPaper(c.get("ctx"), { id });
    if (wantsJsonLd) throw new NotImplemented("JSON-LD is not available yet.");
    c.header("vary", "Accept");
    return c.json(detail, 200);
  });
}
