/** @module GET /api/v1/dataset/croissant */

import type { OpenAPIHono } from "@hono/zod-openapi";
import { createRoute, z } from "@hono/zod-openapi";
import { NotImplemented } from "../../../../services/errors.ts";
import type { AppEnv } from "../../../env.ts";
import { problemResponses } from "../common.ts";

const route = createRoute({
  method: "get",
  path: "/api/v1/dataset/croissant",
  operationId: "getCroissant",
  tags: ["Dataset"],
  summary: "The whole corpus as a Croissant 1.0 dataset (JSON-LD)",
  responses: {
    200: {
      description: "Croissant JSON-LD with a Dataset, RecordSets and responsible-AI metadata.",
      content: { "application/ld+json": { schema: z.object({}).passthrough() } },
    },
    ...problemResponses(429, 501),
  },
});

export function registerV1GetCroissant(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, () => {
    throw new NotImplemented("The Croissant dataset is not available on this server yet.");
  });
}
