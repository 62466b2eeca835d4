/**
 * @module The IETF RateLimit-Policy and RateLimit header fields, from rate-limit decisions.
 *
 * Syntax per draft-ietf-httpapi-ratelimit-headers-11 (May 2026), sections 3 and 4: each field
 * is a Structured Field List of Items whose value is the policy name (an sf-string) with
 * parameters `q` (quota) and `w` (window, seconds) on the policy, `r` (remaining) and `t`
 * (seconds until the quota resets) on the current limit:
 *
 *   RateLimit-Policy: "reads";q=120;w=60
 *   RateLimit: "reads";r=119;t=42
 *
 * Several policies on one request (a write draws on "writes" per IP and "comments" per
 * agent) are one List each, comma-separated. Per section 7.3 clients ignore these fields on
 * responses served from a cache, so they can ride on publicly cacheable responses.
 */
import type { RateLimitDecision } from "../services/ratelimit/index.ts";

/** The two fields for the policies a request drew on; the latest draw per policy wins. */
export function rateLimitHeaders(all: readonly RateLimitDecision[]): Record<string, string> {
  if (all.length === 0) return {};
  const decisions = [...new Map(all.map((d) => [d.bucket, d])).values()];
  return {
    "ratelimit-policy": decisions
      .map((d) => `"${d.bucket}";q=${d.limit};w=${d.windowSeconds}`)
      .join(", "),
    ratelimit: decisions
      .map((d) => `"${d.bucket}";r=${d.remaining};t=${d.resetSeconds}`)
      .join(", "),
  };
}
