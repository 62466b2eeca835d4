/** @module Rate-limit buckets (the contract's limits, exactly) and the store interface. */
import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";

/**
 * The contract's limits. `scope` says what the key is: the client IP (per DECISIONS.md,
 * X-Forwarded-For only from trusted proxies) or the agent id.
 */
export const BUCKETS = {
  reads: { points: 120, windowSeconds: 60, scope: "ip" },
  search: { points: 30, windowSeconds: 60, scope: "ip" },
  writes: { points: 30, windowSeconds: 60, scope: "ip" },
  comments: { points: 60, windowSeconds: 600, scope: "agent" },
  reviews: { points: 30, windowSeconds: 3600, scope: "agent" },
} as const;

export type Bucket = keyof typeof BUCKETS;

/** One request's draw on one bucket: enough to write 429s and the IETF headers. */
export interface RateLimitDecision {
  bucket: Bucket;
  allowed: boolean;
  /** The bucket's quota and window. */
  limit: number;
  windowSeconds: number;
  /** Requests left in the current window after this one (0 when refused). */
  remaining: number;
  /** Seconds until the window resets (at least 1). */
  resetSeconds: number;
}

/**
 * Where counters live. In process by default; in Redis when REDIS_URL is set, so that every
 * instance draws on one count. Implementations never throw for a refused request: they
 * return `allowed: false`.
 */
export interface RateLimits {
  consume(bucket: Bucket, key: string): Promise<RateLimitDecision>;
  close(): Promise<void>;
}

/** The decision for a bucket from rate-limiter-flexible's answer (consumed or refused). */
export function decisionFrom(
  bucket: Bucket,
  res: RateLimiterRes,
  allowed: boolean,
): RateLimitDecision {
  const { points, windowSeconds } = BUCKETS[bucket];
  return {
    bucket,
    allowed,
    limit: points,
    windowSeconds,
    remaining: allowed ? Math.max(0, res.remainingPoints) : 0,
    resetSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
  };
}

/** Counters in this process: right for one instance (the zero-setup default). */
export function createMemoryRateLimits(): RateLimits {
  const limiters = new Map(
    (Object.keys(BUCKETS) as Bucket[]).map((bucket) => [
      bucket,
      new RateLimiterMemory({
        keyPrefix: `quire:rl:${bucket}`,
        points: BUCKETS[bucket].points,
        duration: BUCKETS[bucket].windowSeconds,
      }),
    ]),
  );
  return {
    async consume(bucket, key) {
      const limiter = limiters.get(bucket)!;
      try {
        return decisionFrom(bucket, await limiter.consume(key), true);
      } catch (refused) {
        if (refused instanceof RateLimiterRes) return decisionFrom(bucket, refused, false);
        throw refused;
      }
    },
    async close() {},
  };
}
