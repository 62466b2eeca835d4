/** @module GET /api/v1/dataset/chunks.jsonl */

import type { OpenAPIHono } from "@hono/zod-openapi";
import { ChunkExportRecordSchema } from "../../../../services/dataset/index.ts";
import type { AppEnv } from "../../../env.ts";
import { registerExportRoute } from "./export-route.ts";

export function registerV1ChunksExport(app: OpenAPIHono<AppEnv>) {
  registerExportRoute(app, {
    kind: "chunks",
    operationId: "exportChunks",
    summary: "Every verbatim span of the visible papers, as JSON Lines",
    description:
      "The `chunks.jsonl` of the Croissant dataset: one JSON object per span of every visible " +
      "paper's current version, ordered by paper id and chunk index, streamed. Per paper and " +
      "field, the contents concatenate to exactly the field's text.",
    recordSchema: ChunkExportRecordSchema,
  });
}
