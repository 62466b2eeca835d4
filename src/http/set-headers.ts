/** @module Setting headers on a response after its handler ran, whatever made the response. */
import type { Context } from "hono";

/**
 * Sets `headers` on `c.res` in place. In place keeps @hono/node-server's lightweight response
 * (a string body and a header list) lightweight: reading its headers is cheap, while reading
 * its body or replacing it makes a full web Response and a stream to drain. Some responses
 * (Response.redirect, fetch) have immutable headers: those are copied, then set.
 */
export function setResponseHeaders(c: Context, headers: Record<string, string>): void {
  const entries = Object.entries(headers);
  if (entries.length === 0) return;
  try {
    for (const [name, value] of entries) c.res.headers.set(name, value);
  } catch {
    c.res = new Response(c.res.body, c.res);
    for (const [name, value] of entries) c.res.headers.set(name, value);
  }
}

/**
 * Replaces `c.res` with `response`, which already carries every header it should (made with
 * the old response's `Headers`). Hono's setter would copy the old response's headers onto it,
 * reading the new one's body to do so, which turns a lightweight response into a full one.
 */
export function replaceResponse(c: Context, response: Response): void {
  c.res = undefined;
  c.res = response;
}
