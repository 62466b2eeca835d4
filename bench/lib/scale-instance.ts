/**
 * @module One Quire instance for bench:scale: what `quire serve` runs (openRuntime from the
 * environment, buildApp, the node server), with one difference — the Redis rate-limit store
 * has its quotas raised (1e9 per hour in every bucket, under the key prefix in
 * BENCH_RL_PREFIX), so every request still draws on Redis as in production but no quota
 * caps the measurement. Run as `node --import tsx bench/lib/scale-instance.ts`.
 */
import { serve } from "@hono/node-server";
import { buildApp } from "../../src/app.ts";
import { loadConfig } from "../../src/config.ts";
import { openRuntime } from "../../src/runtime.ts";
import { BUCKET_NAMES, type BucketOverrides } from "../../src/services/ratelimit/limits.ts";
import { createRedisRateLimits } from "../../src/services/ratelimit/redis.ts";

const RAISED: BucketOverrides = Object.fromEntries(
  BUCKET_NAMES.map((b) => [b, { points: 1_000_000_000, windowSeconds: 3600 }]),
);

const config = loadConfig();
const runtime = await openRuntime(config, undefined, { background: true, rateLimits: false });
if (config.REDIS_URL) {
  runtime.services.rateLimits = await createRedisRateLimits({
    redisUrl: config.REDIS_URL,
    logger: runtime.logger,
    commandTimeoutMs: config.REDIS_TIMEOUT_MS,
    keyPrefix: process.env.BENCH_RL_PREFIX ?? "quire-bench:rl",
    overrides: RAISED,
  });
}
const app = buildApp({
  services: runtime.services,
  logger: runtime.logger,
  baseUrl: config.BASE_URL,
  trustProxy: config.TRUST_PROXY,
});
const server = serve({ fetch: app.fetch, port: config.PORT, hostname: config.HOST }, () =>
  runtime.logger.info({ port: config.PORT }, "bench instance serving"),
);
process.once("SIGTERM", () => {
  server.close(() => {
    void runtime.close().then(() => process.exit(0));
  });
  if ("closeIdleConnections" in server) server.closeIdleConnections();
});
