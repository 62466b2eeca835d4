/** @module Cache headers and conditional GETs for public reads. */
import type { MiddlewareHandler } from "hono";
import { bodyEtag, keepSerializedJson, serializedBody } from "../serialized.ts";

/** Headers a 304 keeps from the 200 it stands for (RFC 9110 §15.4.5; Hono's etag list). */
const RETAINED_304_HEADERS = new Set([
  "cache-control",
  "content-location",
  "date",
  "etag",
  "expires",
  "vary",
]);

/**
 * Public GETs get a strong ETag (SHA-1 of the body, as Hono's `etag()` computes it, so tags
 * are equal across instances for equal bodies), `If-None-Match` → 304, and a short
 * shared-cache lifetime so a CDN can absorb read traffic while edits show within a minute.
 *
 * The hash is synchronous over the string the handler serialized (see serialized.ts); only
 * a body some other code made (a page of text, a feed) is read back from its stream first.
 */
export function publicCache(maxAgeSeconds = 60): MiddlewareHandler {
  const cacheControl = `public, max-age=${maxAgeSeconds}, stale-while-revalidate=${maxAgeSeconds * 5}`;
  return async (c, next) => {
    if (c.req.method !== "GET" && c.req.method !== "HEAD") return next();
    const ifNoneMatch = c.req.header("if-none-match") ?? null;
    keepSerializedJson(c);
    await next();
    const res = c.res;
    if (res.status === 200 && !res.headers.has("cache-control")) {
      res.headers.set("cache-control", cacheControl);
    }
    if (!res.ok) return;
    let tag = res.headers.get("etag");
    if (!tag) {
      const text = serializedBody(c);
      if (text !== undefined) {
        tag = bodyEtag(text);
      } else {
        if (!res.body) return;
        const bytes = new Uint8Array(await res.arrayBuffer());
        tag = bodyEtag(bytes);
        c.res = new Response(bytes, res);
      }
      if (tag === null) return;
    }
    if (ifNoneMatch === "*" || matches(tag, ifNoneMatch)) {
      await c.res.body?.cancel();
      // Hono's setter carries the 200's headers over; only those a 304 keeps stay.
      c.res = new Response(null, {
        status: 304,
        statusText: "Not Modified",
        headers: { etag: tag },
      });
      for (const name of [...c.res.headers.keys()]) {
        if (!RETAINED_304_HEADERS.has(name)) c.res.headers.delete(name);
      }
      return;
    }
    c.res.headers.set("etag", tag);
  };
}

/** Whether a strong comparison of `If-None-Match`'s tags (weakness ignored) finds `etag`. */
function matches(etag: string, ifNoneMatch: string | null): boolean {
  const expected = etag.replace(/^W\//, "");
  return ifNoneMatch?.match(/"[^"]*"/g)?.some((tag) => tag === expected) ?? false;
}
