/** @module The two JSONL export routes share one shape: conditional, verified, streamed. */

import type { OpenAPIHono } from "@hono/zod-openapi";
import { createRoute, z } from "@hono/zod-openapi";
import {
  EXPORT_FILE_NAMES,
  EXPORT_MEDIA_TYPE,
  type ExportKind,
  exportPath,
  openExport,
} from "../../../../services/dataset/index.ts";
import type { AppEnv } from "../../../env.ts";
import { problem } from "../../../problem.ts";
import { ProblemSchema, problemResponses } from "../common.ts";

const ConditionalHeadersSchema = z.object({
  "if-match": z
    .string()
    .optional()
    .openapi({
      param: { name: "if-match", in: "header" },
      description:
        'The `"<sha256>"` from the Croissant document: the download is served only if it is ' +
        "still those bytes, else 412.",
    }),
  "if-none-match": z
    .string()
    .optional()
    .openapi({
      param: { name: "if-none-match", in: "header" },
      description: "An ETag you hold; 304 if the export has not changed.",
    }),
});

const successHeaders = {
  ETag: {
    description: "The sha256 of the bytes, quoted (`W/` added when the body is compressed).",
    schema: { type: "string" as const },
  },
  "Repr-Digest": {
    description: "RFC 9530 digest of the (uncompressed) bytes: `sha-256=:<base64>:`.",
    schema: { type: "string" as const },
  },
  "Content-Length": {
    description: "The size published in the Croissant (absent when compressed).",
    schema: { type: "integer" as const },
  },
};

export interface ExportRouteOptions {
  kind: ExportKind;
  operationId: string;
  summary: string;
  description: string;
  recordSchema: z.ZodTypeAny;
}

/**
 * Registers GET for one export. The body's sha256 and length are the current snapshot's,
 * promised up front in ETag, Repr-Digest and Content-Length; the service aborts the stream
 * rather than complete it with other bytes if the corpus moves mid-download.
 */
export function registerExportRoute(app: OpenAPIHono<AppEnv>, options: ExportRouteOptions) {
  const { kind } = options;
  const route = createRoute({
    method: "get",
    path: exportPath(kind),
    operationId: options.operationId,
    tags: ["Dataset"],
    summary: options.summary,
    description: options.description,
    request: { headers: ConditionalHeadersSchema },
    responses: {
      200: {
        description: `${EXPORT_FILE_NAMES[kind]}: one JSON object per line (schema: one line).`,
        headers: successHeaders,
        content: { "application/x-ndjson": { schema: options.recordSchema } },
      },
      304: { description: "Not modified: the ETag in If-None-Match is current." },
      412: {
        description:
          "If-Match names other bytes: the corpus changed since; fetch the Croissant again.",
        content: { "application/problem+json": { schema: ProblemSchema } },
      },
      ...problemResponses(400, 429, 503),
    },
  });
  app.openapi(route, async (c) => {
    const opened = await openExport(c.get("ctx"), kind);
    const etag = `"${opened.digest.sha256}"`;
    const ifMatch = c.req.header("if-match");
    if (ifMatch !== undefined && !strongMatch(ifMatch, etag)) {
      await opened.body.cancel();
      return problem(
        c,
        412,
        `${EXPORT_FILE_NAMES[kind]} is now ${etag}: the corpus changed since the Croissant you hold. Fetch /api/v1/dataset/croissant again.`,
        { headers: { etag } },
      );
    }
    return new Response(opened.body, {
      status: 200,
      headers: {
        "content-type": EXPORT_MEDIA_TYPE,
        "content-length": String(opened.digest.bytes),
        etag,
        "repr-digest": `sha-256=:${Buffer.from(opened.digest.sha256, "hex").toString("base64")}:`,
      },
    });
  });
}

/** RFC 9110 If-Match: `*` or a list of strong entity tags; weak tags never match. */
function strongMatch(header: string, etag: string): boolean {
  if (header.trim() === "*") return true;
  return (header.match(/(W\/)?"[^"]*"/g) ?? []).some((tag) => tag === etag);
}
