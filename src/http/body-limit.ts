/** @module The one body-size cap of every front end: refuses an oversized body without breaking keep-alive. */
import type { Context, MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";

/**
 * Caps a request body at `maxSize` bytes; `onError` answers (413) when it is over.
 *
 * A declared `Content-Length` is checked before anything touches the body. That matters:
 * once the body is opened as a web stream (as `hono/body-limit` does first), the Node adapter
 * cannot discard the unread rest after an early answer (the stream pauses the socket again),
 * so it destroys the connection half a second later, and a client that reuses it, as the
 * 413's `Connection: keep-alive` invites, gets a reset. Refused before the stream exists, the
 * unread body is drained by Node and the connection stays usable. A chunked body (no length)
 * is counted as it streams; over the cap, that answer closes the connection.
 */
export function limitBody<C extends Context>(options: {
  maxSize: number;
  onError: (c: C) => Response | Promise<Response>;
}): MiddlewareHandler {
  const streaming = bodyLimit({
    maxSize: options.maxSize,
    onError: async (c) => {
      const res = await options.onError(c as C);
      res.headers.set("connection", "close");
      return res;
    },
  });
  return async (c, next) => {
    const declared = c.req.header("content-length");
    if (declared !== undefined && c.req.header("transfer-encoding") === undefined) {
      const size = Number(declared);
      if (!Number.isSafeInteger(size) || size < 0 || size > options.maxSize) {
        return options.onError(c as C);
      }
      return next();
    }
    return streaming(c, next);
  };
}
