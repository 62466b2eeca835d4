/** @module Opens what a process needs from configuration: logger, database, service context. */
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import type { Logger } from "pino";
import type { Config } from "./config.ts";
import { ARCHIVE_CHANNEL, type Database, openDatabase, redactUrl } from "./db/client.ts";
import { ResponseCache } from "./http/response-cache.ts";
import { createLogger } from "./logger.ts";
import { createMetrics, type Metrics } from "./metrics.ts";
import { createKeyUsage } from "./services/agents/key-usage.ts";
import { type ServiceContext, systemClock } from "./services/context.ts";
import { findLatexml, LATEX_HOWTO } from "./services/files/index.ts";
import { startPeriodicPrune } from "./services/lifecycle/index.ts";
import { startNotificationMail } from "./services/notifications/index.ts";
import { createClientMetadataDocuments } from "./services/oauth/client-metadata.ts";
import { startAdminSocket } from "./services/operations/admin-socket.ts";
import { createSmtpMailer } from "./services/owners/mailer.ts";
import { BUCKET_NAMES } from "./services/ratelimit/limits.ts";
import { createRateLimits } from "./services/ratelimit/redis.ts";
import { createHttpLlmScreener, type LlmScreener } from "./services/screening/llm.ts";
import { createHttpEmbedder, type Embedder } from "./services/search/embedder.ts";
import { watchEmbedder } from "./services/search/embedder-health.ts";
import { prepareSearch } from "./services/search/prepare.ts";
import { CROSS_LINGUAL_HOWTO, findApertium } from "./services/search/translate.ts";
import { queueStats, startEmbeddingWorker } from "./services/search/worker.ts";

export interface Runtime {
  config: Config;
  logger: Logger;
  database: Database;
  services: ServiceContext;
  /**
   * Settles once the search index is checked and, when missing or of another format, rebuilt
   * (already settled unless `deferPreparation` was asked for).
   */
  prepared: Promise<void>;
  /** Prometheus instruments, when asked for (the server). */
  metrics?: Metrics;
  /**
   * The response cache of anonymous public reads, when asked for and RESPONSE_CACHE_MB > 0;
   * dropped on every archive change any instance commits (LISTEN quire_archive).
   */
  responseCache?: ResponseCache;
  /**
   * Stops the embedding worker, handing its claimed work back to the queue, and the periodic
   * prune (after its current batch). The server calls it as soon as shutdown begins;
   * `close()` calls it too.
   */
  stopBackground(): Promise<void>;
  /** Stops background work, writes batched key uses, closes Redis, mail and the database. */
  close(): Promise<void>;
}

export class DataDirLocked extends Error {}

export interface RuntimeOptions {
  /**
   * Run background work in this process: the embedding worker and the periodic prune
   * (PRUNE_INTERVAL_SECONDS); the server does.
   */
  background?: boolean;
  /**
   * Open the rate-limit counters (Redis when REDIS_URL is set). Default true; one-shot
   * commands that serve no requests pass false and never connect to Redis.
   */
  rateLimits?: boolean;
  /** Keep Prometheus metrics, process metrics included (the server; once per process). */
  metrics?: boolean;
  /** Keep a response cache (RESPONSE_CACHE_MB; the server), listening for archive changes. */
  responseCache?: boolean;
  /**
   * Return before the search index is checked (and rebuilt, when it must be): `prepared`
   * settles when it is. The server listens meanwhile and reports "starting" on /readyz.
   */
  deferPreparation?: boolean;
}

/** The dense embedding backend from configuration, or none when EMBEDDINGS_URL is unset. */
function embedderFromConfig(config: Config): Embedder | undefined {
  if (!config.EMBEDDINGS_URL || !config.EMBEDDINGS_MODEL) return undefined;
  return createHttpEmbedder({
    url: config.EMBEDDINGS_URL,
    model: config.EMBEDDINGS_MODEL,
    apiKey: config.EMBEDDINGS_API_KEY,
  });
}

/** The LLM screener from configuration, or none when SCREENER_URL is unset. */
function screenerFromConfig(config: Config): LlmScreener | undefined {
  if (!config.SCREENER_URL || !config.SCREENER_MODEL) return undefined;
  return createHttpLlmScreener({
    url: config.SCREENER_URL,
    model: config.SCREENER_MODEL,
    apiKey: config.SCREENER_API_KEY,
    timeoutMs: config.SCREENER_TIMEOUT_MS,
    agentKeyPrefix: config.KEY_PREFIX,
  });
}

/**
 * Opens the database for this process. The embedded engine is single-process, so its data
 * directory is locked with a pid file: a second process (say, `quire import` while the
 * server runs) stops with a clear message instead of corrupting the files.
 */
export async function openRuntime(
  config: Config,
  logger?: Logger,
  options: RuntimeOptions = {},
): Promise<Runtime> {
  const log = logger ?? createLogger(config.LOG_LEVEL);
  const unlock = config.DATABASE_URL ? () => {} : lockDataDir(config.DATA_DIR);
  let database: Database;
  try {
    database = await openDatabase({
      databaseUrl: config.DATABASE_URL,
      dataDir: config.DATA_DIR,
      poolSize: config.DATABASE_POOL_SIZE,
      sharedBuffersMb: config.PGLITE_SHARED_BUFFERS_MB,
      readUrl: config.DATABASE_READ_URL,
      logger: log,
    });
  } catch (error) {
    unlock();
    throw error;
  }
  if (config.DATABASE_READ_URL) {
    log.info(
      { replica: redactUrl(config.DATABASE_READ_URL) },
      "anonymous public reads go to the read replica (the primary while it is down)",
    );
  }
  const services: ServiceContext = {
    db: database.db,
    ...(database.readDb === database.db ? {} : { readDb: database.readDb }),
    clock: systemClock,
    logger: log,
    settings: {
      baseUrl: config.BASE_URL,
      chunkMaxChars: config.CHUNK_MAX_CHARS,
      filesMaxBytes: config.FILES_MAX_MB * 1024 * 1024,
      keyPrefix: config.KEY_PREFIX,
      ...(config.CONTACT_EMAIL ? { contactEmail: config.CONTACT_EMAIL } : {}),
    },
    caller: { kind: "anonymous" },
    clientMetadata: createClientMetadataDocuments(),
  };
  if (config.SMTP_URL) services.mailer = createSmtpMailer(config.SMTP_URL, config.BASE_URL);
  const keyUsage = createKeyUsage({ db: database.db, logger: log });
  services.keyUsage = keyUsage;
  const metrics = options.metrics
    ? createMetrics({ processMetrics: true, buckets: BUCKET_NAMES })
    : undefined;
  const embedder = embedderFromConfig(config);
  // Watched, so readiness can report the backend from the calls it served.
  if (embedder) {
    services.embedder = watchEmbedder(embedder, {
      ...(metrics ? { onCall: (seconds, ok) => metrics.embedderCall(seconds, ok) } : {}),
    });
  }
  const screener = screenerFromConfig(config);
  if (screener) services.screener = screener;
  const latex = findLatexml({ timeoutSeconds: config.LATEX_TIMEOUT_SECONDS });
  if (latex) {
    services.latex = latex;
  } else {
    log.info(
      { latex_sources: "off" },
      `LaTeX source bundles are refused: LaTeXML was not found; to accept them, ${LATEX_HOWTO}`,
    );
  }
  const translator = config.CROSS_LINGUAL === "auto" ? findApertium() : null;
  if (translator) {
    services.translator = translator;
  } else {
    log.info(
      { cross_lingual: "off" },
      config.CROSS_LINGUAL === "off"
        ? "cross-lingual search is off (CROSS_LINGUAL=off)"
        : `cross-lingual search is off: Apertium's en-es pair was not found; to turn it on, ${CROSS_LINGUAL_HOWTO}`,
    );
  }
  if (metrics) {
    const stats = database.stats;
    if (stats) metrics.watchPool(() => stats());
    metrics.watchQueue(() => queueStats(database.db));
  }
  // Instances starting together on one PostgreSQL database take turns (see exclusive()).
  const prepared = database.exclusive(() => prepareSearch(services)).then(() => undefined);
  if (options.deferPreparation) {
    // Handled by whoever awaits `prepared`; this only keeps an early failure from counting as
    // unhandled while the rest of the runtime opens.
    prepared.catch(() => {});
  } else {
    try {
      await prepared;
    } catch (error) {
      await database.close();
      unlock();
      throw error;
    }
  }
  if (options.rateLimits !== false) {
    // Never fails: an unreachable Redis is logged and counted around (see ratelimit/redis.ts).
    services.rateLimits = await createRateLimits({
      redisUrl: config.REDIS_URL,
      logger: log,
      commandTimeoutMs: config.REDIS_TIMEOUT_MS,
      ipv6Prefix: config.RATE_LIMIT_IPV6_PREFIX,
    });
  }
  let stopListening: (() => Promise<void>) | undefined;
  let responseCache: ResponseCache | undefined;
  if (options.responseCache && config.RESPONSE_CACHE_MB > 0) {
    const cache = new ResponseCache({
      maxBytes: Math.round(config.RESPONSE_CACHE_MB * 1024 * 1024),
    });
    try {
      stopListening = await listenArchiveChanges(database, cache, log);
    } catch (error) {
      await database.close();
      unlock();
      throw error;
    }
    responseCache = cache;
  }
  const worker = options.background
    ? startEmbeddingWorker(services, {
        ...(metrics ? { onBatch: (outcome) => metrics.embeddingBatch(outcome) } : {}),
      })
    : null;
  const prune =
    options.background && config.PRUNE_INTERVAL_SECONDS > 0
      ? startPeriodicPrune(services, { intervalMs: config.PRUNE_INTERVAL_SECONDS * 1000 })
      : null;
  // Notification mail (the outbox's relay) runs only where there is SMTP to send it with.
  const notificationMail =
    options.background && services.mailer ? startNotificationMail(services) : null;
  let stopping: Promise<void> | undefined;
  const stopBackground = () => {
    stopping ??= Promise.all([worker?.stop(), prune?.stop(), notificationMail?.stop()]).then(
      () => undefined,
    );
    return stopping;
  };
  // The server of an embedded database answers `quire backup` on its operator socket.
  const admin =
    options.background && database.snapshot && !config.DATA_DIR.startsWith("memory://")
      ? await startAdminSocket({
          dataDir: config.DATA_DIR,
          snapshot: database.snapshot,
          logger: log,
        })
      : null;
  return {
    config,
    logger: log,
    database,
    services,
    prepared,
    ...(metrics ? { metrics } : {}),
    ...(responseCache ? { responseCache } : {}),
    stopBackground,
    close: async () => {
      await stopListening?.();
      await admin?.close();
      await stopBackground();
      // A deferred search preparation still running finishes first; its outcome was reported.
      await prepared.catch(() => {});
      await services.rateLimits?.close();
      await services.mailer?.close();
      await services.translator?.close();
      // Agent keys' last uses wait in memory; write them before the database goes.
      await keyUsage.close();
      await database.close();
      unlock();
    },
  };
}

/**
 * Drops `cache` whenever any instance commits an archive change (the triggers of migration
 * 0008 NOTIFY quire_archive); while the listening connection is down, the cache serves
 * nothing, and it starts again empty once it listens again.
 */
export function listenArchiveChanges(
  database: Database,
  cache: ResponseCache,
  log: Logger,
): Promise<() => Promise<void>> {
  return database.listen(ARCHIVE_CHANNEL, {
    notify: (table) => cache.invalidate(table),
    lost: () => {
      cache.suspend();
      log.warn(
        "lost the archive-change notifications; the response cache is off until they return",
      );
    },
    ready: () => {
      cache.resume();
      log.info("archive-change notifications are back; the response cache is on again");
    },
  });
}

/** Takes the embedded data directory's pid-file lock; returns the unlock. */
export function lockDataDir(dataDir: string): () => void {
  if (dataDir.startsWith("memory://")) return () => {};
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, "quire.pid");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, "wx");
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(path, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const pid = Number(readFileSync(path, "utf8").trim());
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid)) {
        throw new DataDirLocked(
          `The embedded database in ${dataDir} is in use by process ${pid} (probably \`quire serve\`). ` +
            "Stop that process first, or use PostgreSQL (DATABASE_URL) to run commands alongside the server.",
        );
      }
      rmSync(path, { force: true });
    }
  }
  throw new DataDirLocked(`Could not lock ${dataDir}.`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
