/**
 * @module SciFact evaluation: imports the BEIR SciFact abstracts as papers, asks the real
 * search endpoint the test claims, and prints nDCG@10 and recall@100 per channel beside
 * published baselines.
 *
 *   npm run eval:scifact                 # PGlite in a temporary directory
 *   EVAL_ENGINE=postgres npm run eval:scifact
 *   npm run eval:scifact -- --tune       # grid over BM25 and fusion settings, TRAIN queries only
 *   npm run eval:scifact -- --calibrate  # fit the score's logistic per mode, TRAIN queries only
 *   npm run eval:scifact -- --smoke      # 5 queries over their relevant abstracts + 40 others (CI)
 *
 * Rate limits: the in-process store with every quota raised (bench/lib/limits.ts, printed),
 * since the contract's 30 searches/min/IP would refuse the 31st query; each query still draws.
 *
 * Environment (all optional):
 *   EVAL_ENGINE        pglite (default) or postgres
 *   EVAL_DATA_DIR      keep the PGlite database here and reuse it on the next run
 *   EVAL_DATABASE_URL  use (and keep) this PostgreSQL database (implies postgres); a rerun reuses its import
 *   EVAL_REINDEX       rebuild the search index before evaluating (after changing what it stores)
 *   EVAL_ADMIN_URL     where to create/drop quire_eval_<random> (default postgres://postgres@127.0.0.1:5432/postgres)
 *   EVAL_SEARCH        search settings over the defaults, as JSON (e.g. '{"sparseWeight":0.8}')
 *   EMBEDDINGS_URL, EMBEDDINGS_MODEL, EMBEDDINGS_API_KEY   add the dense channel
 *                      (with --tune, its fusion weight is swept on the TRAIN queries)
 *
 * nDCG@10 goes through GET /api/v1/search/semantic over HTTP (an in-process server on port
 * 0). Recall@100 needs 100 papers per query but the public `limit` stops at 20, so it calls
 * the service function `searchChunks` directly with a larger internal limit (same code path
 * below the route). Chunk hits are aggregated to papers by their best chunk. Abstracts over
 * the screener's 5,000-character limit are split into abstract and body, as an author would;
 * records the screener still rejects are never in the index and count as misses.
 *
 * Figures go to bench/results/scifact.json and .md (bench/lib/results.ts); `--tune` and
 * `--calibrate` write scifact-tune (or scifact-tune-dense) and scifact-calibrate.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type ServerType, serve } from "@hono/node-server";
import { sql } from "drizzle-orm";
import { raisedLine, raisedMemoryLimits } from "../bench/lib/limits.ts";
import { writeResult } from "../bench/lib/results.ts";
import {
  type Channel,
  rankChunks,
  type SearchMode,
  searchChunks,
} from "../bench/lib/search-internals.ts";
import { figure, SMOKE, samples } from "../bench/lib/smoke.ts";
import { buildApp } from "../src/app.ts";
import { loadConfig } from "../src/config.ts";
import { createLogger } from "../src/logger.ts";
import { openRuntime, type Runtime } from "../src/runtime.ts";
import { importPapers } from "../src/services/papers/import.ts";
import { rebuildSearchIndex } from "../src/services/search/indexing.ts";
import type { SearchResponse } from "../src/services/search/schemas.ts";
import { DEFAULT_SEARCH_SETTINGS, type SearchSettings } from "../src/services/search/settings.ts";
import { drainEmbeddingQueue } from "../src/services/search/worker.ts";
import { evalSearchSettings, fetchRetrying, log, withEvalDatabase } from "./lib/database.ts";

const DATA = fileURLToPath(new URL("../../shared/data/beir-scifact/", import.meta.url));
const TUNE = process.argv.includes("--tune");
const CALIBRATE = process.argv.includes("--calibrate");
/** Chunks asked of the service for recall@100 (papers have a title chunk and 1-3 abstract chunks). */
const DEEP_LIMIT = 400;

interface CorpusRecord {
  _id: string;
  title: string;
  text: string;
}
interface Query {
  id: string;
  text: string;
}

function readJsonl<T>(file: string): T[] {
  return readFileSync(join(DATA, file), "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);
}

function readQrels(split: "test" | "train"): Map<string, Set<string>> {
  const qrels = new Map<string, Set<string>>();
  for (const line of readFileSync(join(DATA, "qrels", `${split}.tsv`), "utf8")
    .split("\n")
    .slice(1)) {
    const [q, doc, score] = line.split("\t");
    if (!q || !doc || Number(score) <= 0) continue;
    if (!qrels.has(q)) qrels.set(q, new Set());
    qrels.get(q)!.add(doc);
  }
  return qrels;
}

/** nDCG@10 with binary gains (SciFact's judgments are all 1), as pytrec_eval computes it. */
export function ndcgAt10(ranked: string[], relevant: Set<string>): number {
  let dcg = 0;
  for (const [i, doc] of ranked.slice(0, 10).entries()) {
    if (relevant.has(doc)) dcg += 1 / Math.log2(i + 2);
  }
  let ideal = 0;
  for (let i = 0; i < Math.min(10, relevant.size); i++) ideal += 1 / Math.log2(i + 2);
  return ideal > 0 ? dcg / ideal : 0;
}

export function recallAt(ranked: string[], relevant: Set<string>, k: number): number {
  const hits = ranked.slice(0, k).filter((d) => relevant.has(d)).length;
  return relevant.size > 0 ? hits / relevant.size : 0;
}

/** Chunk results → corpus ids, each paper at the rank of its best chunk. */
function papersOf(response: SearchResponse, corpusIdOf: Map<string, string>): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const r of response.results) {
    const id = corpusIdOf.get(r.paper_id);
    if (id === undefined || seen.has(id)) continue;
    seen.add(id);
    out.push(id);
  }
  return out;
}

async function importCorpus(rt: Runtime, corpus: CorpusRecord[]) {
  const corpusIdOf = new Map<string, string>();
  const missed: string[] = [];
  const started = performance.now();
  const lines = corpus.map((r, i) =>
    JSON.stringify({
      title: r.title.trim(),
      ...splitAbstract(r.text.trim()),
      ai_model: "scifact-corpus",
      license: "ODC-By-1.0",
      keywords: [],
      published_at: new Date(Date.UTC(2020, 4, 1) + i * 60_000).toISOString(),
    }),
  );
  const summary = await importPapers(rt.services, lines, (result) => {
    const record = corpus[result.line - 1]!;
    if (result.paper_id) corpusIdOf.set(result.paper_id, record._id);
    else missed.push(`${record._id} (${result.outcome}: ${result.messages.join("; ")})`);
    if (result.line % 500 === 0) {
      const s = (performance.now() - started) / 1000;
      log(`  imported ${result.line}/${corpus.length} (${(result.line / s).toFixed(0)}/s)`);
    }
  });
  const seconds = (performance.now() - started) / 1000;
  return { corpusIdOf, missed, summary, seconds };
}

/** The screener's abstract limit, in characters. */
const ABSTRACT_MAX = 5000;

/**
 * SciFact has a few "abstracts" longer than an abstract may be; as the screener asks an
 * author to, the overflow goes into the body (cut at the last sentence end that fits), so
 * the record is still searchable in full.
 */
export function splitAbstract(text: string): { abstract: string; body: string } {
  const chars = Array.from(text);
  if (chars.length <= ABSTRACT_MAX) return { abstract: text, body: "" };
  const head = chars.slice(0, ABSTRACT_MAX).join("");
  const cut = head.lastIndexOf(". ");
  const at = cut > ABSTRACT_MAX / 2 ? cut + 1 : head.length;
  return { abstract: text.slice(0, at).trim(), body: text.slice(at).trim() };
}

interface ChannelRun {
  name: string;
  /** How the top 10 were obtained. */
  via: "HTTP" | "service";
  mode: SearchMode;
  channels?: Channel[];
}

/** Published figures on SciFact test, printed beside this run's (not measured here). */
const BASELINES: { system: string; "nDCG@10": number; "recall@100": number | null }[] = [
  { system: "BM25, BEIR paper", "nDCG@10": 0.665, "recall@100": null },
  { system: "all-MiniLM-L6-v2 (neural)", "nDCG@10": 0.645, "recall@100": null },
  { system: "`ts_rank` over an OR query", "nDCG@10": 0.604, "recall@100": null },
  { system: "BM25 in SQL over documents (issue)", "nDCG@10": 0.691, "recall@100": null },
  { system: "BM25 + sparse over documents (issue)", "nDCG@10": 0.705, "recall@100": 0.94 },
  { system: "bge-small-en-v1.5 (neural)", "nDCG@10": 0.713, "recall@100": null },
];

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

async function main(): Promise<void> {
  let corpus = readJsonl<CorpusRecord>("corpus.jsonl");
  const queries = new Map(
    readJsonl<{ _id: string; text: string }>("queries.jsonl").map((q) => [q._id, q.text]),
  );
  const split = TUNE || CALIBRATE ? "train" : "test";
  const qrels = readQrels(split);
  let evalQueries: Query[] = [...qrels.keys()].map((id) => ({ id, text: queries.get(id)! }));
  if (SMOKE) {
    evalQueries = evalQueries.slice(0, 5);
    const wanted = new Set(evalQueries.flatMap((q) => [...qrels.get(q.id)!]));
    corpus = corpus.filter((r, i) => wanted.has(r._id) || i < 40);
  }
  samples("evaluation queries", evalQueries.length);

  await withEvalDatabase("scifact", async (env) => {
    const config = loadConfig({
      ...env,
      LOG_LEVEL: "silent",
      SEED_SAMPLES: "false",
      PORT: "0",
      EMBEDDINGS_URL: process.env.EMBEDDINGS_URL,
      EMBEDDINGS_MODEL: process.env.EMBEDDINGS_MODEL,
      EMBEDDINGS_API_KEY: process.env.EMBEDDINGS_API_KEY,
    });
    const logger = createLogger("silent");
    const reused = env.DATA_DIR !== undefined && existsSync(join(env.DATA_DIR, "PG_VERSION"));
    // The contract's 30 searches/min/IP would refuse the 31st query: raised, still drawn on.
    const rt = await openRuntime(config, logger, { rateLimits: false });
    rt.services.rateLimits = raisedMemoryLimits();
    rt.services.search = evalSearchSettings(rt.services.search);
    try {
      log(raisedLine());
      log(
        `SciFact on ${rt.database.kind} (${rt.database.location}); ${corpus.length} abstracts, ${evalQueries.length} ${split} queries`,
      );
      const imported = await importCorpus(rt, corpus);
      log(
        `import: ${imported.summary.published} published, ${imported.summary.already_imported} already there${reused ? " (reused directory)" : ""}, ` +
          `${imported.summary.rejected} rejected by the screener, ${imported.summary.invalid} invalid, in ${imported.seconds.toFixed(0)} s`,
      );
      for (const m of imported.missed) log(`  not indexed (counted as a miss): ${m}`);
      if (process.env.EVAL_REINDEX) {
        const built = await rebuildSearchIndex(rt.services);
        log(`search index rebuilt: ${built.chunks} chunks`);
      }
      if (rt.services.embedder) {
        log(`dense: embedding the queue with ${rt.services.embedder.model} …`);
        await drainEmbeddingQueue(rt.services, { onProgress: (done) => log(`  embedded ${done}`) });
      }
      if (CALIBRATE) await calibrate(rt, evalQueries, qrels, imported.corpusIdOf);
      else if (TUNE && rt.services.embedder)
        await tuneDenseWeight(rt, evalQueries, qrels, imported.corpusIdOf);
      else if (TUNE) await tune(rt, evalQueries, qrels, imported.corpusIdOf);
      else await evaluate(rt, config.BASE_URL, evalQueries, qrels, imported);
    } finally {
      await rt.close();
    }
  });
}

async function evaluate(
  rt: Runtime,
  baseUrl: string,
  evalQueries: Query[],
  qrels: Map<string, Set<string>>,
  imported: Awaited<ReturnType<typeof importCorpus>>,
): Promise<void> {
  const app = buildApp({ services: rt.services, logger: rt.logger, baseUrl, trustProxy: [] });
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, () => resolve(s));
  });
  const address = server.address();
  const base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  const runs: ChannelRun[] = [
    { name: "lexical (BM25 in SQL)", via: "HTTP", mode: "lexical" },
    {
      name: "sparse (words, bigrams, char 4-grams; on BM25 candidates)",
      via: "service",
      mode: "hybrid",
      channels: ["sparse"],
    },
    { name: "hybrid (BM25 + sparse)", via: "HTTP", mode: "hybrid" },
  ];
  if (rt.services.embedder) {
    runs.push({ name: `dense (${rt.services.embedder.model})`, via: "HTTP", mode: "semantic" });
    runs[2] = { name: "hybrid (BM25 + sparse + dense)", via: "HTTP", mode: "hybrid" };
    runs.push({
      name: "BM25 + sparse (no dense)",
      via: "service",
      mode: "hybrid",
      channels: ["bm25", "sparse"],
    });
  }
  const table: string[] = [];
  const channels: Record<string, unknown>[] = [];
  try {
    for (const run of runs) {
      let ndcg = 0;
      let ndcgDeep = 0;
      let recall = 0;
      const ms: number[] = [];
      for (const q of evalQueries) {
        const relevant = qrels.get(q.id)!;
        let top: string[];
        const started = performance.now();
        if (run.via === "HTTP") {
          const url = `${base}/api/v1/search/semantic?q=${encodeURIComponent(q.text)}&limit=20&mode=${run.mode}`;
          const res = await fetchRetrying(url);
          if (res.status !== 200) throw new Error(`${url}: ${res.status} ${await res.text()}`);
          top = papersOf((await res.json()) as SearchResponse, imported.corpusIdOf);
        } else {
          top = papersOf(
            await searchChunks(
              rt.services,
              { q: q.text, limit: 20, mode: run.mode },
              { channels: run.channels },
            ),
            imported.corpusIdOf,
          );
        }
        ms.push(performance.now() - started);
        const deep = papersOf(
          await searchChunks(
            rt.services,
            { q: q.text, limit: DEEP_LIMIT, mode: run.mode },
            { maxLimit: DEEP_LIMIT, channels: run.channels },
          ),
          imported.corpusIdOf,
        );
        ndcg += ndcgAt10(top, relevant);
        ndcgDeep += ndcgAt10(deep, relevant);
        recall += recallAt(deep, relevant, 100);
      }
      const n = samples(`${run.name} queries`, evalQueries.length);
      figure(`${run.name} nDCG@10`, ndcg / n);
      figure(`${run.name} recall@100`, recall / n);
      table.push(
        `| ${run.name} | ${(ndcg / n).toFixed(3)} | ${(recall / n).toFixed(3)} | ${run.via} | ${percentile(ms, 50).toFixed(0)} / ${percentile(ms, 95).toFixed(0)} ms |`,
      );
      log(
        `${run.name}: nDCG@10 ${(ndcg / n).toFixed(4)} (service, deep list: ${(ndcgDeep / n).toFixed(4)}), recall@100 ${(recall / n).toFixed(4)}`,
      );
      channels.push({
        channel: run.name,
        "nDCG@10": ndcg / n,
        "nDCG@10 (service, deep list)": ndcgDeep / n,
        "recall@100": recall / n,
        top10Via: run.via,
        p50Ms: percentile(ms, 50),
        p95Ms: percentile(ms, 95),
      });
    }
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  const missed = imported.missed.length;
  writeResult("scifact", {
    settings: {
      engine: rt.database.kind,
      split: "test",
      queries: evalQueries.length,
      indexed: imported.corpusIdOf.size,
      rejectedByScreener: missed,
      embedder: rt.services.embedder?.model ?? "none",
    },
    channels,
    publishedBaselines: BASELINES,
  });
  process.stdout.write(
    [
      "",
      `SciFact test: ${evalQueries.length} queries, ${imported.corpusIdOf.size} of 5183 abstracts indexed (${missed} rejected by the screener, counted as misses); engine ${rt.database.kind}`,
      "",
      "| channel | nDCG@10 | recall@100 | top 10 via | p50 / p95 per query |",
      "|---|---|---|---|---|",
      ...table,
      "| *baselines (issue 4 and BEIR/MTEB)* | | | | |",
      ...BASELINES.map((b) => `| ${b.system} | ${b["nDCG@10"]} | ${b["recall@100"] ?? ""} | | |`),
      "",
      "Latency is wall time per query in this process, on a shared machine: indicative only.",
      "",
    ].join("\n"),
  );
}

/**
 * Grid over BM25 k1/b, the candidate depth and the sparse weight, on the TRAIN queries only.
 * Each (k1, b, depth) runs the real ranking once and keeps every candidate's per-channel
 * z-scores; the weights are then swept in memory (the fusion is a weighted mean, so this is
 * exactly what the service would rank).
 */
async function tune(
  rt: Runtime,
  evalQueries: Query[],
  qrels: Map<string, Set<string>>,
  corpusIdOf: Map<string, string>,
): Promise<void> {
  const paperOfChunk = await chunkPapers(rt);
  const weights = [0, 0.5, 0.75, 1, 1.25, 1.5];
  const runs: Partial<SearchSettings>[] = [];
  for (const [k1, b] of [
    [0.9, 0.4],
    [1.2, 0.5],
    [1.2, 0.75],
  ] as const) {
    for (const candidates of [150, 300, 1000]) runs.push({ k1, b, candidates });
  }
  process.stdout.write(
    "| k1 | b | candidates | sparse weight | nDCG@10 (train) | recall@100 |\n|---|---|---|---|---|---|\n",
  );
  const grid: Record<string, number | undefined>[] = [];
  for (const settings of runs) {
    const ndcg = new Map<number, number>();
    const recall = new Map<number, number>();
    for (const q of evalQueries) {
      const relevant = qrels.get(q.id)!;
      const ranked = await rankChunks(rt.services, q.text, "hybrid", settings.candidates!, {
        settings,
        channels: ["bm25", "sparse"],
      });
      for (const w of weights) {
        const order = ranked
          .map((r) => ({ id: r.chunkId, f: (r.z.bm25 ?? 0) + w * (r.z.sparse ?? 0) }))
          .sort((a, b) => b.f - a.f || a.id - b.id);
        const papers: string[] = [];
        const seen = new Set<string>();
        for (const r of order) {
          const corpusId = corpusIdOf.get(paperOfChunk.get(r.id) ?? "");
          if (corpusId === undefined || seen.has(corpusId)) continue;
          seen.add(corpusId);
          papers.push(corpusId);
        }
        ndcg.set(w, (ndcg.get(w) ?? 0) + ndcgAt10(papers, relevant));
        recall.set(w, (recall.get(w) ?? 0) + recallAt(papers, relevant, 100));
      }
    }
    const n = evalQueries.length;
    for (const w of weights) {
      process.stdout.write(
        `| ${settings.k1} | ${settings.b} | ${settings.candidates} | ${w} | ${(ndcg.get(w)! / n).toFixed(4)} | ${(recall.get(w)! / n).toFixed(3)} |\n`,
      );
      grid.push({
        k1: settings.k1,
        b: settings.b,
        candidates: settings.candidates,
        sparseWeight: w,
        "nDCG@10 (train)": ndcg.get(w)! / n,
        "recall@100 (train)": recall.get(w)! / n,
      });
    }
  }
  process.stdout.write(`\ncurrent defaults: ${JSON.stringify(DEFAULT_SEARCH_SETTINGS)}\n`);
  writeResult("scifact-tune", {
    settings: { engine: rt.database.kind, split: "train", queries: evalQueries.length },
    defaults: DEFAULT_SEARCH_SETTINGS,
    grid,
  });
}

/**
 * The dense channel's fusion weight over the default BM25 + sparse ranking, on the TRAIN
 * queries only: each query is ranked once with every channel and the weight swept in memory
 * over the kept z-scores (the fusion is a weighted mean, so this is what the service ranks).
 */
async function tuneDenseWeight(
  rt: Runtime,
  evalQueries: Query[],
  qrels: Map<string, Set<string>>,
  corpusIdOf: Map<string, string>,
): Promise<void> {
  const paperOfChunk = await chunkPapers(rt);
  const weights = [0, 0.25, 0.35, 0.5, 0.75, 1];
  const ndcg = new Map<number, number>();
  const recall = new Map<number, number>();
  const depth = DEFAULT_SEARCH_SETTINGS.candidates + DEFAULT_SEARCH_SETTINGS.denseCandidates;
  for (const q of evalQueries) {
    const relevant = qrels.get(q.id)!;
    const ranked = await rankChunks(rt.services, q.text, "hybrid", depth);
    for (const w of weights) {
      const order = ranked
        .map((r) => ({
          id: r.chunkId,
          f:
            (r.z.bm25 ?? 0) +
            DEFAULT_SEARCH_SETTINGS.sparseWeight * (r.z.sparse ?? 0) +
            w * (r.z.dense ?? 0),
        }))
        .sort((a, b) => b.f - a.f || a.id - b.id);
      const papers: string[] = [];
      const seen = new Set<string>();
      for (const r of order) {
        const corpusId = corpusIdOf.get(paperOfChunk.get(r.id) ?? "");
        if (corpusId === undefined || seen.has(corpusId)) continue;
        seen.add(corpusId);
        papers.push(corpusId);
      }
      ndcg.set(w, (ndcg.get(w) ?? 0) + ndcgAt10(papers, relevant));
      recall.set(w, (recall.get(w) ?? 0) + recallAt(papers, relevant, 100));
    }
  }
  const n = samples("train queries", evalQueries.length);
  process.stdout.write(
    `| dense (${rt.services.embedder?.model}) weight | nDCG@10 (train) | recall@100 |\n|---|---|---|\n`,
  );
  for (const w of weights) {
    process.stdout.write(
      `| ${w} | ${figure(`weight ${w} nDCG@10`, ndcg.get(w)! / n).toFixed(4)} | ${(recall.get(w)! / n).toFixed(3)} |\n`,
    );
  }
  writeResult("scifact-tune-dense", {
    settings: {
      engine: rt.database.kind,
      split: "train",
      queries: n,
      embedder: rt.services.embedder?.model ?? "none",
    },
    weights: weights.map((w) => ({
      denseWeight: w,
      "nDCG@10 (train)": ndcg.get(w)! / n,
      "recall@100 (train)": recall.get(w)! / n,
    })),
  });
}

async function chunkPapers(rt: Runtime): Promise<Map<number, string>> {
  const rows = (await rt.database.db.execute(
    sql`select id::int8 as id, paper_id from chunks`,
  )) as unknown as { rows: { id: string; paper_id: string }[] };
  return new Map(rows.rows.map((r) => [Number(r.id), r.paper_id]));
}

/**
 * Fits P(relevant | fused) = 1 / (1 + exp(-(a * fused + c))) over the top 10 chunks of every
 * train query, per mode, by Newton's method on the log-likelihood. The fitted pairs are the
 * `scoreCurves` in services/search/settings.ts, so a result's score reads roughly as the
 * chance that its paper is relevant, on SciFact-like data.
 */
/**
 * Maximum-likelihood logistic fit of y on x: Newton's method with step halving (a full
 * Newton step can overshoot on well-separated data and diverge).
 */
export function fitLogistic(points: [number, number][]): [number, number] {
  const logLikelihood = (a: number, c: number) => {
    let ll = 0;
    for (const [x, y] of points) {
      const z = a * x + c;
      // log(1 + e^z) computed stably.
      const softplus = z > 0 ? z + Math.log1p(Math.exp(-z)) : Math.log1p(Math.exp(z));
      ll += y * z - softplus;
    }
    return ll;
  };
  let a = 0;
  let c = 0;
  let current = logLikelihood(a, c);
  for (let iter = 0; iter < 100; iter++) {
    let ga = 0;
    let gc = 0;
    let haa = 0;
    let hac = 0;
    let hcc = 0;
    for (const [x, y] of points) {
      const p = 1 / (1 + Math.exp(-(a * x + c)));
      const w = p * (1 - p);
      ga += (y - p) * x;
      gc += y - p;
      haa += w * x * x;
      hac += w * x;
      hcc += w;
    }
    const det = haa * hcc - hac * hac;
    if (Math.abs(det) < 1e-12) break;
    const da = (hcc * ga - hac * gc) / det;
    const dc = (haa * gc - hac * ga) / det;
    let step = 1;
    let next = logLikelihood(a + da, c + dc);
    while (next < current && step > 1e-6) {
      step /= 2;
      next = logLikelihood(a + step * da, c + step * dc);
    }
    if (next < current) break;
    a += step * da;
    c += step * dc;
    const gain = next - current;
    current = next;
    if (gain < 1e-9) break;
  }
  return [a, c];
}

async function calibrate(
  rt: Runtime,
  evalQueries: Query[],
  qrels: Map<string, Set<string>>,
  corpusIdOf: Map<string, string>,
): Promise<void> {
  const paperOfChunk = await chunkPapers(rt);
  const fits: Record<string, string | number>[] = [];
  for (const mode of ["lexical", "hybrid"] as const) {
    const points: [number, number][] = [];
    for (const q of evalQueries) {
      const ranked = await rankChunks(rt.services, q.text, mode, 10);
      if (ranked.length === 0) continue;
      const relevant = qrels.get(q.id)!;
      for (const r of ranked) {
        const corpusId = corpusIdOf.get(paperOfChunk.get(r.chunkId) ?? "");
        points.push([r.fused, corpusId !== undefined && relevant.has(corpusId) ? 1 : 0]);
      }
    }
    const [a, c] = fitLogistic(points);
    const positives = points.filter(([, y]) => y === 1).length;
    process.stdout.write(
      `${mode}: a=${a.toFixed(4)} c=${c.toFixed(4)} over ${points.length} top-10 chunks (${positives} relevant)\n`,
    );
    fits.push({ mode, a, c, top10Chunks: points.length, relevant: positives });
  }
  writeResult("scifact-calibrate", {
    settings: { engine: rt.database.kind, split: "train", queries: evalQueries.length },
    fits,
  });
}

await main();
