/** @module The ratelimit domain's public surface: what the front ends call. */

export { accountKeyOf, DEFAULT_IPV6_PREFIX, rateLimitKeyOf } from "./keys.ts";
export type { Bucket, RateLimitDecision, RateLimits } from "./limits.ts";
export { BUCKETS, createMemoryRateLimits } from "./limits.ts";
export {
  clearLimit,
  countOperation,
  describeLimits,
  type LimitKeys,
  limitOperation,
  OPERATIONS,
  type Operation,
  operationBlockedFor,
  refusalText,
  type WordingLang,
} from "./policy.ts";
