/** @module GET /api/v1/dataset/papers.jsonl */

import type { OpenAPIHono } from "@hono/zod-openapi";
import { PaperExportRecordSchema } from "../../../../services/dataset/index.ts";
import type { AppEnv } from "../../../env.ts";
import { registerExportRoute } from "./export-route.ts";

export function registerV1PapersExport(app: OpenAPIHono<AppEnv>) {
  registerExportRoute(app, {
    kind: "papers",
    operationId: "exportPapers",
    summary: "Every visible paper's current version, as JSON Lines",
    description:
      "The `papers.jsonl` of the Croissant dataset: one JSON object per line for every visible " +
      "paper's current version, ordered by id, streamed. The bytes are exactly those whose " +
      "sha256 and size the Croissant document publishes for the current corpus.",
    recordSchema: PaperExportRecordSchema,
  });
}
