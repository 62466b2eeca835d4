/** @module The ratelimit domain's public surface: what the front ends call. */

export { accountKeyOf } from "./keys.ts";
export type { Bucket, RateLimitDecision, RateLimits } from "./limits.ts";
export { BUCKETS, createMemoryRateLimits } from "./limits.ts";
export {
  clearLimit,
  countOperation,
  describeLimits,
  type LimitKeys,
  limitOperation,
  type Operation,
  operationBlockedFor,
  refusalText,
} from "./policy.ts";
