/**
 * @module Search benchmark: ~100,000 chunks of distinct texts (the 6,925 arXiv abstracts and
 * SciFact's 5,183, then deterministic variants: see `corpus`), on embedded PGlite and on
 * PostgreSQL. Measures
 * indexing throughput (lexical index: postings, statistics, character-gram vectors; dense:
 * fake vectors through the real queue and worker, HNSW maintained as they arrive), query
 * latency p50/p95/p99 per mode through `searchChunks` (the service under the route),
 * HNSW recall@8 against exact search, the index's bytes per chunk (each search relation's
 * `pg_total_relation_size`), database size and peak RSS.
 *
 *   npm run bench:search
 *   npm run bench:search -- --smoke   # 300 chunks, 5 queries per mode (CI)
 *
 * Each engine runs in its own child process, so its peak RSS is its own.
 *
 * Environment (all optional):
 *   BENCH_CHUNKS       target number of searchable chunks (default 100000)
 *   BENCH_ENGINES      comma list of pglite,postgres (default both)
 *   BENCH_QUERIES      queries per mode (default 200)
 *   BENCH_DIMS         dimension of the fake dense vectors (default 384)
 *   BENCH_ADMIN_URL    where to create/drop quire_bench_<random> (default postgres://postgres@127.0.0.1:5432/postgres)
 *   BENCH_KEEP_DB      PostgreSQL only: build in this database (created if missing) and keep it
 *                      afterwards instead of dropping it; when it already holds a lexical index
 *                      of BENCH_CHUNKS chunks or more (a previous run's), loading and the
 *                      lexical rebuild are skipped, and so is embedding when its vectors are
 *                      there too, so query latency can be re-measured in minutes. Drop it by
 *                      hand when done (`dropdb <name>`). Skipped phases print no throughput.
 *   BENCH_DENSE        0 to skip the dense channel (no vectors, no dense modes, no recall)
 *
 * The fake embedder hashes words into BENCH_DIMS signed dimensions (as the tests' fake
 * OpenAI server does), in process: it measures storage, HNSW and fusion, not a model.
 *
 * The figures go to bench/results/search.json and .md (bench/lib/results.ts).
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { cpus, loadavg, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import pg from "pg";
import { loadConfig } from "../src/config.ts";
import type { Db } from "../src/db/client.ts";
import { rowsOf, withTransaction } from "../src/db/sql.ts";
import { createLogger } from "../src/logger.ts";
import { openRuntime } from "../src/runtime.ts";
import type { ServiceContext } from "../src/services/context.ts";
import { denseCandidates } from "../src/services/search/dense.ts";
import type { Embedder } from "../src/services/search/embedder.ts";
import { rebuildSearchIndex } from "../src/services/search/indexing.ts";
import { prepareSearch } from "../src/services/search/prepare.ts";
import { DEFAULT_SEARCH_SETTINGS } from "../src/services/search/settings.ts";
import { drainEmbeddingQueue, queueMissingEmbeddings } from "../src/services/search/worker.ts";
import { fakeEmbedding } from "../src/testing/embeddings-server.ts";
import { arxivPapers, type BulkPaper, bulkLoadPapers } from "./lib/bulk-load.ts";
import { writeResult } from "./lib/results.ts";
import { type Channel, type SearchMode, searchChunks } from "./lib/search-internals.ts";
import { orSmoke } from "./lib/smoke.ts";

type Engine = "pglite" | "postgres";

const ARXIV = new URL("../../shared/data/arxiv-daily-cs/data/", import.meta.url);
const TARGET_CHUNKS = positiveInt("BENCH_CHUNKS", orSmoke(100_000, 300));
const QUERIES = positiveInt("BENCH_QUERIES", orSmoke(200, 5));
const DIMS = positiveInt("BENCH_DIMS", 384);
const ADMIN_URL = process.env.BENCH_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const KEEP_DB = process.env.BENCH_KEEP_DB ?? "";
if (KEEP_DB !== "" && !/^[a-z_][a-z0-9_]*$/.test(KEEP_DB)) {
  throw new Error("BENCH_KEEP_DB must be a lower-case SQL identifier");
}
const DENSE = process.env.BENCH_DENSE !== "0";
const ENGINES = (process.env.BENCH_ENGINES ?? "pglite,postgres")
  .split(",")
  .map((s) => s.trim())
  .filter((s): s is Engine => s === "pglite" || s === "postgres");

function positiveInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive integer`);
  return n;
}

function log(line: string): void {
  process.stderr.write(`${line}\n`);
}

const SCIFACT = new URL("../../shared/data/beir-scifact/corpus.jsonl", import.meta.url);

/** SciFact's corpus as papers with ids `2001.NNNNN` (no arXiv id uses that month). */
function* scifactPapers(): Generator<BulkPaper> {
  let n = 0;
  for (const line of readFileSync(SCIFACT, "utf8").split("\n")) {
    if (line.trim() === "") continue;
    const doc = JSON.parse(line) as { title: string; text: string };
    if (doc.text.trim() === "" || doc.title.trim() === "") continue;
    n++;
    yield {
      id: `2001.${String(n).padStart(5, "0")}`,
      title: doc.title.replace(/\s+/g, " ").trim(),
      abstract: doc.text.trim(),
      keywords: ["q-bio"],
      publishedAt: new Date(Date.UTC(2020, 0, 1) + n * 60_000),
    };
  }
}

const SENTENCE = /(?<=[.!?])\s+(?=[A-Z])/;

/**
 * Distinct texts, never identical copies: the arXiv and SciFact records as they are, then
 * cycle after cycle of variants. In cycle c, record i becomes its own sentences interleaved
 * with those of record (i + c·7919) mod N, under its title joined with the other's, and an
 * id c hundred months later (2606.x → 2706.x …). Every variant pairs two different records,
 * a pair no other cycle repeats while c·7919 mod N differs, so no two texts (and no two fake
 * vectors) are equal, while vocabulary, lengths and term statistics stay those of real
 * abstracts. Deterministic: every run indexes the same corpus.
 */
function* corpus(): Generator<BulkPaper> {
  const base = [...arxivPapers(ARXIV), ...scifactPapers()];
  const n = base.length;
  yield* base;
  for (let cycle = 1; n > 1; cycle++) {
    const shift = (cycle * 7919) % n || 1;
    for (let i = 0; i < n; i++) {
      const a = base[i]!;
      const b = base[(i + shift) % n]!;
      const left = a.abstract.split(SENTENCE);
      const right = b.abstract.split(SENTENCE);
      const mixed: string[] = [];
      for (let k = 0; k < Math.max(left.length, right.length); k++) {
        if (left[k]) mixed.push(left[k]!);
        if (right[k]) mixed.push(right[k]!);
      }
      const yymm = Number(a.id.slice(0, 4)) + cycle * 100;
      yield {
        ...a,
        id: `${yymm}${a.id.slice(4)}`,
        title: `${a.title}: ${b.title}`.slice(0, 300),
        abstract: mixed.join(" "),
      };
    }
  }
}

/** Queries: every k-th title, and the first dozen words of every k-th abstract. */
function queries(n: number): string[] {
  const papers = [...arxivPapers(ARXIV)];
  const step = Math.max(1, Math.floor(papers.length / n));
  const out: string[] = [];
  for (let i = 0; out.length < n && i < papers.length; i += step) {
    const p = papers[i]!;
    out.push(
      out.length % 2 === 0
        ? p.title
        : p.abstract.replace(/\s+/g, " ").split(" ").slice(0, 12).join(" "),
    );
  }
  return out;
}

function fakeEmbedder(dims: number): Embedder {
  return {
    model: `fake-hash-${dims}`,
    batchSize: 256,
    queryTimeoutMs: 1000,
    embed: async (texts) => texts.map((t) => fakeEmbedding(t, dims)),
  };
}

function percentiles(ms: number[]) {
  const s = [...ms].sort((a, b) => a - b);
  const at = (p: number) => s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? 0;
  return { p50: at(50), p95: at(95), p99: at(99) };
}

function dirBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    total += entry.isDirectory() ? dirBytes(path) : statSync(path).size;
  }
  return total;
}

interface Result {
  engine: Engine;
  papers: number;
  chunks: number;
  postings: number;
  loadSeconds: number;
  lexicalSeconds: number;
  denseSeconds: number;
  databaseBytes: number;
  latency: Record<string, { p50: number; p95: number; p99: number }>;
  /** pg_total_relation_size of each search relation (heap, TOAST and indexes). */
  relations: Record<string, number>;
  hnswRecallAt8: number;
  /** 1-, 5- and 15-minute load averages when the queries started and when they ended. */
  loadAverage: { before: number[]; after: number[] };
  exactMs: { p50: number; p95: number; p99: number };
  peakRssBytes: number;
}

async function child(engine: Engine): Promise<Result> {
  let dataDir: string | undefined;
  let dbName: string | undefined;
  const env: Record<string, string> = { LOG_LEVEL: "silent", SEED_SAMPLES: "false", PORT: "0" };
  if (engine === "pglite") {
    dataDir = mkdtempSync(join(tmpdir(), "quire-bench-search-"));
    env.DATA_DIR = dataDir;
  } else {
    dbName = KEEP_DB || `quire_bench_${randomBytes(6).toString("hex")}`;
    const admin = new pg.Client({ connectionString: ADMIN_URL });
    await admin.connect();
    const exists = await admin.query("select 1 from pg_database where datname = $1", [dbName]);
    if (exists.rowCount === 0) await admin.query(`CREATE DATABASE ${dbName}`);
    await admin.end();
    const url = new URL(ADMIN_URL);
    url.pathname = `/${dbName}`;
    env.DATABASE_URL = url.toString();
  }
  const rt = await openRuntime(loadConfig(env), createLogger("silent"));
  try {
    const ctx = rt.services;
    const source = corpus();
    let started = performance.now();
    let papers = 0;
    let chunks = 0;
    // A kept database a previous run built: its index is reused as it is.
    const [kept] = await rowsOf<{ papers: number; indexed: number; vectors: number }>(
      ctx.db,
      sql`select (select count(*) from papers)::int as papers,
                 (select count(*) from search_chunks)::int as indexed,
                 (select count(*) from chunk_embeddings)::int as vectors`,
    );
    const reuse = KEEP_DB !== "" && Number(kept?.indexed ?? 0) >= TARGET_CHUNKS;
    if (reuse) {
      papers = Number(kept?.papers ?? 0);
      chunks = Number(kept?.indexed ?? 0);
      log(`${engine}: reusing ${KEEP_DB}: ${papers} papers, ${chunks} indexed chunks`);
    }
    while (!reuse && chunks < TARGET_CHUNKS) {
      const need = Math.max(200, Math.ceil((TARGET_CHUNKS - chunks) / 1.1));
      const loaded = await bulkLoadPapers(
        ctx,
        { [Symbol.iterator]: () => source },
        { count: Math.min(need, 5000) },
      );
      papers += loaded.loaded;
      // Searchable chunks: title chunks are not indexed (their words are in every other chunk).
      const [row] = await rowsOf<{ n: number }>(
        ctx.db,
        sql`select count(*)::int as n from chunks where field <> 'title'`,
      );
      chunks = Number(row?.n ?? 0);
      log(`${engine}: loaded ${papers} papers, ${chunks} chunks`);
    }
    const loadSeconds = (performance.now() - started) / 1000;

    started = performance.now();
    const built = reuse
      ? { chunks }
      : await rebuildSearchIndex(ctx, {
          onProgress: (p) => {
            if (p.papers % 5000 < 500)
              log(`${engine}: indexed ${p.papers}/${p.total} papers (${p.chunks} chunks)`);
          },
        });
    const lexicalSeconds = reuse ? Number.NaN : (performance.now() - started) / 1000;
    if (!reuse) {
      log(`${engine}: lexical index ${built.chunks} chunks in ${lexicalSeconds.toFixed(0)} s`);
      await ctx.db.execute(sql`vacuum analyze search_postings`);
      await ctx.db.execute(sql`vacuum analyze search_blocks`);
      await ctx.db.execute(sql`vacuum analyze search_chunks`);
      await ctx.db.execute(sql`analyze`);
    }

    const dense: ServiceContext = { ...ctx, embedder: fakeEmbedder(DIMS) };
    let denseSeconds = Number.NaN;
    if (DENSE) {
      await prepareSearch(dense);
      const queued = await queueMissingEmbeddings(dense);
      started = performance.now();
      await drainEmbeddingQueue(dense, {
        onProgress: (done) => {
          if (done % 10_000 < 256) log(`${engine}: embedded ${done}/${queued}`);
        },
      });
      if (queued > 0) denseSeconds = (performance.now() - started) / 1000;
      await ctx.db.execute(sql`analyze chunk_embeddings`);
      log(`${engine}: dense ${queued} vectors in ${denseSeconds.toFixed(0)} s`);
    }

    const qs = queries(QUERIES);
    const modes: { name: string; c: ServiceContext; mode: SearchMode; channels?: Channel[] }[] = [
      { name: "lexical (BM25)", c: ctx, mode: "lexical" },
      { name: "hybrid (BM25 + sparse)", c: ctx, mode: "hybrid" },
      ...(DENSE
        ? [
            { name: "hybrid (BM25 + sparse + dense)", c: dense, mode: "hybrid" as const },
            { name: "semantic (dense, HNSW)", c: dense, mode: "semantic" as const },
          ]
        : []),
    ];
    const latency: Result["latency"] = {};
    const loadBefore = loadavg();
    // The same run's floor: one round trip that does nothing, through the same pool.
    const floor: number[] = [];
    for (let i = 0; i < Math.max(20, qs.length); i++) {
      const t = performance.now();
      await ctx.db.execute(sql`select 1`);
      floor.push(performance.now() - t);
    }
    latency["baseline (select 1)"] = percentiles(floor);
    for (const m of modes) {
      for (const q of qs.slice(0, 20)) await searchChunks(m.c, { q, mode: m.mode });
      const ms: number[] = [];
      for (const q of qs) {
        const t = performance.now();
        await searchChunks(m.c, { q, mode: m.mode }, m.channels ? { channels: m.channels } : {});
        ms.push(performance.now() - t);
      }
      latency[m.name] = percentiles(ms);
      log(`${engine}: ${m.name} ${JSON.stringify(latency[m.name])}`);
    }

    const loadAfter = loadavg();
    const recall = DENSE
      ? await hnswRecall(ctx.db, dense.embedder!, qs)
      : { recall: Number.NaN, exactMs: { p50: Number.NaN, p95: Number.NaN, p99: Number.NaN } };
    const [postings] = await rowsOf<{ n: number }>(
      ctx.db,
      sql`select ((select coalesce(sum(cardinality(chunk_ids)), 0) from search_blocks)
                  + (select count(*) from search_postings))::int as n`,
    );
    const relations: Record<string, number> = {};
    for (const r of await rowsOf<{ name: string; bytes: string }>(
      ctx.db,
      sql`select c.relname as name, pg_total_relation_size(c.oid)::text as bytes
          from pg_class c join pg_namespace n on n.oid = c.relnamespace
          where n.nspname = current_schema() and c.relkind = 'r'
            and (c.relname like 'search\_%' or c.relname in ('chunk_embeddings', 'embedding_queue'))
          order by 1`,
    )) {
      relations[r.name] = Number(r.bytes);
    }
    const databaseBytes =
      engine === "pglite"
        ? dirBytes(dataDir!)
        : Number(
            (
              await rowsOf<{ n: string }>(
                ctx.db,
                sql`select pg_database_size(current_database())::text as n`,
              )
            )[0]?.n,
          );
    return {
      engine,
      papers,
      chunks: built.chunks,
      postings: Number(postings?.n ?? 0),
      loadSeconds,
      lexicalSeconds,
      denseSeconds,
      databaseBytes,
      relations,
      latency,
      hnswRecallAt8: recall.recall,
      loadAverage: { before: loadBefore, after: loadAfter },
      exactMs: recall.exactMs,
      peakRssBytes: process.resourceUsage().maxRSS * 1024,
    };
  } finally {
    await rt.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    if (dbName && !KEEP_DB) {
      const admin = new pg.Client({ connectionString: ADMIN_URL });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      await admin.end();
    }
  }
}

/**
 * HNSW top-8 (ef_search as configured) against exact top-8 (index scans disabled). The
 * corpus repeats texts, so equal vectors tie: an approximate hit counts when it is no
 * farther than the exact 8th neighbour (the usual definition with ties).
 */
async function hnswRecall(db: Db, embedder: Embedder, qs: string[]) {
  const vectors = await embedder.embed(qs);
  let hits = 0;
  let total = 0;
  const exactMs: number[] = [];
  const cast = sql.raw(`::vector(${DIMS})`);
  for (const v of vectors) {
    const ann = await denseCandidates(db, embedder.model, v, 8, DEFAULT_SEARCH_SETTINGS.efSearch);
    const t = performance.now();
    const exact = await withTransaction(db, async (t2) => {
      await t2.execute(sql`set local enable_indexscan = off`);
      await t2.execute(sql`set local enable_bitmapscan = off`);
      return rowsOf<{ distance: number }>(
        t2,
        sql`select embedding${cast} <=> ${`[${v.join(",")}]`}${cast} as distance
            from chunk_embeddings where dims = ${DIMS} and model = ${embedder.model}
            order by 1 limit 8`,
      );
    });
    exactMs.push(performance.now() - t);
    const kth = Number(exact[exact.length - 1]?.distance ?? 0);
    hits += Math.min(exact.length, ann.filter((h) => 1 - h.similarity <= kth + 1e-6).length);
    total += exact.length;
  }
  return { recall: total > 0 ? hits / total : 0, exactMs: percentiles(exactMs) };
}

/** Bytes of every search relation. */
function indexBytes(r: Result): number {
  return Object.values(r.relations).reduce((a, b) => a + b, 0);
}

/** Bytes of the lexical and sparse channels (everything but dense vectors and their queue). */
function lexicalBytes(r: Result): number {
  return Object.entries(r.relations)
    .filter(([name]) => name.startsWith("search_"))
    .reduce((a, [, b]) => a + b, 0);
}

async function main(): Promise<void> {
  const engineArg = process.argv.find((a) => a.startsWith("--child="));
  if (engineArg) {
    const result = await child(engineArg.slice("--child=".length) as Engine);
    process.stdout.write(`${JSON.stringify(result)}\n`);
    return;
  }
  const results: Result[] = [];
  for (const engine of ENGINES) {
    log(`\n== ${engine} ==`);
    const out = await new Promise<string>((resolve, reject) => {
      const p = spawn(
        process.execPath,
        [...process.execArgv, fileURLToPath(import.meta.url), `--child=${engine}`],
        {
          stdio: ["ignore", "pipe", "inherit"],
        },
      );
      let text = "";
      p.stdout.on("data", (d) => {
        text += d;
      });
      p.on("exit", (code) =>
        code === 0 ? resolve(text) : reject(new Error(`${engine} child exited ${code}`)),
      );
    });
    results.push(JSON.parse(out.trim().split("\n").pop()!) as Result);
  }
  const mb = (b: number) => `${(b / 1024 / 1024).toFixed(0)} MB`;
  // Phases a kept database skipped (BENCH_KEEP_DB) or BENCH_DENSE=0 left out come back as null.
  const fixed = (x: number | null, digits: number) =>
    x === null || !Number.isFinite(x) ? "–" : x.toFixed(digits);
  const lines = [
    "",
    `Search benchmark: ${cpus().length} CPUs (${cpus()[0]?.model ?? "?"}), ${mb(totalmem())} RAM, node ${process.version}; fake dense vectors of ${DIMS} dimensions; ${QUERIES} queries per mode, sequential`,
    "",
    "| engine | chunks | postings | index (lexical) | index (dense + HNSW) | database | peak RSS |",
    "|---|---|---|---|---|---|---|",
    ...results.map(
      (r) =>
        `| ${r.engine} | ${r.chunks} | ${r.postings} | ${fixed(r.chunks / r.lexicalSeconds, 0)} chunks/s | ${fixed(r.chunks / r.denseSeconds, 0)} chunks/s | ${mb(r.databaseBytes)} | ${mb(r.peakRssBytes)} |`,
    ),
    "",
    "| engine | relation | bytes | bytes per chunk |",
    "|---|---|---|---|",
    ...results.flatMap((r) => [
      ...Object.entries(r.relations).map(
        ([name, bytes]) =>
          `| ${r.engine} | ${name} | ${bytes} | ${(bytes / r.chunks).toFixed(0)} |`,
      ),
      `| ${r.engine} | **lexical + sparse index** | ${lexicalBytes(r)} | **${(lexicalBytes(r) / r.chunks).toFixed(0)}** |`,
      `| ${r.engine} | **whole index (with dense + HNSW)** | ${indexBytes(r)} | **${(indexBytes(r) / r.chunks).toFixed(0)}** |`,
    ]),
    "",
    "| engine | mode | p50 | p95 | p99 |",
    "|---|---|---|---|---|",
    ...results.flatMap((r) =>
      Object.entries(r.latency).map(
        ([mode, l]) =>
          `| ${r.engine} | ${mode} | ${l.p50.toFixed(1)} ms | ${l.p95.toFixed(1)} ms | ${l.p99.toFixed(1)} ms |`,
      ),
    ),
    "",
    ...results.map(
      (r) =>
        `Load average (1/5/15 min) while ${r.engine} ran its queries: ${r.loadAverage.before.map((x) => x.toFixed(1)).join("/")} at the start, ${r.loadAverage.after.map((x) => x.toFixed(1)).join("/")} at the end (${cpus().length} CPUs).`,
    ),
    "",
    "| engine | HNSW recall@8 vs exact (ef_search " +
      DEFAULT_SEARCH_SETTINGS.efSearch +
      ") | exact search p50 / p95 |",
    "|---|---|---|",
    ...results.map(
      (r) =>
        `| ${r.engine} | ${fixed(r.hnswRecallAt8, 3)} | ${fixed(r.exactMs.p50, 0)} / ${fixed(r.exactMs.p95, 0)} ms |`,
    ),
    "",
  ];
  process.stdout.write(lines.join("\n"));
  const finite = (x: number | null) => (x === null || !Number.isFinite(x) ? null : x);
  writeResult("search", {
    settings: {
      chunks: TARGET_CHUNKS,
      queriesPerMode: QUERIES,
      dims: DIMS,
      dense: DENSE,
      efSearch: DEFAULT_SEARCH_SETTINGS.efSearch,
      engines: ENGINES,
    },
    engines: results.map((r) => ({
      engine: r.engine,
      papers: r.papers,
      chunks: r.chunks,
      postings: r.postings,
      loadSeconds: r.loadSeconds,
      lexicalChunksPerSecond: finite(r.chunks / r.lexicalSeconds),
      denseChunksPerSecond: finite(r.chunks / r.denseSeconds),
      databaseBytes: r.databaseBytes,
      peakRssBytes: r.peakRssBytes,
      lexicalIndexBytesPerChunk: lexicalBytes(r) / r.chunks,
      wholeIndexBytesPerChunk: indexBytes(r) / r.chunks,
      hnswRecallAt8: finite(r.hnswRecallAt8),
      loadAverageBefore: r.loadAverage.before,
      loadAverageAfter: r.loadAverage.after,
      latencyMs: r.latency,
      exactSearchMs: r.exactMs,
      relationBytes: r.relations,
    })),
  });
}

await main();
