/** @module CORS for public origins ("*"): preflights answered, actual responses labelled after. */
import type { MiddlewareHandler } from "hono";
import { cors } from "hono/cors";
import { setResponseHeaders } from "../set-headers.ts";

export interface PublicCorsOptions {
  allowMethods: string[];
  allowHeaders?: string[];
  exposeHeaders?: string[];
  maxAge?: number;
}

/**
 * Any origin, no credentials. Preflights (OPTIONS) go to Hono's `cors()` as they are. On every
 * other request the same headers Hono's would set (`Access-Control-Allow-Origin: *` and
 * `Access-Control-Expose-Headers`) are set after the handler, on the response it made: Hono's
 * sets them on `c.res` before the handler, which makes an empty response the handler's then
 * has to be merged into, turning every answer into a full web Response whose body stream
 * the server must drain (a third of a cached read's CPU, measured in bench:api).
 */
export function publicCors(options: PublicCorsOptions): MiddlewareHandler {
  const preflight = cors({ origin: "*", ...options });
  const headers: Record<string, string> = { "access-control-allow-origin": "*" };
  if (options.exposeHeaders?.length) {
    headers["access-control-expose-headers"] = options.exposeHeaders.join(",");
  }
  return async (c, next) => {
    if (c.req.method === "OPTIONS") return preflight(c, next);
    await next();
    setResponseHeaders(c, headers);
  };
}
