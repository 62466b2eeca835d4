/** @module Rate-limit counters in Redis, shared by every instance, failing open to memory. */
import { Redis } from "ioredis";
import type { Logger } from "pino";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
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
} from "./limits.ts";

export interface RedisRateLimitsOptions extends RateLimitsOptions {
  redisUrl: string;
  logger: Logger;
  /**
   * How long one counter update may take before this request is counted in memory instead.
   * Redis answers in well under a millisecond on a LAN; a request must never wait on a sick one.
   */
  commandTimeoutMs?: number;
  /** How long startup waits for the first connection before serving without it. */
  connectTimeoutMs?: number;
}

/** Marks a consume() call that the insurance limiter answered (Redis did not). */
const INSURED = Symbol("insured");
type CallState = { [INSURED]?: true };

/** The in-process limiter that answers while Redis can't; it notes on the call that it did. */
class InsuranceLimiter extends RateLimiterMemory {
  override consume(
    key: string | number,
    points?: number,
    options: { [key: string]: unknown } = {},
  ): Promise<RateLimiterRes> {
    (options as CallState)[INSURED] = true;
    return super.consume(key, points, options);
  }
}

export type RedisRateLimits = RateLimits & {
  /** Whether counts are currently shared (false during an outage, when each instance counts alone). */
  shared(): boolean;
};

/**
 * Counters in Redis so that every instance draws on one count per client.
 *
 * Fail-open policy: when Redis is unreachable, slow (over `commandTimeoutMs`) or refuses a
 * command, the request is still answered, and counted by rate-limiter-flexible's
 * `insuranceLimiter`, an in-process counter with the same quotas. During an outage each
 * instance therefore enforces the limits on its own (N instances let a client through up to
 * N times the quota) instead of refusing everyone: the limits exist to keep the archive
 * readable, and a cache outage must not take reads down with it. One warning is logged when
 * an outage starts and one info line when Redis answers again, never one per request.
 *
 * The client never queues commands while disconnected (`enableOfflineQueue: false`) and the
 * limiter skips Redis while the connection is not ready, so an outage costs a request nothing.
 */
export async function createRedisRateLimits(
  options: RedisRateLimitsOptions,
): Promise<RedisRateLimits> {
  const { logger } = options;
  const commandTimeoutMs = options.commandTimeoutMs ?? 200;
  const connectTimeoutMs = options.connectTimeoutMs ?? 2000;
  const prefix = options.keyPrefix ?? DEFAULT_KEY_PREFIX;
  const limits = bucketLimits(options.overrides);
  const client = new Redis(options.redisUrl, {
    commandTimeout: commandTimeoutMs,
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

  const insurance = memoryLimiters(
    { ...options, keyPrefix: prefix },
    (opts) => new InsuranceLimiter(opts),
  );
  const limiters = new Map(
    BUCKET_NAMES.map((bucket) => [
      bucket,
      new RateLimiterRedis({
        storeClient: client,
        rejectIfRedisNotReady: true,
        keyPrefix: `${prefix}:${bucket}`,
        points: limits[bucket].points,
        duration: limits[bucket].windowSeconds,
        insuranceLimiter: insurance.get(bucket),
      }),
    ]),
  );

  await firstConnection(client, connectTimeoutMs);
  if (client.status !== "ready") noteOutage();

  return {
    async consume(bucket: Bucket, key: string) {
      const call: CallState = {};
      let res: RateLimiterRes;
      let allowed = true;
      try {
        res = await limiters.get(bucket)!.consume(key, 1, call as Record<string, unknown>);
      } catch (refused) {
        if (!(refused instanceof RateLimiterRes)) throw refused;
        res = refused;
        allowed = false;
      }
      if (call[INSURED]) noteOutage();
      else noteHealthy();
      return decisionFrom(bucket, limits[bucket], res, allowed);
    },
    shared: () => !outage,
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
