/** @module Rate-limit counters in Redis, shared by every instance, failing open to memory. */
import type { Redis } from "ioredis";
import type { Logger } from "pino";
import { type RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import {
  BUCKET_NAMES,
  type Bucket,
  bucketLimits,
  createMemoryRateLimits,
  DEFAULT_KEY_PREFIX,
  decisionFrom,
  memoryLimiters,
  type RateLimits,
  type RateLimitsOptions,
  storeKey,
  waitFrom,
} from "./limits.ts";

export interface RedisRateLimitsOptions extends RateLimitsOptions {
  redisUrl: string;
  logger: Logger;
  /**
   * How long one counter update may take before this request is counted in memory instead.
   * Redis answers in well under a millisecond on a LAN; a request must never wait on a sick one.
   * An answer that arrived in time but that this process was too busy to read (event-loop
   * lag) still counts as in time: see `withDeadline`.
   */
  commandTimeoutMs?: number;
  /** How long startup waits for the first connection before serving without it. */
  connectTimeoutMs?: number;
}

/** A counter update that found no answer from Redis within the deadline. */
class RedisTooSlow extends Error {
  constructor(ms: number) {
    super(`Redis did not answer within ${ms} ms`);
    this.name = "RedisTooSlow";
  }
}

/**
 * `work`, or a RedisTooSlow once `ms` have passed and Redis has still not answered.
 *
 * A plain timer (ioredis's `commandTimeout`) cannot tell a slow Redis from a busy process:
 * when the event loop was blocked past the deadline (a burst of requests on a loaded
 * machine), the expired timer runs before the poll phase that would read the answer already
 * waiting on the socket, so a healthy Redis looks like an outage and the request is counted
 * in memory, where other instances cannot see it: the shared limit stops being exact exactly
 * when it is tested. So the expiry is deferred by one `setImmediate`: the check phase comes
 * after that poll phase, and an answer that had arrived by then wins the race.
 */
function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  let immediate: NodeJS.Immediate | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      immediate = setImmediate(() => reject(new RedisTooSlow(ms)));
    }, ms);
  });
  return Promise.race([work, expired]).finally(() => {
    clearTimeout(timer);
    if (immediate) clearImmediate(immediate);
  });
}

export type RedisRateLimits = RateLimits & {
  /** Whether counts are currently shared (false during an outage, when each instance counts alone). */
  shared(): boolean;
};

/**
 * Counters in Redis so that every instance draws on one count per client.
 *
 * Fail-open policy: when Redis is unreachable, slow (over `commandTimeoutMs`) or refuses a
 * command, the request is still answered, and counted by an in-process counter with the
 * same quotas (the insurance limiters). During an outage each
 * instance therefore enforces the limits on its own (N instances let a client through up to
 * N times the quota) instead of refusing everyone: the limits exist to keep the archive
 * readable, and a cache outage must not take reads down with it. One warning is logged when
 * an outage starts and one info line when Redis answers again, never one per request.
 *
 * The client never queues commands while disconnected (`enableOfflineQueue: false`) and the
 * limiter skips Redis while the connection is not ready, so an outage costs a request nothing.
 * A hung Redis costs a request at most `commandTimeoutMs` (see `withDeadline`, which also
 * keeps a busy instance from mistaking its own lag for an outage).
 */
export async function createRedisRateLimits(
  options: RedisRateLimitsOptions,
): Promise<RedisRateLimits> {
  const { logger } = options;
  const commandTimeoutMs = options.commandTimeoutMs ?? 200;
  const connectTimeoutMs = options.connectTimeoutMs ?? 2000;
  const prefix = options.keyPrefix ?? DEFAULT_KEY_PREFIX;
  const limits = bucketLimits(options.overrides);
  // Loaded here, not at start-up: an instance without REDIS_URL never needs the client.
  const { Redis } = await import("ioredis");
  const client = new Redis(options.redisUrl, {
    // Only a backstop that frees commands a hung Redis never answers; requests do not wait
    // for it (withDeadline answers them from memory long before).
    commandTimeout: Math.max(5000, commandTimeoutMs * 10),
    connectTimeout: connectTimeoutMs,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    // Reconnect forever, backing off to one attempt every two seconds.
    retryStrategy: (times) => Math.min(times * 100, 2000),
    connectionName: "quire-ratelimit",
  });
  let lastError: string | undefined;
  // Without a listener ioredis prints every failed reconnect; the outage is logged once below.
  client.on("error", (error: Error) => {
    lastError = error.message;
  });

  let outage = false;
  const noteOutage = () => {
    if (outage) return;
    outage = true;
    logger.warn(
      { redis_status: client.status, reason: lastError ?? "no answer in time" },
      "Redis is unreachable: rate limits fail open to per-instance counters until it is back",
    );
  };
  const noteHealthy = () => {
    if (!outage) return;
    outage = false;
    lastError = undefined;
    logger.info("Redis is back: rate limits are shared across instances again");
  };

  // The in-process counters that answer while Redis can't (same quotas, per instance).
  const insurance = memoryLimiters({ ...options, keyPrefix: prefix });
  const limiters = new Map(
    BUCKET_NAMES.map((bucket) => [
      bucket,
      new RateLimiterRedis({
        storeClient: client,
        rejectIfRedisNotReady: true,
        keyPrefix: `${prefix}:${bucket}`,
        points: limits[bucket].points,
        duration: limits[bucket].windowSeconds,
      }),
    ]),
  );
  await firstConnection(client, connectTimeoutMs);
  if (client.status !== "ready") noteOutage();

  /**
   * Runs `work` on the bucket's Redis limiter within the deadline, or, when Redis is not
   * ready, refuses the command or is too slow, on its insurance limiter in memory.
   */
  const onStore = async <T>(
    bucket: Bucket,
    work: (limiter: RateLimiterRedis | RateLimiterMemory) => Promise<T>,
  ): Promise<T> => {
    let result: T;
    try {
      result = await withDeadline(work(limiters.get(bucket)!), commandTimeoutMs);
    } catch (error) {
      if (error instanceof RateLimiterRes) throw error;
      noteOutage();
      return work(insurance.get(bucket)!);
    }
    noteHealthy();
    return result;
  };

  return {
    async consume(bucket: Bucket, key: string) {
      const k = storeKey(bucket, key, options);
      const drawn = await onStore(bucket, async (limiter) => {
        try {
          return { res: await limiter.consume(k), allowed: true };
        } catch (refused) {
          if (refused instanceof RateLimiterRes) return { res: refused, allowed: false };
          throw refused;
        }
      });
      return decisionFrom(bucket, limits[bucket], drawn.res, drawn.allowed);
    },
    async penalize(bucket: Bucket, key: string) {
      const k = storeKey(bucket, key, options);
      await onStore(bucket, (limiter) => limiter.penalty(k, 1));
    },
    async blockedFor(bucket: Bucket, key: string) {
      const k = storeKey(bucket, key, options);
      return waitFrom(limits[bucket], await onStore(bucket, (limiter) => limiter.get(k)));
    },
    async clear(bucket: Bucket, key: string) {
      const k = storeKey(bucket, key, options);
      await onStore(bucket, (limiter) => limiter.delete(k));
    },
    shared: () => !outage,
    async probe() {
      try {
        await withDeadline(client.ping(), Math.max(commandTimeoutMs, 1000));
        return { store: "redis", ok: true };
      } catch (error) {
        return { store: "redis", ok: false, error: (error as Error).message };
      }
    },
    async close() {
      client.disconnect();
    },
  };
}

/** Resolves once the client is ready, has failed once, or the timeout passed: never rejects. */
function firstConnection(client: Redis, timeoutMs: number): Promise<void> {
  if (client.status === "ready") return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      client.off("ready", done);
      client.off("error", done);
      client.off("end", done);
      resolve();
    };
    const timer = setTimeout(done, timeoutMs);
    timer.unref();
    client.once("ready", done);
    client.once("error", done);
    client.once("end", done);
  });
}

/**
 * The store for this process: Redis when `redisUrl` is set, otherwise in-process counters.
 * Never rejects: an unreachable Redis is an outage to fail open through, not a startup error.
 */
export async function createRateLimits(
  options: RateLimitsOptions & {
    redisUrl?: string;
    logger: Logger;
    commandTimeoutMs?: number;
    connectTimeoutMs?: number;
  },
): Promise<RateLimits> {
  if (!options.redisUrl) return createMemoryRateLimits(options);
  return createRedisRateLimits({ ...options, redisUrl: options.redisUrl });
}
