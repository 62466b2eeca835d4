/** @module Prometheus metrics: one registry per instance, never prom-client's global one. */
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";

/** What a database pool can say about itself; PGlite has one connection and no queue to show. */
interface PoolStats {
  max: number;
  total: number;
  idle?: number;
  waiting?: number;
}

/** The embedding queue at scrape time. */
interface QueueStats {
  depth: number;
  /** Entries whose last attempt failed and that wait for a retry. */
  retrying: number;
}

export interface Metrics {
  readonly registry: Registry;
  /** The exposition format's content type, for the /metrics response. */
  readonly contentType: string;
  /** One answered HTTP request; `route` is a registered pattern, never the raw path. */
  observeRequest(method: string, route: string, status: number, seconds: number): void;
  /** Requests being handled now (read at scrape time). */
  watchInFlight(read: () => number): void;
  /** A rate-limit draw was refused (a 429, or a refused tool call over MCP). */
  rateLimitRefused(bucket: string): void;
  /** One call to the embedding backend, retries included. */
  embedderCall(seconds: number, ok: boolean): void;
  /** One batch of the embedding worker. */
  embeddingBatch(outcome: { embedded: number; failed: number; dropped: number }): void;
  watchPool(read: () => PoolStats): void;
  watchQueue(read: () => Promise<QueueStats>): void;
  /** The registry in Prometheus text format. A source that fails is left out, never a 500. */
  render(): Promise<string>;
}

export interface MetricsOptions {
  /**
   * Process memory, CPU, event-loop lag, GC (prom-client's default metrics). Off by default:
   * they install process-wide observers, so only a server turns them on, once.
   */
  processMetrics?: boolean;
  /** Buckets to show at zero before any refusal (so a rate() over them is defined). */
  buckets?: readonly string[];
}

/**
 * A fresh registry and its instruments. Each app or server gets its own, so tests that build
 * many apps never collide on prom-client's global registry ("metric already registered").
 * Labels are bounded by construction: HTTP routes are registered patterns, methods a fixed
 * list, buckets and outcomes fixed sets.
 */
export function createMetrics(options: MetricsOptions = {}): Metrics {
  const registry = new Registry();
  const registers = [registry];
  if (options.processMetrics) collectDefaultMetrics({ register: registry });

  const labels = ["method", "route", "status"] as const;
  const requests = new Counter({
    name: "http_requests_total",
    help: "HTTP requests answered, by method, route pattern and status.",
    labelNames: labels,
    registers,
  });
  const duration = new Histogram({
    name: "http_request_duration_seconds",
    help: "Time to answer an HTTP request (until the response starts), by method, route pattern and status.",
    labelNames: labels,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  let inFlight: () => number = () => 0;
  new Gauge({
    name: "http_requests_in_flight",
    help: "HTTP requests being handled now.",
    registers,
    collect() {
      this.set(inFlight());
    },
  });
  const refused = new Counter({
    name: "rate_limit_rejections_total",
    help: "Rate-limit draws refused, by bucket.",
    labelNames: ["bucket"],
    registers,
  });
  for (const bucket of options.buckets ?? []) refused.labels(bucket).inc(0);

  const embedderDuration = new Histogram({
    name: "embedder_request_duration_seconds",
    help: "Calls to the embedding backend (retries included), by outcome.",
    labelNames: ["outcome"],
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers,
  });
  const embedderErrors = new Counter({
    name: "embedder_errors_total",
    help: "Calls to the embedding backend that failed after their retries.",
    registers,
  });
  const chunks = new Counter({
    name: "embedding_chunks_total",
    help: "Chunks the embedding worker handled, by outcome (embedded, failed, dropped).",
    labelNames: ["outcome"],
    registers,
  });
  for (const outcome of ["embedded", "failed", "dropped"]) chunks.labels(outcome).inc(0);

  let queue: (() => Promise<QueueStats>) | undefined;
  let queueStats: QueueStats | undefined;
  new Gauge({
    name: "embedding_queue_depth",
    help: "Chunks waiting in the embedding queue.",
    registers,
    collect() {
      if (queueStats) this.set(queueStats.depth);
    },
  });
  new Gauge({
    name: "embedding_queue_retrying",
    help: "Queued chunks whose last embedding attempt failed.",
    registers,
    collect() {
      if (queueStats) this.set(queueStats.retrying);
    },
  });

  let pool: (() => PoolStats) | undefined;
  const poolGauge = (name: string, help: string, pick: (s: PoolStats) => number | undefined) =>
    new Gauge({
      name,
      help,
      registers,
      collect() {
        const value = pool ? pick(pool()) : undefined;
        if (value !== undefined) this.set(value);
      },
    });
  /** Gauges for what the pool reports; PGlite has no idle count or queue to show as zeros. */
  const registerPoolGauges = (sample: PoolStats) => {
    poolGauge(
      "db_pool_max_connections",
      "Database connections this instance may open.",
      (s) => s.max,
    );
    poolGauge("db_pool_connections", "Database connections open now.", (s) => s.total);
    if (sample.idle !== undefined) {
      poolGauge("db_pool_idle_connections", "Open database connections not in use.", (s) => s.idle);
    }
    if (sample.waiting !== undefined) {
      poolGauge(
        "db_pool_waiting_clients",
        "Queries waiting for a free database connection.",
        (s) => s.waiting,
      );
    }
  };

  return {
    registry,
    contentType: registry.contentType,
    observeRequest(method, route, status, seconds) {
      const l = { method, route, status: String(status) };
      requests.inc(l);
      duration.observe(l, seconds);
    },
    watchInFlight(read) {
      inFlight = read;
    },
    rateLimitRefused(bucket) {
      refused.labels(bucket).inc();
    },
    embedderCall(seconds, ok) {
      embedderDuration.observe({ outcome: ok ? "ok" : "error" }, seconds);
      if (!ok) embedderErrors.inc();
    },
    embeddingBatch(outcome) {
      if (outcome.embedded) chunks.labels("embedded").inc(outcome.embedded);
      if (outcome.failed) chunks.labels("failed").inc(outcome.failed);
      if (outcome.dropped) chunks.labels("dropped").inc(outcome.dropped);
    },
    watchPool(read) {
      if (!pool) registerPoolGauges(read());
      pool = read;
    },
    watchQueue(read) {
      queue = read;
    },
    async render() {
      // Async sources are read here, before the synchronous collectors run: a failing one
      // (the database is down) keeps its last value instead of failing the whole scrape.
      if (queue) queueStats = await queue().catch(() => queueStats);
      return registry.metrics();
    },
  };
}
