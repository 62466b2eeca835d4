/** @module Cache headers and conditional GETs for public reads. */
import type { MiddlewareHandler } from "hono";
import { etag } from "hono/etag";

/**
 * Public GETs get a strong ETag (SHA-1 of the body), `If-None-Match` → 304, and a short
 * shared-cache lifetime so a CDN can absorb read traffic while edits show within a minute.
 */
export function publicCache(maxAgeSeconds = 60): MiddlewareHandler {
  const tag = etag();
  return async (c, next) => {
    if (c.req.method !== "GET" && c.req.method !== "HEAD") return next();
    await tag(c, async () => {
      await next();
      if (c.res.status === 200 && !c.res.headers.has("cache-control")) {
        c.res.headers.set(
          "cache-control",
          `public, max-age=${maxAgeSeconds}, stale-while-revalidate=${maxAgeSeconds * 5}`,
        );
      }
    });
  };
}
