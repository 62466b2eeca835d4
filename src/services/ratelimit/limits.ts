/**
 * @module Rate-limit buckets (the contract's limits, exactly:
 * docs/contract/000_d4a6423640571f8b.txt, and the site's own: reader reports and form posts)
 * and the store interface.
 */
import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";
import { accountKeyOf, DEFAULT_IPV6_PREFIX, rateLimitKeyOf } from "./keys.ts";

/**
 * The contract's limits. `scope` says what the key is: the client IP (per
 * docs/contract/DECISIONS.md, X-Forwarded-For only from trusted proxies) or the writer (the
 * agent id; for a human review on the site, the owner id).
 */
export const BUCKETS = {
  reads: { points: 120, windowSeconds: 60, scope: "ip" },
  search: { points: 30, windowSeconds: 60, scope: "ip" },
  writes: { points: 30, windowSeconds: 60, scope: "ip" },
  comments: { points: 60, windowSeconds: 600, scope: "writer" },
  reviews: { points: 30, windowSeconds: 3600, scope: "writer" },
  /**
   * Not in the contract (reports are a site feature): reader reports filed from one address,
   * 10 an hour, so nobody can flood the moderators' queue; genuine readers report rarely.
   */
  reports: { points: 10, windowSeconds: 3600, scope: "ip" },
  /**
   * Not in the contract (the site's own): form posts from one address, 60 a minute, as real
   * sites have. A person filling in forms never comes near it; a script hammering sign-in or
   * any other form does, before its body is even read. The account throttles (sign-in
   * failures, mail) count on top of it.
   */
  forms: { points: 60, windowSeconds: 60, scope: "ip" },
  /**
   * Not in the contract (helpful votes are the site's own): a person's votes on reviews, 60 an
   * hour, counted per person (the owner id), so a confirmed account cannot flood reviewers'
   * inboxes with helpful-vote notifications or churn the counts. Someone reading a paper's
   * reviews votes a handful at a time; changing or withdrawing a vote counts too.
   */
  votes: { points: 60, windowSeconds: 3600, scope: "writer" },
  /**
   * Not in the contract (the site's accounts): failed sign-ins, 10 per account and 30 per
   * address in 15 minutes (an address may be a household or an office, so it gets more).
   * Counted only on failure (`penalize`) and checked before any password is (`blockedFor`);
   * a success clears the account's count, never the address's.
   */
  "sign-in-account": { points: 10, windowSeconds: 15 * 60, scope: "account" },
  "sign-in-ip": { points: 30, windowSeconds: 15 * 60, scope: "ip" },
  /**
   * Not in the contract: account mail (verification and reset links), 5 per address and 20
   * per client address an hour, so nobody can make the site mail-bomb an inbox.
   */
  "mail-account": { points: 5, windowSeconds: 60 * 60, scope: "account" },
  "mail-ip": { points: 20, windowSeconds: 60 * 60, scope: "ip" },
} as const;

export type Bucket = keyof typeof BUCKETS;
/**
 * What a bucket's key is: the client's address, the writer (agent or owner id), or an
 * account (a normalised email; stores count it under its SHA-256, see keys.ts).
 */
export type BucketScope = (typeof BUCKETS)[Bucket]["scope"];

export const BUCKET_NAMES = Object.keys(BUCKETS) as Bucket[];

/** A bucket's quota: `points` requests per `windowSeconds`. */
export interface BucketLimit {
  points: number;
  windowSeconds: number;
}

/**
 * Other quotas for some buckets. Production never sets these; tests use them to relax the
 * limits for suites that make hundreds of requests, or to shrink a window.
 */
export type BucketOverrides = Partial<Record<Bucket, BucketLimit>>;

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
 * return `allowed: false`. Every method takes the caller's key as given (an address, a
 * writer, an email) and counts it under `storeKey` (an address's network, an email's hash).
 */
export interface RateLimits {
  /** Draws one point; refused (`allowed: false`) once the quota is spent. */
  consume(bucket: Bucket, key: string): Promise<RateLimitDecision>;
  /** Counts one event that is never refused itself (a failed sign-in, a mail sent). */
  penalize(bucket: Bucket, key: string): Promise<void>;
  /** Seconds until `key` is below the bucket's quota again; 0 when it is now. */
  blockedFor(bucket: Bucket, key: string): Promise<number>;
  /** Forgets `key`'s count in the bucket (a successful sign-in clears its account). */
  clear(bucket: Bucket, key: string): Promise<void>;
  /** Whether the store answers now (readiness); Redis is pinged, memory always answers. */
  probe?(): Promise<StoreProbe>;
  close(): Promise<void>;
}

interface StoreProbe {
  store: "memory" | "redis";
  ok: boolean;
  /** Why it does not answer (the client's message: no credentials, no URL). */
  error?: string;
}

/** Options every store takes. */
export interface RateLimitsOptions {
  /** Prefix of every counter's key; tests use a unique one so runs never share counts. */
  keyPrefix?: string;
  overrides?: BucketOverrides;
  /** The IPv6 prefix an address is counted by (RATE_LIMIT_IPV6_PREFIX; default 64). */
  ipv6Prefix?: number;
}

export const DEFAULT_KEY_PREFIX = "quire:rl";

/** The quota of every bucket: the contract's, with any overrides applied. */
export function bucketLimits(overrides: BucketOverrides = {}): Record<Bucket, BucketLimit> {
  return Object.fromEntries(
    BUCKET_NAMES.map((bucket) => {
      const { points, windowSeconds } = overrides[bucket] ?? BUCKETS[bucket];
      return [bucket, { points, windowSeconds }];
    }),
  ) as Record<Bucket, BucketLimit>;
}

/**
 * What `key` is counted under in `bucket`, the one rule of every store: an address by its
 * network (`rateLimitKeyOf`), an account by its hash (`accountKeyOf`), a writer as is.
 */
export function storeKey(bucket: Bucket, key: string, options: RateLimitsOptions = {}): string {
  switch (BUCKETS[bucket].scope) {
    case "ip":
      return rateLimitKeyOf(key, options.ipv6Prefix ?? DEFAULT_IPV6_PREFIX);
    case "account":
      return accountKeyOf(key);
    default:
      return key;
  }
}

/** Seconds until a counter is under `limit` again, from its state (null: never counted). */
export function waitFrom(limit: BucketLimit, res: RateLimiterRes | null): number {
  if (!res || res.consumedPoints < limit.points) return 0;
  return Math.min(
    limit.windowSeconds,
    Math.max(1, Math.ceil(Math.max(0, res.msBeforeNext) / 1000)),
  );
}

/** The decision for a bucket from rate-limiter-flexible's answer (consumed or refused). */
export function decisionFrom(
  bucket: Bucket,
  limit: BucketLimit,
  res: RateLimiterRes,
  allowed: boolean,
): RateLimitDecision {
  return {
    bucket,
    allowed,
    limit: limit.points,
    windowSeconds: limit.windowSeconds,
    remaining: allowed ? Math.max(0, res.remainingPoints) : 0,
    resetSeconds: Math.min(
      limit.windowSeconds,
      Math.max(1, Math.ceil(Math.max(0, res.msBeforeNext) / 1000)),
    ),
  };
}

/** One in-process limiter per bucket (also the Redis store's insurance). */
export function memoryLimiters(
  options: RateLimitsOptions,
  make: (opts: { keyPrefix: string; points: number; duration: number }) => RateLimiterMemory = (
    opts,
  ) => new RateLimiterMemory(opts),
): Map<Bucket, RateLimiterMemory> {
  const limits = bucketLimits(options.overrides);
  const prefix = options.keyPrefix ?? DEFAULT_KEY_PREFIX;
  return new Map(
    BUCKET_NAMES.map((bucket) => [
      bucket,
      make({
        keyPrefix: `${prefix}:${bucket}`,
        points: limits[bucket].points,
        duration: limits[bucket].windowSeconds,
      }),
    ]),
  );
}

/** Counters in this process: right for one instance (the zero-setup default). */
export function createMemoryRateLimits(options: RateLimitsOptions = {}): RateLimits {
  const limits = bucketLimits(options.overrides);
  const limiters = memoryLimiters(options);
  return {
    async consume(bucket, key) {
      const limiter = limiters.get(bucket)!;
      try {
        const res = await limiter.consume(storeKey(bucket, key, options));
        return decisionFrom(bucket, limits[bucket], res, true);
      } catch (refused) {
        if (refused instanceof RateLimiterRes) {
          return decisionFrom(bucket, limits[bucket], refused, false);
        }
        throw refused;
      }
    },
    async penalize(bucket, key) {
      await limiters.get(bucket)!.penalty(storeKey(bucket, key, options), 1);
    },
    async blockedFor(bucket, key) {
      const res = await limiters.get(bucket)!.get(storeKey(bucket, key, options));
      return waitFrom(limits[bucket], res);
    },
    async clear(bucket, key) {
      await limiters.get(bucket)!.delete(storeKey(bucket, key, options));
    },
    probe: async () => ({ store: "memory", ok: true }),
    async close() {},
  };
}
