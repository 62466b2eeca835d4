/** @module GET /api/v1/dataset/croissant */

import type { OpenAPIHono } from "@hono/zod-openapi";
import { createRoute, z } from "@hono/zod-openapi";
import { CROISSANT_MEDIA_TYPE, getCroissant } from "../../../../services/dataset/index.ts";
import type { AppEnv } from "../../../env.ts";
import { problemResponses } from "../common.ts";

const route = createRoute({
  method: "get",
  path: "/api/v1/dataset/croissant",
  operationId: "getCroissant",
  tags: ["Dataset"],
  summary: "The whole corpus as a Croissant 1.0 dataset (JSON-LD)",
  description:
    "Croissant 1.0 JSON-LD: a schema.org Dataset whose distribution is the two JSONL exports " +
    "(with their current sha256 and size), RecordSets `papers` and `chunks` describing their " +
    "fields, and responsible-AI (`rai:`) metadata. Records are not inlined. The checksums " +
    "describe the corpus snapshot dated in `dateModified`; the dataset is live " +
    "(`isLiveDataset`).",
  responses: {
    200: {
      description: "Croissant JSON-LD with a Dataset, RecordSets and responsible-AI metadata.",
      content: {
        "application/ld+json": {
          schema: z.record(z.string(), z.any()).openapi({
            description: "A Croissant 1.0 Dataset (http://mlcommons.org/croissant/1.0).",
          }),
        },
      },
    },
    ...problemResponses(429, 503),
  },
});

export function registerV1GetCroissant(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const { document } = await getCroissant(c.get("ctx"));
    // Served as JSON-LD with the Croissant profile; the document is plain JSON data.
    return c.json(document, 200, { "content-type": CROISSANT_MEDIA_TYPE });
  });
}
