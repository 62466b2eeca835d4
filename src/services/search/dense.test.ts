/** @module The dense channel end to end: queue, worker, HNSW search, model change, failures. */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Database } from "../../db/client.ts";
import { rowsOf } from "../../db/sql.ts";
import { createTestDatabase, operator, testContext } from "../../testing/db.ts";
import {
  type FakeEmbeddingServer,
  startFakeEmbeddingServer,
} from "../../testing/embeddings-server.ts";
import type { ServiceContext } from "../context.ts";
import { Unavailable } from "../errors.ts";
import { publishVersion } from "../papers/index.ts";
import { createHttpEmbedder } from "./embedder.ts";
import { unindexPaper } from "./indexing.ts";
import { prepareSearch } from "./prepare.ts";
import { channelsFor, ORIGINAL_CONFIGS, rankChunks, searchChunks } from "./search.ts";
import {
  type BatchOutcome,
  drainEmbeddingQueue,
  embedNextBatch,
  startEmbeddingWorker,
} from "./worker.ts";

let database: Database;
let server: FakeEmbeddingServer;
let ctx: ServiceContext;
const ids: Record<string, string> = {};

const PAPERS = {
  glacier: [
    "Glacier mass balance in the Alps",
    "Repeated surveys of forty Alpine glaciers show the ice thinning every year, fastest at low altitude where summer melt exceeds winter snowfall.",
  ],
  reef: [
    "Coral reef acoustics at dawn",
    "Hydrophones on three reefs record snapping shrimp and fish choruses; healthy reefs are louder and their sound attracts settling larvae.",
  ],
  compiler: [
    "Register allocation by graph colouring",
    "Chaitin-style graph colouring for register allocation, where coalescing copies before spilling reduces the number of spilled variables.",
  ],
} as const;

function withEmbedder(c: ServiceContext, model = "fake-64"): ServiceContext {
  return {
    ...c,
    embedder: createHttpEmbedder({
      url: server.url,
      model,
      backoffMs: 5,
      timeoutMs: 300,
      retries: 1,
      batchSize: 4,
    }),
  };
}

async function count(query: ReturnType<typeof sql>): Promise<number> {
  const [row] = await rowsOf<{ n: number }>(database.db, query);
  return Number(row?.n ?? 0);
}

beforeAll(async () => {
  server = await startFakeEmbeddingServer(64);
  database = await createTestDatabase();
  ctx = withEmbedder({ ...testContext(database), caller: operator });
  server.behaviour = { kind: "status", status: 503 };
  for (const [key, [title, abstract]] of Object.entries(PAPERS)) {
    const result = await publishVersion(ctx, {
      title,
      abstract,
      body: "",
      ai_model: "m",
      license: "CC-BY-4.0",
      keywords: [],
    });
    if (result.outcome !== "published") throw new Error(key);
    ids[key] = result.paper_id;
  }
});
afterAll(async () => {
  await database.close();
  await server.close();
});
beforeEach(() => {
  server.behaviour = { kind: "ok" };
});

describe("indexing for the dense channel", () => {
  it("publication queues chunks and never calls the embedder, even when it is down", async () => {
    expect(server.requests).toHaveLength(0);
    const searchable = await count(sql`select count(*)::int as n from search_chunks`);
    expect(await count(sql`select count(*)::int as n from embedding_queue`)).toBe(searchable);
  });

  it("a failing batch stores nothing and is retried later with the error recorded", async () => {
    server.behaviour = { kind: "garbage", body: '{"data":[{"index":0,"embedding":["x"]}]}' };
    const outcome = await embedNextBatch(ctx, ctx.embedder!);
    const queued = await count(sql`select count(*)::int as n from embedding_queue`);
    expect(outcome.claimed).toBeGreaterThan(0);
    expect(outcome.failed).toBe(Math.min(queued, ctx.embedder!.batchSize));
    expect(await count(sql`select count(*)::int as n from chunk_embeddings`)).toBe(0);
    const [row] = await rowsOf<{ attempts: number; last_error: string; later: boolean }>(
      database.db,
      sql`select attempts, last_error, not_before > now() as later from embedding_queue
          where attempts > 0 limit 1`,
    );
    expect(row).toMatchObject({ attempts: 1, later: true });
    expect(row?.last_error).toMatch(/embedding backend answered/);
  });

  it("draining embeds everything with model and dimension stored, and builds the HNSW index", async () => {
    const done = await drainEmbeddingQueue(ctx);
    const searchable = await count(sql`select count(*)::int as n from search_chunks`);
    expect(done).toBe(searchable);
    expect(await count(sql`select count(*)::int as n from embedding_queue`)).toBe(0);
    expect(
      await count(
        sql`select count(*)::int as n from chunk_embeddings where model = 'fake-64' and dims = 64`,
      ),
    ).toBe(searchable);
    expect(
      await count(
        sql`select count(*)::int as n from pg_indexes where indexname = 'chunk_embeddings_hnsw_64_m24'`,
      ),
    ).toBe(1);
  });

  it("unindexing a paper drops its vectors", async () => {
    const { paper_id } = await (async () => {
      const r = await publishVersion(ctx, {
        title: "Urban heat islands and street trees",
        abstract:
          "Street-level temperature loggers in six cities show tree canopy cooling afternoons by up to three degrees.",
        body: "",
        ai_model: "m",
        license: "CC-BY-4.0",
        keywords: [],
      });
      if (r.outcome !== "published") throw new Error("not published");
      return r;
    })();
    await drainEmbeddingQueue(ctx);
    const mine = sql`select count(*)::int as n from chunk_embeddings e join chunks c on c.id = e.chunk_id
                     where c.paper_id = ${paper_id}`;
    expect(await count(mine)).toBeGreaterThan(0);
    await database.db.execute(sql`update papers set status = 'withdrawn' where id = ${paper_id}`);
    await unindexPaper(ctx, paper_id);
    expect(await count(mine)).toBe(0);
  });
});

describe("searching with the dense channel", () => {
  it("semantic mode ranks by dense similarity", async () => {
    const { results } = await searchChunks(ctx, {
      q: "snapping shrimp fish choruses",
      mode: "semantic",
    });
    expect(results[0]?.paper_id).toBe(ids.reef);
    for (const r of results) {
      expect(r.score).toBeGreaterThanOrEqual(0);
      expect(r.score).toBeLessThanOrEqual(1);
    }
  });

  it("hybrid mode fuses three channels", async () => {
    const ranked = await rankChunks(ctx, "glacier ice thinning", channelsFor(ctx, "hybrid"), 5, {
      configs: ORIGINAL_CONFIGS,
    });
    expect(Object.keys(ranked[0]!.z).sort()).toEqual(["bm25", "dense", "sparse"]);
    const { results } = await searchChunks(ctx, { q: "glacier ice thinning" });
    expect(results[0]?.paper_id).toBe(ids.glacier);
  });

  it.each([
    ["down", { kind: "status", status: 503 } as const],
    ["slow", { kind: "slow", ms: 1000 } as const],
    ["garbage", { kind: "garbage", body: "not json" } as const],
  ])(
    "a backend that is %s makes hybrid and semantic Unavailable; lexical still works",
    async (_n, b) => {
      server.behaviour = b;
      for (const mode of ["hybrid", "semantic"] as const) {
        await expect(searchChunks(ctx, { q: "glacier", mode })).rejects.toBeInstanceOf(Unavailable);
      }
      const lexical = await searchChunks(ctx, { q: "glacier", mode: "lexical" });
      expect(lexical.results[0]?.paper_id).toBe(ids.glacier);
    },
  );
});

describe("start-up", () => {
  it("detects a change of model and queues every chunk for re-embedding", async () => {
    await prepareSearch(ctx);
    const other = withEmbedder(ctx, "fake-64-v2");
    const report = await prepareSearch(other);
    expect(report.previousModel).toBe("fake-64");
    const searchable = await count(sql`select count(*)::int as n from search_chunks`);
    expect(report.queued).toBe(searchable);
    // Until re-embedded, dense search of the new model finds nothing of the old one's.
    const { results } = await searchChunks(other, { q: "glacier", mode: "semantic" });
    expect(results).toEqual([]);
    await drainEmbeddingQueue(other);
    const again = await searchChunks(other, { q: "glacier ice thinning", mode: "semantic" });
    expect(again.results[0]?.paper_id).toBe(ids.glacier);
    expect(
      await count(sql`select count(*)::int as n from chunk_embeddings where model = 'fake-64'`),
    ).toBe(0);
  });

  it("the background worker drains the queue and stops cleanly", async () => {
    const r = await publishVersion(ctx, {
      title: "Soil carbon under no-till farming",
      abstract:
        "Ten years of no-till plots stored more carbon in the topsoil but not below thirty centimetres.",
      body: "",
      ai_model: "m",
      license: "CC-BY-4.0",
      keywords: [],
    });
    expect(r.outcome).toBe("published");
    const worker = startEmbeddingWorker(ctx, { idleMs: 20 });
    for (let i = 0; i < 200; i++) {
      if ((await count(sql`select count(*)::int as n from embedding_queue`)) === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    await worker.stop();
    expect(await count(sql`select count(*)::int as n from embedding_queue`)).toBe(0);
  });

  it("stopping the worker abandons the backend call and hands its claims back at once", async () => {
    const r = await publishVersion(ctx, {
      title: "Bird migration timing and spring temperature",
      abstract:
        "Forty years of ringing records show warblers arriving earlier after warm springs, while long-distance migrants keep their dates.",
      body: "",
      ai_model: "m",
      license: "CC-BY-4.0",
      keywords: [],
    });
    expect(r.outcome).toBe("published");
    const queued = await count(sql`select count(*)::int as n from embedding_queue`);
    expect(queued).toBeGreaterThan(0);
    // A backend that would answer long after the stop: the call must be abandoned, not awaited.
    server.behaviour = { kind: "slow", ms: 10_000 };
    const patient = {
      ...ctx,
      embedder: createHttpEmbedder({ url: server.url, model: "fake-64", timeoutMs: 30_000 }),
    };
    const before = server.requests.length;
    const outcomes: BatchOutcome[] = [];
    const worker = startEmbeddingWorker(patient, { idleMs: 20, onBatch: (o) => outcomes.push(o) });
    for (let i = 0; i < 400 && server.requests.length === before; i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(server.requests.length).toBe(before + 1);
    expect(
      await count(sql`select count(*)::int as n from embedding_queue where not_before > now()`),
    ).toBe(queued);
    await worker.stop();
    expect(outcomes).toEqual([
      { claimed: queued, embedded: 0, dropped: 0, failed: 0, released: queued },
    ]);
    const rows = await rowsOf<{ due: boolean; attempts: number; last_error: string | null }>(
      database.db,
      sql`select not_before <= now() as due, attempts, last_error from embedding_queue`,
    );
    expect(rows).toHaveLength(queued);
    for (const row of rows) expect(row).toEqual({ due: true, attempts: 0, last_error: null });
  });
});
