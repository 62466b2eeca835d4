/** @module The ratelimit domain's public surface: what the front ends call. */

export type { Bucket, RateLimitDecision, RateLimits } from "./limits.ts";
export { BUCKETS } from "./limits.ts";
export {
  describeLimits,
  type LimitKeys,
  limitOperation,
  OPERATIONS,
  type Operation,
  refusalText,
  type WordingLang,
} from "./policy.ts";
