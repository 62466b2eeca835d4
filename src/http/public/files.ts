/**
 * @module GET /files/{sha256}: a paper's figure or supplementary file, by its content hash —
 * immutable, with a strong ETag (the hash), byte ranges, and headers that keep any content
 * inert on Quire's origin: nosniff, and a CSP of `default-src 'none'; sandbox`, so an SVG
 * opened directly runs no script (pages show figures only through <img>).
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { getFile } from "../../services/files/index.ts";
import type { AppEnv } from "../env.ts";

/** The headers of every file answer; `no-transform` keeps ranges and the ETag byte-exact. */
const FILE_HEADERS = {
  "cache-control": "public, max-age=31536000, immutable, no-transform",
  "x-content-type-options": "nosniff",
  "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; sandbox",
  "cross-origin-resource-policy": "same-site",
  "accept-ranges": "bytes",
} as const;

/** `bytes=a-b`, `bytes=a-` or `bytes=-n` (one range); null for anything else (sent whole). */
function parseRange(
  header: string,
  size: number,
): { start: number; end: number } | "unsatisfiable" | null {
  const m = /^bytes=\s*(\d*)\s*-\s*(\d*)\s*$/.exec(header.trim());
  if (!m || (m[1] === "" && m[2] === "")) return null;
  if (m[1] === "") {
    const suffix = Number(m[2]);
    if (suffix === 0) return "unsatisfiable";
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === "" ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size || end < start) return "unsatisfiable";
  return { start, end };
}

function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header
    .split(",")
    .map((t) => t.trim().replace(/^W\//, ""))
    .some((t) => t === "*" || t === etag);
}

async function serveFile(c: Context<AppEnv>): Promise<Response> {
  const sha256 = c.req.param("sha256") ?? "";
  const head = c.req.method === "HEAD";
  const conditional = c.req.header("if-none-match");
  const meta = await getFile(c.get("ctx"), { sha256, content: false });
  const etag = `"${meta.sha256}"`;
  const image = meta.mediaType.startsWith("image/");
  const headers: Record<string, string> = {
    ...FILE_HEADERS,
    etag,
    "content-type": meta.mediaType,
    "content-disposition": image ? "inline" : "attachment",
  };
  if (matchesEtag(conditional, etag)) return c.body(null, 304, headers);
  const rangeHeader = c.req.header("range");
  const ifRange = c.req.header("if-range");
  const range =
    rangeHeader && (!ifRange || ifRange.trim() === etag)
      ? parseRange(rangeHeader, meta.size)
      : null;
  if (range === "unsatisfiable") {
    return c.body(null, 416, { ...headers, "content-range": `bytes */${meta.size}` });
  }
  if (head) {
    return c.body(null, 200, { ...headers, "content-length": String(meta.size) });
  }
  const file = await getFile(c.get("ctx"), { sha256 });
  const content = file.content ?? new Uint8Array();
  if (range) {
    const part = content.subarray(range.start, range.end + 1);
    return c.body(part as Uint8Array<ArrayBuffer>, 206, {
      ...headers,
      "content-range": `bytes ${range.start}-${range.end}/${meta.size}`,
    });
  }
  return c.body(content as Uint8Array<ArrayBuffer>, 200, headers);
}

export function registerFiles(app: OpenAPIHono<AppEnv>): void {
  app.get("/files/:sha256", serveFile);
}
