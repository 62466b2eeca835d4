/** @module The OAuth endpoints' answer when the service cannot take a request now. */
import { UNAVAILABLE_RETRY_SECONDS, type Unavailable } from "../../services/errors.ts";

/**
 * RFC 6749 §4.1.2.1's `temporarily_unavailable`, sent with 503 and `Retry-After` (as REST,
 * pages and MCP answer an outage), never as a redirect: the client retries the same request.
 */
export function temporarilyUnavailable(domain: Unavailable): {
  status: 503;
  headers: Record<string, string>;
  body: { error: string; error_description: string };
} {
  const wait = domain.retryAfterSeconds ?? UNAVAILABLE_RETRY_SECONDS;
  return {
    status: 503,
    headers: { "retry-after": String(wait), "cache-control": "no-store" },
    body: {
      error: "temporarily_unavailable",
      error_description: `The authorization server cannot answer for a moment; retry in ${wait} seconds.`,
    },
  };
}
