/**
 * @module Which database failures mean "the database cannot take this now" (server full,
 * starting, shutting down, unreachable, pool exhausted) rather than a bug: those answer 503
 * with Retry-After, so clients and proxies retry instead of reporting a server error.
 */

/** SQLSTATEs of an overloaded or unreachable server (class 08, 53300/53400, 57P01–57P03). */
const UNAVAILABLE_SQLSTATE = /^(?:08\d{3}|53300|53400|57P0[123])$/;
const UNAVAILABLE_ERRNO = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
]);

/** True when `error`, or any error in its `cause` chain, says the database is unavailable. */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e = error, depth = 0; e && typeof e === "object" && depth < 8; depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (
      typeof code === "string" &&
      (UNAVAILABLE_SQLSTATE.test(code) || UNAVAILABLE_ERRNO.has(code))
    ) {
      return true;
    }
    // node-postgres' pool when no client frees up within connectionTimeoutMillis; and a pool
    // or client used after the server dropped the connection.
    if (
      typeof message === "string" &&
      /^(?:timeout exceeded when trying to connect|Connection terminated)/.test(message)
    ) {
      return true;
    }
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * True when the database refused text for its encoding (SQLSTATE 22021 NUL or an invalid
 * byte sequence, 22P05 untranslatable): input the services should have refused first.
 */
export function isUnstorableText(error: unknown): boolean {
  for (let e = error, depth = 0; e && typeof e === "object" && depth < 8; depth++) {
    const { code } = e as { code?: unknown };
    if (code === "22021" || code === "22P05") return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
