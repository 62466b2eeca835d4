/** @module Metrics: registries per instance, the worker's and embedder's instruments, sources. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "./db/client.ts";
import { createMetrics } from "./metrics.ts";
import type { ServiceContext } from "./services/context.ts";
import { type Embedder, EmbedderError } from "./services/search/embedder.ts";
import { watchEmbedder } from "./services/search/embedder-health.ts";
import { embedNextBatch, queueStats } from "./services/search/worker.ts";
import { createTestDatabase, operator, testContext } from "./testing/db.ts";
import { publishPaper } from "./testing/factories.ts";
import { parsePrometheus } from "./testing/prometheus.ts";

describe("createMetrics", () => {
  it("gives each instance its own registry", async () => {
    const a = createMetrics();
    const b = createMetrics();
    a.observeRequest("GET", "/healthz", 200, 0.001);
    a.observeRequest("GET", "/healthz", 200, 0.002);
    const labels = { method: "GET", route: "/healthz", status: "200" };
    expect(parsePrometheus(await a.render()).value("http_requests_total", labels)).toBe(2);
    expect(parsePrometheus(await b.render()).value("http_requests_total", labels)).toBeUndefined();
  });

  it("adds process memory, CPU and event-loop figures when asked", async () => {
    const metrics = parsePrometheus(await createMetrics({ processMetrics: true }).render());
    expect(metrics.value("process_resident_memory_bytes")).toBeGreaterThan(0);
    expect(metrics.value("process_cpu_seconds_total")).toBeGreaterThan(0);
    expect(metrics.types.get("nodejs_eventloop_lag_seconds")).toBe("gauge");
    const plain = parsePrometheus(await createMetrics().render());
    expect(plain.types.has("process_resident_memory_bytes")).toBe(false);
  });

  it("records embedder calls and worker batches", async () => {
    const metrics = createMetrics();
    const failing: Embedder = {
      model: "m",
      batchSize: 8,
      queryTimeoutMs: 100,
      embed: async () => {
        throw new EmbedderError("The embedding backend answered HTTP 502.", true);
      },
    };
    const watched = watchEmbedder(failing, { onCall: (s, ok) => metrics.embedderCall(s, ok) });
    await expect(watched.embed(["x"])).rejects.toThrow(EmbedderError);
    metrics.embeddingBatch({ embedded: 5, failed: 0, dropped: 1 });
    metrics.embeddingBatch({ embedded: 0, failed: 3, dropped: 0 });
    const parsed = parsePrometheus(await metrics.render());
    expect(parsed.value("embedder_errors_total")).toBe(1);
    expect(parsed.value("embedder_request_duration_seconds_count", { outcome: "error" })).toBe(1);
    expect(parsed.value("embedding_chunks_total", { outcome: "embedded" })).toBe(5);
    expect(parsed.value("embedding_chunks_total", { outcome: "failed" })).toBe(3);
    expect(parsed.value("embedding_chunks_total", { outcome: "dropped" })).toBe(1);
    expect(watched.health?.()).toMatchObject({ status: "failing", consecutive_failures: 1 });
  });

  it("keeps answering when a source fails (the database is down at scrape time)", async () => {
    const metrics = createMetrics();
    let calls = 0;
    metrics.watchQueue(async () => {
      calls++;
      if (calls > 1) throw new Error("database is gone");
      return { depth: 7, retrying: 2 };
    });
    expect(parsePrometheus(await metrics.render()).value("embedding_queue_depth")).toBe(7);
    const later = parsePrometheus(await metrics.render());
    expect(later.value("embedding_queue_depth")).toBe(7);
    expect(calls).toBe(2);
  });
});

describe("the embedding queue's figures", () => {
  let database: Database;
  let ctx: ServiceContext;
  const down: Embedder = {
    model: "down-8",
    batchSize: 64,
    queryTimeoutMs: 100,
    embed: async () => {
      throw new EmbedderError("The embedding backend could not be reached.", true);
    },
  };
  beforeAll(async () => {
    database = await createTestDatabase();
    ctx = { ...testContext(database), caller: operator, embedder: down };
  });
  afterAll(() => database.close());

  it("reads depth and retrying entries from the queue", async () => {
    const metrics = createMetrics();
    metrics.watchQueue(() => queueStats(database.db));
    expect(parsePrometheus(await metrics.render()).value("embedding_queue_depth")).toBe(0);

    await publishPaper(ctx);
    const queued = await queueStats(database.db);
    expect(queued.depth).toBeGreaterThan(0);
    expect(queued.retrying).toBe(0);

    const outcome = await embedNextBatch(ctx, down);
    expect(outcome.failed).toBe(queued.depth);
    const parsed = parsePrometheus(await metrics.render());
    expect(parsed.value("embedding_queue_depth")).toBe(queued.depth);
    expect(parsed.value("embedding_queue_retrying")).toBe(queued.depth);
  });
});
