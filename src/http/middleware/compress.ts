/** @module Response compression with brotli or gzip (node:zlib), buffered or streamed. */
import { pipeline, Readable } from "node:stream";
import { promisify } from "node:util";
import zlib from "node:zlib";
import type { Context, MiddlewareHandler } from "hono";
import { encodedBodiesOf, keepSerializedJson, serializedBody } from "../serialized.ts";
import { replaceResponse } from "../set-headers.ts";

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
// Not text/event-stream: an event stream never ends, and each event must leave at once.
const COMPRESSIBLE =
  /^(text\/(?!event-stream)|application\/(json|ld\+json|problem\+json|xml|atom\+xml|javascript|x-ndjson|jsonl|x-bibtex|x-research-info-systems|vnd\.citationstyles)|image\/svg)/;
/** Line-delimited exports are streamed; everything else is small enough to buffer. */
const STREAMED = /ndjson|jsonl/;
const MIN_BYTES = 1024;
const BROTLI_PARAMS = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } };

/**
 * Negotiates br, then gzip. Fixed-length bodies are compressed in one call on the thread
 * pool (from the JSON string the handler made, when it made one); streamed bodies (exports)
 * through a zlib stream, so memory stays flat. A strong ETag becomes weak, since the bytes
 * on the wire now differ per encoding. When nothing is compressed, the response is left as
 * it is (only `Vary` is added), never copied into a new one.
 */
export function compress(): MiddlewareHandler {
  return async (c, next) => {
    keepSerializedJson(c);
    await next();
    const res = c.res;
    const accept = c.req.header("accept-encoding") ?? "";
    const type = res.headers.get("content-type") ?? "";
    // The serialized string first: asking a lightweight response for its body makes it a full one.
    const text = STREAMED.test(type) ? undefined : serializedBody(c);
    if (
      c.req.method === "HEAD" ||
      res.status === 204 ||
      res.status === 304 ||
      res.headers.has("content-encoding") ||
      !COMPRESSIBLE.test(type) ||
      (text === undefined && !res.body)
    ) {
      return;
    }
    const encoding = negotiate(accept);
    if (!encoding || (text !== undefined && text.length < MIN_BYTES / 3)) {
      addVary(c);
      return;
    }
    // Changed in place: Hono copies the old response's headers onto the one set next.
    const headers = res.headers;
    headers.append("vary", "Accept-Encoding");
    let body: Buffer | ReadableStream;
    if (!STREAMED.test(type)) {
      // A cached answer's compressed bytes are made once and kept with it (response-cache.ts).
      const store = encodedBodiesOf(c);
      const made = store?.get(encoding);
      if (made) {
        body = Buffer.from(made.buffer, made.byteOffset, made.byteLength);
      } else {
        const raw = text !== undefined ? Buffer.from(text) : Buffer.from(await res.arrayBuffer());
        if (raw.length < MIN_BYTES) {
          // The handler's own response is left alone (Vary is on it already); one read back
          // from its stream is rebuilt.
          if (text === undefined) c.res = new Response(raw, { status: res.status, headers });
          return;
        }
        body = encoding === "br" ? await brotli(raw, BROTLI_PARAMS) : await gzip(raw);
        store?.set(encoding, body);
      }
      headers.set("content-length", String((body as Buffer).length));
    } else {
      const source = Readable.fromWeb(res.body as import("node:stream/web").ReadableStream);
      const encoder =
        encoding === "br" ? zlib.createBrotliCompress(BROTLI_PARAMS) : zlib.createGzip();
      // pipeline (unlike pipe) passes a source error on, so an aborted export ends the
      // response instead of leaving an unhandled stream error.
      body = Readable.toWeb(pipeline(source, encoder, () => {})) as unknown as ReadableStream;
      headers.delete("content-length");
    }
    headers.set("content-encoding", encoding);
    const etag = headers.get("etag");
    if (etag && !etag.startsWith("W/")) headers.set("etag", `W/${etag}`);
    replaceResponse(c, new Response(body, { status: res.status, headers }));
  };
}

/** Adds `Vary: Accept-Encoding` in place (a copy only when the headers are immutable). */
function addVary(c: Context): void {
  try {
    c.res.headers.append("vary", "Accept-Encoding");
  } catch {
    const headers = new Headers(c.res.headers);
    headers.append("vary", "Accept-Encoding");
    c.res = new Response(c.res.body, { status: c.res.status, headers });
  }
}

/** Picks br, then gzip, honouring q-values (`br;q=0` refuses brotli). */
export function negotiate(acceptEncoding: string): "br" | "gzip" | null {
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    if (!name) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const weight = q ? Number(q.slice(2)) : 1;
    weights.set(name, Number.isFinite(weight) ? weight : 0);
  }
  const wildcard = weights.get("*");
  const weightOf = (name: string) => weights.get(name) ?? wildcard ?? 0;
  if (weightOf("br") > 0) return "br";
  if (weightOf("gzip") > 0) return "gzip";
  return null;
}
