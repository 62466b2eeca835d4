/**
 * @module Related-papers evaluation: imports the arXiv abstracts of ../shared/data (without
 * subjects or keywords: only title and abstract), and measures how often the related papers
 * share the source paper's first listed arXiv category (precision@5), against a plain TF-IDF
 * cosine over title + abstract computed here in memory.
 *
 *   npm run eval:related                    # PGlite in a temporary directory
 *   EVAL_ENGINE=postgres npm run eval:related
 *   npm run eval:related -- --tune          # a grid of settings, DEV queries only
 *   npm run eval:related -- --calibrate     # fit the score's logistic, DEV queries only
 *   npm run eval:related -- --smoke         # 300 abstracts, 20 queries (CI)
 *
 * Environment: as eval:arxiv (eval/lib/database.ts): EVAL_ENGINE, EVAL_DATA_DIR,
 * EVAL_DATABASE_URL (a rerun on a kept database reuses its import), EVAL_ADMIN_URL.
 * EVAL_RELATED: related settings over the defaults, as JSON (e.g. '{"terms":40}').
 *
 * Query papers: a fixed seeded sample of 600 loaded papers; dev = the sample's even positions,
 * test = its odd ones. Settings were chosen on dev (`--tune`); test is the figure to believe.
 * Ours goes through the service verb `relatedPapers` (as REST, MCP and the page do, below the
 * route), one query at a time; its latency is wall time per call in this process.
 *
 * Then the screener's subject suggestion (services/papers `suggestSubject`): every loaded paper
 * except the query papers gets its arXiv categories as subjects, and each query paper (still
 * without) is given the subject its closest papers share. Reported: how often there is a
 * suggestion (coverage), how often it is the first listed category (precision), against the
 * closest paper's first category and the most common category. The subjects are taken off again.
 */

import { existsSync, readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { arxivPapers, type BulkPaper } from "../bench/lib/bulk-load.ts";
import { resultsDir, writeResult } from "../bench/lib/results.ts";
import { figure, orSmoke, SMOKE, samples } from "../bench/lib/smoke.ts";
import { loadConfig } from "../src/config.ts";
import { rowsOf } from "../src/db/sql.ts";
import { createLogger } from "../src/logger.ts";
import { openRuntime } from "../src/runtime.ts";
import type { ServiceContext } from "../src/services/context.ts";
import { relatedPapers } from "../src/services/papers/index.ts";
import {
  type Neighbour,
  SUGGESTION_SETTINGS,
  type SuggestionSettings,
  subjectNeighbours,
  voteSubject,
} from "../src/services/papers/suggest-subject.ts";
import {
  DEFAULT_RELATED_SETTINGS,
  type RelatedSettings,
  rankRelated,
} from "../src/services/search/related.ts";
import { prng } from "../test/fixtures/synthetic-papers.ts";
import { loadCorpusOnce, log, withEvalDatabase } from "./lib/database.ts";

const ARXIV = new URL("../../shared/data/arxiv-daily-cs/data/", import.meta.url);
const TUNE = process.argv.includes("--tune");
const CALIBRATE = process.argv.includes("--calibrate");
const SEED = 20261130;
const QUERIES = orSmoke(1000, 20);
const K = 5;

function sample<T>(items: readonly T[], n: number, seed: number): T[] {
  const random = prng(seed);
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy.slice(0, n);
}

/**
 * The baseline: TF-IDF cosine over title + abstract as scikit-learn's TfidfVectorizer does
 * it by default (lower-cased tokens of two or more word characters, raw term frequency,
 * smoothed IDF ln((1 + n) / (1 + df)) + 1, unit length), with `sublinear` (1 + ln tf) and
 * `stop` (English stop words) as options.
 */
function tfidfBaseline(
  papers: readonly BulkPaper[],
  options: { sublinear?: boolean; stop?: ReadonlySet<string> } = {},
) {
  const docs = papers.map((p) => {
    const tf = new Map<string, number>();
    for (const token of `${p.title} ${p.abstract}`.toLowerCase().match(/[\p{L}\p{N}_]{2,}/gu) ??
      []) {
      if (options.stop?.has(token)) continue;
      tf.set(token, (tf.get(token) ?? 0) + 1);
    }
    return tf;
  });
  const df = new Map<string, number>();
  for (const tf of docs) for (const t of tf.keys()) df.set(t, (df.get(t) ?? 0) + 1);
  const n = docs.length;
  const postings = new Map<string, { doc: number; w: number }[]>();
  const vectors = docs.map((tf, doc) => {
    const v = new Map<string, number>();
    let norm = 0;
    for (const [t, f] of tf) {
      const w =
        (options.sublinear ? 1 + Math.log(f) : f) * (Math.log((1 + n) / (1 + df.get(t)!)) + 1);
      v.set(t, w);
      norm += w * w;
    }
    norm = Math.sqrt(norm) || 1;
    for (const [t, w] of v) {
      v.set(t, w / norm);
      let list = postings.get(t);
      if (!list) {
        list = [];
        postings.set(t, list);
      }
      list.push({ doc, w: w / norm });
    }
    return v;
  });
  return (doc: number, k: number): number[] => {
    const scores = new Float64Array(n);
    for (const [t, w] of vectors[doc]!) {
      for (const p of postings.get(t)!) scores[p.doc]! += w * p.w;
    }
    scores[doc] = Number.NEGATIVE_INFINITY;
    return [...scores.keys()].sort((a, b) => scores[b]! - scores[a]! || a - b).slice(0, k);
  };
}

/** scikit-learn's English stop words (ENGLISH_STOP_WORDS), for the stronger baseline. */
const STOP_WORDS = new Set(
  "a about above across after afterwards again against all almost alone along already also although always am among amongst amoungst amount an and another any anyhow anyone anything anyway anywhere are around as at back be became because become becomes becoming been before beforehand behind being below beside besides between beyond bill both bottom but by call can cannot cant co con could couldnt cry de describe detail do done down due during each eg eight either eleven else elsewhere empty enough etc even ever every everyone everything everywhere except few fifteen fifty fill find fire first five for former formerly forty found four from front full further get give go had has hasnt have he hence her here hereafter hereby herein hereupon hers herself him himself his how however hundred i ie if in inc indeed interest into is it its itself keep last latter latterly least less ltd made many may me meanwhile might mill mine more moreover most mostly move much must my myself name namely neither never nevertheless next nine no nobody none noone nor not nothing now nowhere of off often on once one only onto or other others otherwise our ours ourselves out over own part per perhaps please put rather re same see seem seemed seeming seems serious several she should show side since sincere six sixty so some somehow something sometime sometimes somewhere still such system take ten than that the their them themselves then thence there thereafter thereby therefore therein thereupon these they thick thin third this those though three through throughout thru thus to together too top toward towards twelve twenty two un under until up upon us very via was we well were what whatever when whence whenever where whereafter whereas whereby wherein whereupon wherever whether which while whither who whoever whole whom whose why will with within without would yet you your yours yourself yourselves".split(
    " ",
  ),
);

interface Halves {
  dev: number;
  test: number;
  all: number;
}

/** precision@5 of `ranked` (paper ids) against the query's first category, per half. */
function precision(
  queries: readonly string[],
  ranked: (id: string, index: number) => string[],
  primary: ReadonlyMap<string, string>,
): Halves {
  const sums = [0, 0];
  const counts = [0, 0];
  queries.forEach((id, i) => {
    const wanted = primary.get(id);
    const got = ranked(id, i).slice(0, K);
    const hits = got.filter((other) => primary.get(other) === wanted).length;
    sums[i % 2]! += hits / K;
    counts[i % 2]! += 1;
  });
  return {
    dev: sums[0]! / samples("dev queries", counts[0]!),
    test: sums[1]! / samples("test queries", counts[1]!),
    all: (sums[0]! + sums[1]!) / (counts[0]! + counts[1]!),
  };
}

/** The per-engine figures of the last run's file (none in smoke mode, or when there is none). */
function readPrevious(): Record<string, unknown> {
  const path = join(resultsDir(), "eval-related.json");
  if (SMOKE || !existsSync(path)) return {};
  const engines = (JSON.parse(readFileSync(path, "utf8")) as { engines?: Record<string, unknown> })
    .engines;
  return engines ?? {};
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

async function main(): Promise<void> {
  const all = [...arxivPapers(ARXIV)];
  const primary = new Map(all.map((p) => [p.id, p.keywords[0] ?? ""]));
  // Imported without subjects or keywords: only the title and abstract say what a paper is about.
  const corpus = orSmoke(all, all.slice(0, 300)).map((p) => ({ ...p, keywords: [] }));
  const overrides = process.env.EVAL_RELATED
    ? (JSON.parse(process.env.EVAL_RELATED) as Partial<RelatedSettings>)
    : {};

  await withEvalDatabase("related", async (env) => {
    const config = loadConfig({ ...env, LOG_LEVEL: "silent", SEED_SAMPLES: "false", PORT: "0" });
    const rt = await openRuntime(config, createLogger("silent"), { rateLimits: false });
    const ctx: ServiceContext = { ...rt.services, caller: { kind: "anonymous" } };
    try {
      await loadCorpusOnce(rt, corpus);
      const loadedIds = new Set(
        (
          await rowsOf<{ id: string }>(
            rt.database.db,
            sql`select id from papers where status = 'published' order by id`,
          )
        ).map((r) => r.id),
      );
      const papers = corpus.filter((p) => loadedIds.has(p.id));
      const index = new Map(papers.map((p, i) => [p.id, i]));
      const queries = sample(
        papers.map((p) => p.id),
        QUERIES,
        SEED,
      );
      log(
        `${papers.length} papers on ${rt.database.kind}; ${queries.length} query papers (seed ${SEED}), dev = even positions, test = odd`,
      );

      const baselines = {
        "TF-IDF cosine (scikit-learn defaults)": tfidfBaseline(papers),
        "TF-IDF cosine, sublinear tf, English stop words": tfidfBaseline(papers, {
          sublinear: true,
          stop: STOP_WORDS,
        }),
      };
      const baselineFigures: Record<string, Halves> = {};
      for (const [name, rank] of Object.entries(baselines)) {
        baselineFigures[name] = precision(
          queries,
          (id) => rank(index.get(id)!, K).map((d) => papers[d]!.id),
          primary,
        );
      }

      if (TUNE) {
        await tune(ctx, queries, primary);
        await suggestions(rt, ctx, papers, queries, all);
        return;
      }
      if (CALIBRATE) {
        await calibrate(ctx, queries, primary);
        return;
      }

      // Ours, through the verb; a warm-up call first (statement caches, planner).
      await relatedPapers(ctx, { id: queries[0]!, limit: K });
      const ms: number[] = [];
      const answers: string[][] = [];
      for (const id of queries) {
        const started = performance.now();
        const { related } = await relatedPapers(ctx, { id, limit: K });
        ms.push(performance.now() - started);
        answers.push(related.map((r) => r.id));
      }
      const ours = precision(queries, (_, i) => answers[i]!, primary);
      const p50 = figure("p50", percentile(ms, 50));
      const p95 = figure("p95", percentile(ms, 95));
      const rows: [string, Halves][] = [
        ["ours: relatedPapers (defaults)", ours],
        ...Object.entries(baselineFigures),
      ];
      process.stdout.write(
        [
          "",
          `Related papers, arXiv sample: ${papers.length} abstracts (no keywords), engine ${rt.database.kind}, ${queries.length} query papers`,
          "",
          "| ranking | p@5 dev | p@5 test (held out) | p@5 all |",
          "|---|---|---|---|",
          ...rows.map(
            ([name, h]) =>
              `| ${name} | ${figure(name, h.dev).toFixed(3)} | ${figure(name, h.test).toFixed(3)} | ${h.all.toFixed(3)} |`,
          ),
          "",
          `relatedPapers latency (${rt.database.kind}, limit ${K}, ${ms.length} calls): p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms`,
          "",
        ].join("\n"),
      );
      const suggestion = await suggestions(rt, ctx, papers, queries, all);
      // One file for both engines: this run replaces its engine's figures and keeps the other's.
      const previous = readPrevious();
      const round = (x: number) => Math.round(x * 10_000) / 10_000;
      const run = {
        date: new Date().toISOString(),
        load: loadavg().map((l) => Math.round(l * 100) / 100),
        settings: { ...DEFAULT_RELATED_SETTINGS, ...overrides },
        precisionAt5: Object.fromEntries(
          rows.map(([name, h]) => [
            name,
            { dev: round(h.dev), test: round(h.test), all: round(h.all) },
          ]),
        ),
        latencyMs: { p50: round(p50), p95: round(p95), calls: ms.length },
        subjectSuggestion: suggestion,
      };
      writeResult("eval-related", {
        papers: papers.length,
        queries: queries.length,
        seed: SEED,
        halves: "dev = even positions of the seeded sample (settings chosen there), test = odd",
        metric:
          "precision@5: share of the 5 related papers whose first arXiv category is the source's",
        engines: { ...previous, [rt.database.kind]: run },
      });
    } finally {
      await rt.close();
    }
  });
}

interface SuggestionFigures {
  /** Share of query papers given a suggestion. */
  coverage: number;
  /** Share of suggestions that are the paper's first listed category. */
  precision: number;
}

/** Coverage and precision of one way of suggesting, per half (dev = even positions). */
function suggestionFigures(
  queries: readonly string[],
  suggest: (i: number) => string | null,
  primary: ReadonlyMap<string, string>,
): { dev: SuggestionFigures; test: SuggestionFigures } {
  const half = (parity: number): SuggestionFigures => {
    let asked = 0;
    let given = 0;
    let right = 0;
    queries.forEach((id, i) => {
      if (i % 2 !== parity) return;
      asked += 1;
      const code = suggest(i);
      if (code === null) return;
      given += 1;
      if (code === primary.get(id)) right += 1;
    });
    return {
      coverage: given / samples("suggestion queries", asked),
      precision: right / (given || 1),
    };
  };
  return { dev: half(0), test: half(1) };
}

/**
 * The suggestion phase (see the module comment). In --tune mode the vote's settings are tried
 * on the dev half only; otherwise the defaults are reported on both halves.
 */
async function suggestions(
  rt: Awaited<ReturnType<typeof openRuntime>>,
  ctx: ServiceContext,
  papers: readonly BulkPaper[],
  queries: readonly string[],
  all: readonly BulkPaper[],
): Promise<Record<string, { dev: SuggestionFigures; test: SuggestionFigures }>> {
  const categories = new Map(all.map((p) => [p.id, p.keywords.slice(0, 5)]));
  const primary = new Map(all.map((p) => [p.id, p.keywords[0] ?? ""]));
  const asked = new Set(queries);
  const labelled = papers.filter((p) => !asked.has(p.id));
  const db = rt.database.db;
  const setSubjects = async (ids: string[], subjects: (id: string) => string[]) => {
    for (let i = 0; i < ids.length; i += 500) {
      const batch = ids.slice(i, i + 500);
      await db.execute(
        sql`update papers set subjects = s.subjects
            from (select * from json_to_recordset(${JSON.stringify(
              batch.map((id) => ({ id, subjects: subjects(id) })),
            )}::json) as x(id text, subjects text[])) s
            where papers.id = s.id`,
      );
    }
  };
  await setSubjects(
    labelled.map((p) => p.id),
    (id) => categories.get(id) ?? [],
  );
  try {
    const neighbours: Neighbour[][] = [];
    for (const id of queries) {
      neighbours.push(
        await subjectNeighbours(ctx, { paperId: id, version: 1 }, SUGGESTION_SETTINGS.neighbours),
      );
    }
    const counts = new Map<string, number>();
    for (const p of labelled) {
      const c = primary.get(p.id) ?? "";
      counts.set(c, (counts.get(c) ?? 0) + 1);
    }
    const common = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0] ?? "";
    if (TUNE) {
      for (const minShare of [0, 0.3, 0.4, 0.5, 0.6]) {
        for (const minSupport of [1, 2, 3]) {
          for (const crossListWeight of [0, 0.5]) {
            const settings: SuggestionSettings = {
              ...SUGGESTION_SETTINGS,
              minShare,
              minSupport,
              crossListWeight,
            };
            const { dev } = suggestionFigures(
              queries,
              (i) => voteSubject(neighbours[i]!, settings),
              primary,
            );
            console.log(
              `suggestion ${JSON.stringify({ minShare, minSupport, crossListWeight })}\tdev coverage ${dev.coverage.toFixed(3)}\tprecision ${dev.precision.toFixed(3)}`,
            );
          }
        }
      }
      return {};
    }
    const rows = {
      "ours: suggestSubject (neighbours' vote)": suggestionFigures(
        queries,
        (i) => voteSubject(neighbours[i]!),
        primary,
      ),
      "closest paper's first category": suggestionFigures(
        queries,
        (i) => neighbours[i]!.find((n) => n.subjects.length > 0)?.subjects[0] ?? null,
        primary,
      ),
      [`most common category (${common})`]: suggestionFigures(queries, () => common, primary),
    };
    process.stdout.write(
      [
        `Subject suggestion: ${labelled.length} papers with their categories as subjects, ${queries.length} query papers without`,
        "",
        "| suggestion | coverage dev | precision dev | coverage test (held out) | precision test (held out) |",
        "|---|---|---|---|---|",
        ...Object.entries(rows).map(
          ([name, h]) =>
            `| ${name} | ${h.dev.coverage.toFixed(3)} | ${h.dev.precision.toFixed(3)} | ${figure(`${name} coverage`, h.test.coverage).toFixed(3)} | ${figure(`${name} precision`, h.test.precision).toFixed(3)} |`,
        ),
        "",
      ].join("\n"),
    );
    const round = (x: number) => Math.round(x * 10_000) / 10_000;
    return Object.fromEntries(
      Object.entries(rows).map(([name, h]) => [
        name,
        {
          dev: { coverage: round(h.dev.coverage), precision: round(h.dev.precision) },
          test: { coverage: round(h.test.coverage), precision: round(h.test.precision) },
        },
      ]),
    );
  } finally {
    await setSubjects(
      labelled.map((p) => p.id),
      () => [],
    );
  }
}

/** Each setting on its own over the defaults (or EVAL_GRID's list), on the DEV half only. */
async function tune(
  ctx: ServiceContext,
  queries: readonly string[],
  primary: ReadonlyMap<string, string>,
): Promise<void> {
  const dev = queries.filter((_, i) => i % 2 === 0);
  const grid: Partial<RelatedSettings>[] = JSON.parse(
    process.env.EVAL_GRID ??
      JSON.stringify([
        {},
        { sparseWeight: 0 },
        { sparseWeight: 1 },
        { sparseWeight: 4 },
        { terms: 30 },
        { terms: 100 },
        { titleWeight: 1 },
        { titleWeight: 3 },
        { candidates: 100 },
      ]),
  );
  for (const variant of grid) {
    const answers: string[][] = [];
    const started = performance.now();
    for (const id of dev) {
      const hits = await rankRelated(ctx, { paperId: id, version: 1 }, K, variant);
      answers.push(hits.map((h) => h.paperId));
    }
    const ms = (performance.now() - started) / dev.length;
    const p = precision(dev, (_, i) => answers[i]!, primary);
    console.log(
      `${JSON.stringify(variant)}\tdev p@5 ${p.all.toFixed(4)}\t${ms.toFixed(1)} ms/query`,
    );
  }
}

/**
 * Fits the score's logistic, P(same first category | fused z) = 1 / (1 + e^-(a·z + c)), by
 * Newton's method on the top 20 related papers of each DEV query.
 */
async function calibrate(
  ctx: ServiceContext,
  queries: readonly string[],
  primary: ReadonlyMap<string, string>,
): Promise<void> {
  const xs: number[] = [];
  const ys: number[] = [];
  for (const id of queries.filter((_, i) => i % 2 === 0)) {
    for (const hit of await rankRelated(ctx, { paperId: id, version: 1 }, 20)) {
      xs.push(hit.fused);
      ys.push(primary.get(hit.paperId) === primary.get(id) ? 1 : 0);
    }
  }
  let a = 1;
  let c = 0;
  for (let step = 0; step < 50; step++) {
    let ga = 0;
    let gc = 0;
    let haa = 0;
    let hac = 0;
    let hcc = 0;
    xs.forEach((x, i) => {
      const p = 1 / (1 + Math.exp(-(a * x + c)));
      const w = p * (1 - p);
      ga += (ys[i]! - p) * x;
      gc += ys[i]! - p;
      haa += w * x * x;
      hac += w * x;
      hcc += w;
    });
    const det = haa * hcc - hac * hac;
    a += (hcc * ga - hac * gc) / det;
    c += (haa * gc - hac * ga) / det;
  }
  console.log(
    `score curve on ${xs.length} (query, related) pairs of the DEV half: { a: ${a.toFixed(4)}, c: ${c.toFixed(4)} }; share sharing the category ${(ys.reduce((s, y) => s + y, 0) / ys.length).toFixed(3)}`,
  );
}

await main();
