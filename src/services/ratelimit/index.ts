/** @module The ratelimit domain's public surface: what the front ends call. */
export { enforceRateLimit } from "./enforce.ts";
export type { Bucket, RateLimitDecision, RateLimits } from "./limits.ts";
