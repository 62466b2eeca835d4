/**
 * @module The JSON a handler serialized, kept beside its response, so validators and
 * compression use the string already made instead of reading the body back from its stream.
 */
import { createHash } from "node:crypto";
import type { Context } from "hono";

interface Serialized {
  response: Response;
  text: string;
}

const kept = new WeakMap<object, Serialized>();

/**
 * Replaces `c.json` for this request with one that answers exactly as Hono's does (the same
 * string, status and headers: `Content-Type: application/json` unless given) and keeps the
 * string. Installed once per request, before any handler runs.
 */
export function keepSerializedJson(c: Context): void {
  if (kept.has(c.req.raw)) return;
  const json = (object: unknown, arg?: unknown, headers?: Record<string, string | string[]>) => {
    const text = JSON.stringify(object);
    const response = c.body(text, arg as 200, {
      "Content-Type": "application/json",
      ...headers,
    });
    kept.set(c.req.raw, { response, text });
    return response;
  };
  kept.set(c.req.raw, { response: undefined as unknown as Response, text: "" });
  (c as unknown as { json: typeof json }).json = json;
}

/**
 * The body of `c.res` as the string the handler serialized, when `c.res` is still the very
 * response `c.json` made (no middleware replaced it); otherwise undefined.
 */
export function serializedBody(c: Context): string | undefined {
  const entry = kept.get(c.req.raw);
  return entry && entry.response === c.res ? entry.text : undefined;
}

/** Bytes per digest step: what Hono's etag middleware hashes at a time. */
const DIGEST_CHUNK = 256 * 1024;

/**
 * The strong ETag Hono's `etag()` middleware would give this body (SHA-1 in hex; a body over
 * 256 KiB is hashed as its chain of 256 KiB steps, as Hono does), computed synchronously, so
 * tags stay what clients and caches already hold. Null for an empty body (Hono sets none).
 */
export function bodyEtag(body: string | Uint8Array): string | null {
  if (typeof body === "string") {
    if (body.length === 0) return null;
    // Fast path: a string under the chunk size in UTF-8 is hashed as is.
    if (body.length * 3 <= DIGEST_CHUNK || Buffer.byteLength(body) <= DIGEST_CHUNK) {
      return `"${createHash("sha1").update(body, "utf8").digest("hex")}"`;
    }
    return bodyEtag(Buffer.from(body, "utf8"));
  }
  if (body.byteLength === 0) return null;
  let digest: Buffer | undefined;
  for (let offset = 0; offset < body.byteLength; offset += DIGEST_CHUNK) {
    const hash = createHash("sha1");
    if (digest) hash.update(digest);
    hash.update(body.subarray(offset, offset + DIGEST_CHUNK));
    digest = hash.digest();
  }
  return `"${(digest as Buffer).toString("hex")}"`;
}

/** Where compression finds (and leaves) a response's compressed bytes: a cached entry. */
export interface EncodedBodies {
  get(encoding: "br" | "gzip"): Uint8Array | undefined;
  set(encoding: "br" | "gzip", body: Uint8Array): void;
}

const encodedBodies = new WeakMap<object, EncodedBodies>();

/** Lets compression reuse, and keep in `store`, the compressed bodies of this request's answer. */
export function keepEncodedBodies(c: Context, store: EncodedBodies): void {
  encodedBodies.set(c.req.raw, store);
}

export function encodedBodiesOf(c: Context): EncodedBodies | undefined {
  return encodedBodies.get(c.req.raw);
}

/**
 * Answers with a string made earlier (a cached body) as if `c.json` had just made it, so the
 * validators and compression after this use the string, not the body stream.
 */
export function respondWithSerialized(
  c: Context,
  text: string,
  headers: [string, string][],
): Response {
  keepSerializedJson(c);
  const record: Record<string, string> = {};
  for (const [name, value] of headers) record[name] = value;
  const response = c.body(text, 200, record);
  kept.set(c.req.raw, { response, text });
  return response;
}
