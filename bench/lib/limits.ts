/**
 * @module Raised rate-limit quotas for the benchmarks: the contract's per-IP quotas (120
 * reads a minute) would refuse nearly every request of a load test, so the benchmarks raise
 * every bucket to a quota they cannot reach while each request still draws on the store.
 */
import {
  BUCKET_NAMES,
  type BucketOverrides,
  createMemoryRateLimits,
  type RateLimits,
} from "../../src/services/ratelimit/limits.ts";

/** The raised quota per bucket and window. */
export const RAISED_QUOTA = 1_000_000_000;
const RAISED_WINDOW_SECONDS = 3600;

/** Every bucket at RAISED_QUOTA per RAISED_WINDOW_SECONDS. */
export const RAISED: BucketOverrides = Object.fromEntries(
  BUCKET_NAMES.map((b) => [b, { points: RAISED_QUOTA, windowSeconds: RAISED_WINDOW_SECONDS }]),
);

/** The line each benchmark prints so its reader knows the quotas were not the contract's. */
export function raisedLine(): string {
  return (
    `limits: quotas RAISED to ${RAISED_QUOTA.toExponential(0)} per ${RAISED_WINDOW_SECONDS / 3600} h in every bucket ` +
    `(${BUCKET_NAMES.join(", ")}); every request still draws on the store`
  );
}

/** An in-process store with the raised quotas. */
export function raisedMemoryLimits(keyPrefix?: string): RateLimits {
  return createMemoryRateLimits({ overrides: RAISED, ...(keyPrefix ? { keyPrefix } : {}) });
}

/**
 * How many points a bucket has drawn, read back from a response's `RateLimit` field
 * (`"reads";r=999999876;t=42`): the quota minus what remains. Null when the bucket is absent.
 */
export function drawnFrom(header: string | null, bucket: string): number | null {
  if (!header) return null;
  const match = new RegExp(`"${bucket}";r=(\\d+)`).exec(header);
  return match ? RAISED_QUOTA - Number(match[1]) : null;
}
