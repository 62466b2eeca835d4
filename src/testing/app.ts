/** @module Test support: the real app over a real test database, called in-process. */
import { Writable } from "node:stream";
import { pino } from "pino";
import { buildApp } from "../app.ts";
import type { Database } from "../db/client.ts";
import { createLifecycle, type Lifecycle } from "../http/lifecycle.ts";
import { ResponseCache } from "../http/response-cache.ts";
import { createMcpStreams, type McpStreams } from "../mcp/streams.ts";
import { createMetrics, type Metrics } from "../metrics.ts";
import { listenArchiveChanges } from "../runtime.ts";
import { createKeyUsage, type KeyUsage } from "../services/agents/key-usage.ts";
import type { ServiceContext } from "../services/context.ts";
import { BUCKET_NAMES } from "../services/ratelimit/limits.ts";
import { createTestDatabase, testContext } from "./db.ts";

export interface TestApp {
  app: ReturnType<typeof buildApp>;
  database: Database;
  ctx: ServiceContext;
  /** Every log line the app wrote, parsed. */
  logs: Record<string, unknown>[];
  /** Agent keys' batched last uses; tests call `flush()` instead of waiting for the timer. */
  keyUsage: KeyUsage;
  /** The app's own metrics registry (as a server has; without process metrics). */
  metrics: Metrics;
  /** Drain it (`lifecycle.startDrain()`) to see the app as a stopping server shows it. */
  lifecycle: Lifecycle;
  /** The response cache, when asked for (`responseCacheMb`). */
  responseCache?: ResponseCache;
  /** The MCP event streams (GET /mcp), listening on the database as a server's do. */
  mcpStreams: McpStreams;
  close(): Promise<void>;
}

/**
 * The app over a fresh test database. Rate limits come from a fresh in-process store with
 * relaxed quotas (see `relaxedRateLimits`); pass `services: { rateLimits }` to test the
 * contract's exact limits or a Redis store. `close()` closes the store too.
 */
export async function createTestApp(
  options: {
    trustProxy?: string[];
    services?: Partial<Omit<ServiceContext, "db">>;
    /** The public URL (default http://quire.test); https makes cookies Secure. */
    baseUrl?: string;
    /** Opens /metrics with this bearer token (METRICS_TOKEN). */
    metricsToken?: string;
    /** A response cache of this many MB, listening for archive changes as a server's does. */
    responseCacheMb?: number;
    /** Use this database (another instance's, say) instead of a fresh one; not closed. */
    database?: Database;
    /** The app of a server still doing its start-up work (`lifecycle.startupDone` ends it). */
    starting?: boolean;
  } = {},
): Promise<TestApp> {
  const database = options.database ?? (await createTestDatabase());
  const logs: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split("\n")) if (line) logs.push(JSON.parse(line));
      done();
    },
  });
  const logger = pino({ level: "debug" }, sink);
  const baseUrl = options.baseUrl ?? "http://quire.test";
  const keyUsage =
    options.services?.keyUsage ?? createKeyUsage({ db: database.db, logger, flushSeconds: 3600 });
  const ctx = testContext(database, {
    logger,
    settings: {
      baseUrl,
      chunkMaxChars: 2000,
      filesMaxBytes: 2048 * 1024 * 1024,
      keyPrefix: "quire",
    },
    keyUsage,
    ...options.services,
  });
  const metrics = createMetrics({ buckets: BUCKET_NAMES });
  const stats = database.stats;
  if (stats) metrics.watchPool(() => stats());
  const lifecycle = createLifecycle({ starting: options.starting ?? false });
  let responseCache: ResponseCache | undefined;
  let stopListening: (() => Promise<void>) | undefined;
  if (options.responseCacheMb) {
    responseCache = new ResponseCache({ maxBytes: options.responseCacheMb * 1024 * 1024 });
    stopListening = await listenArchiveChanges(database, responseCache, logger);
  }
  const mcpStreams = createMcpStreams({ services: ctx, listen: database.listen });
  const app = buildApp({
    services: ctx,
    logger,
    baseUrl,
    trustProxy: options.trustProxy ?? [],
    metrics,
    metricsToken: options.metricsToken,
    lifecycle,
    responseCache,
    mcpStreams,
  });
  return {
    app,
    database,
    ctx,
    logs,
    keyUsage,
    metrics,
    lifecycle,
    ...(responseCache ? { responseCache } : {}),
    mcpStreams,
    close: async () => {
      await mcpStreams.close();
      await stopListening?.();
      await keyUsage.close();
      await ctx.rateLimits?.close();
      if (!options.database) await database.close();
    },
  };
}
