/**
 * @module arXiv search evaluation: known-item queries in English and in Spanish (for English
 * papers: cross-lingual retrieval) and paraphrase queries worded far from their paper, asked
 * of the real search endpoint over the 6,925 arXiv abstracts of ../shared/data. The query
 * sets and how they were made: eval/sets/README.md.
 *
 *   npm run eval:arxiv                    # PGlite in a temporary directory
 *   EVAL_ENGINE=postgres npm run eval:arxiv
 *   npm run eval:arxiv -- --smoke         # 5 queries per set over their papers + 40 others (CI)
 *
 * Environment: as eval:scifact (eval/lib/database.ts): EVAL_ENGINE, EVAL_DATA_DIR,
 * EVAL_DATABASE_URL (a rerun on a kept database reuses its import), EVAL_ADMIN_URL.
 * CROSS_LINGUAL=off runs without Apertium even where it is installed.
 * EVAL_SEARCH: search settings over the defaults, as JSON (e.g. '{"translationSenses":false}').
 *
 * Every query goes through GET /api/v1/search/semantic over HTTP (an in-process server on
 * port 0) with limit=20 passages; passages are grouped by paper at the rank of their best
 * one, as the site shows them. Spanish queries run twice in the same process: with the
 * translator the runtime found (Apertium) and without one, so the lift is measured, not
 * assumed. Rate limits: the in-process store with every quota raised (printed); each query
 * still draws. The table goes to bench/results/arxiv.json and .md (bench/lib/results.ts).
 */
import { readFileSync } from "node:fs";
import { type ServerType, serve } from "@hono/node-server";
import { sql } from "drizzle-orm";
import { arxivPapers, type BulkPaper } from "../bench/lib/bulk-load.ts";
import { raisedLine, raisedMemoryLimits } from "../bench/lib/limits.ts";
import { writeResult } from "../bench/lib/results.ts";
import { figure, orSmoke, SMOKE, samples } from "../bench/lib/smoke.ts";
import { buildApp } from "../src/app.ts";
import { loadConfig } from "../src/config.ts";
import { rowsOf } from "../src/db/sql.ts";
import { createLogger } from "../src/logger.ts";
import { openRuntime, type Runtime } from "../src/runtime.ts";
import type { ServiceContext } from "../src/services/context.ts";
import type { SearchResponse } from "../src/services/search/schemas.ts";
import {
  evalSearchSettings,
  fetchRetrying,
  loadCorpusOnce,
  log,
  withEvalDatabase,
} from "./lib/database.ts";

const ARXIV = new URL("../../shared/data/arxiv-daily-cs/data/", import.meta.url);
const SETS = new URL("./sets/", import.meta.url);
/** The paraphrase set's rule: at most this many English stems shared with title + abstract. */
const MAX_SHARED_STEMS = 2;

interface Item {
  paper: string;
  query: string;
}

/** A TSV query set: header line, then one row per query; `columns` picks the query column. */
function readSet(file: string, column: string): Item[] {
  const [header, ...rows] = readFileSync(new URL(file, SETS), "utf8").trimEnd().split("\n");
  const names = header!.split("\t");
  const at = names.indexOf(column);
  if (at < 1) throw new Error(`${file}: no column ${column}`);
  return rows.map((row, i) => {
    const cells = row.split("\t");
    if (cells.length !== names.length || !cells[0] || !cells[at]) {
      throw new Error(`${file} line ${i + 2}: expected ${names.length} tab-separated cells`);
    }
    return { paper: cells[0], query: cells[at]! };
  });
}

/** Distinct papers of a response, each at the rank of its best passage. */
function papersOf(response: SearchResponse): string[] {
  return [...new Set(response.results.map((r) => r.paper_id))];
}

/** 1/rank of the paper among the first 10 papers, 0 when it is not there. */
function reciprocalRankAt10(ranked: string[], paper: string): number {
  const at = ranked.slice(0, 10).indexOf(paper);
  return at < 0 ? 0 : 1 / (at + 1);
}

/**
 * The English stems a query shares with its paper's title and abstract, by PostgreSQL's own
 * analysis (the rule eval/sets/README.md states).
 */
async function sharedStems(rt: Runtime, query: string, paper: BulkPaper): Promise<string[]> {
  const [row] = await rowsOf<{ shared: string[] }>(
    rt.database.db,
    sql`select array(select unnest(tsvector_to_array(to_tsvector('english', ${query})))
                     intersect
                     select unnest(tsvector_to_array(to_tsvector('english', ${`${paper.title} ${paper.abstract}`}))))
               as shared`,
  );
  return row?.shared ?? [];
}

interface Run {
  name: string;
  items: Item[];
  mode?: "lexical" | "hybrid";
  translator: boolean;
  metric: "MRR@10" | "R@10";
  target: number | null;
  /** Turns the query into what is sent (a reference run translates it first). */
  prepare?: (query: string) => Promise<string>;
  /** Every query is dev (the second Spanish set): no halves. */
  allDev?: boolean;
}

async function main(): Promise<void> {
  let knownEn = readSet("arxiv-known-item.tsv", "query_en");
  let knownEs = readSet("arxiv-known-item.tsv", "query_es");
  let paraphrase = readSet("arxiv-paraphrase.tsv", "query");
  // The second Spanish dev set (eval/sets/README.md): every query of it is dev.
  let knownEs2 = readSet("arxiv-known-item-es2.tsv", "query_es");
  if (SMOKE) {
    knownEn = knownEn.slice(0, 5);
    knownEs = knownEs.slice(0, 5);
    paraphrase = paraphrase.slice(0, 5);
    knownEs2 = knownEs2.slice(0, 5);
  }
  const wanted = new Set([...knownEn, ...paraphrase, ...knownEs2].map((i) => i.paper));
  const all = [...arxivPapers(ARXIV)];
  const byId = new Map(all.map((p) => [p.id, p]));
  for (const id of wanted) if (!byId.has(id)) throw new Error(`paper ${id} is not in the sample`);
  const corpus = orSmoke(
    all,
    all.filter((p, i) => wanted.has(p.id) || i < 40),
  );

  await withEvalDatabase("arxiv", async (env) => {
    const config = loadConfig({ ...env, LOG_LEVEL: "silent", SEED_SAMPLES: "false", PORT: "0" });
    const rt = await openRuntime(config, createLogger("silent"), { rateLimits: false });
    rt.services.rateLimits = raisedMemoryLimits();
    rt.services.search = evalSearchSettings(rt.services.search);
    const translator = rt.services.translator;
    try {
      log(raisedLine());
      log(
        `arXiv sample on ${rt.database.kind} (${rt.database.location}); ${corpus.length} abstracts; ` +
          `translator: ${translator ? "Apertium en-es" : "none (cross-lingual search is off)"}`,
      );

      for (const item of paraphrase) {
        const shared = await sharedStems(rt, item.query, byId.get(item.paper)!);
        if (shared.length > MAX_SHARED_STEMS) {
          throw new Error(
            `paraphrase query for ${item.paper} shares ${shared.length} stems (${shared.join(", ")}) with its paper; the set allows ${MAX_SHARED_STEMS}`,
          );
        }
      }

      await loadCorpusOnce(rt, corpus);

      const runs: Run[] = [
        {
          name: "English known-item",
          items: knownEn,
          translator: true,
          metric: "MRR@10",
          target: 0.97,
        },
        {
          name: "Spanish queries, English papers",
          items: knownEs,
          translator: true,
          metric: "MRR@10",
          target: translator ? 0.9 : null,
        },
        {
          name: "Spanish queries, English papers, second dev set",
          items: knownEs2,
          translator: true,
          metric: "MRR@10",
          target: null,
          allDev: true,
        },
        ...(translator
          ? [
              {
                name: "reference: Spanish queries sent as Apertium's English",
                items: knownEs,
                translator: false,
                metric: "MRR@10" as const,
                target: null,
                prepare: async (q: string) => (await translator.translate(q, "es", "en")) ?? q,
              },
            ]
          : []),
        {
          name: "Spanish queries, English papers, no translator",
          items: knownEs,
          translator: false,
          metric: "MRR@10",
          target: null,
        },
        {
          name: "paraphrase (hybrid, the default)",
          items: paraphrase,
          translator: true,
          metric: "R@10",
          target: 0.3,
        },
        {
          name: "paraphrase (lexical)",
          items: paraphrase,
          mode: "lexical",
          translator: true,
          metric: "R@10",
          target: null,
        },
      ];
      const { table: rows, figures } = await evaluate(rt, config.BASE_URL, runs);
      process.stdout.write(
        [
          "",
          `arXiv sample: ${corpus.length} abstracts, engine ${rt.database.kind}, translator ${translator ? "Apertium en-es" : "none"}`,
          "",
          "| query set | queries | metric | value | dev / test halves | target | p50 / p95 per query |",
          "|---|---|---|---|---|---|---|",
          ...rows,
          "",
          "Halves: dev = the set's odd lines (1st, 3rd, … query), test = its even lines (eval/sets/README.md).",
          "Latency is wall time per query in this process: indicative only.",
          "",
        ].join("\n"),
      );
      writeResult("arxiv", {
        settings: {
          engine: rt.database.kind,
          abstracts: corpus.length,
          translator: translator ? "Apertium en-es" : "none",
          halves: "dev = the set's odd lines, test = its even lines (eval/sets/README.md)",
        },
        sets: figures,
      });
    } finally {
      await rt.close();
    }
  });
}

/** An in-process server over `services` on an ephemeral port; closed after `use`. */
async function withServer<T>(
  rt: Runtime,
  services: ServiceContext,
  baseUrl: string,
  use: (base: string) => Promise<T>,
): Promise<T> {
  const app = buildApp({ services, logger: rt.logger, baseUrl, trustProxy: [] });
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, () => resolve(s));
  });
  const address = server.address();
  try {
    return await use(
      `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`,
    );
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

async function evaluate(
  rt: Runtime,
  baseUrl: string,
  runs: Run[],
): Promise<{ table: string[]; figures: Record<string, string | number | boolean | null>[] }> {
  const table: string[] = [];
  const figures: Record<string, string | number | boolean | null>[] = [];
  for (const run of runs) {
    // The app copies its services when it is built: one app per translator setting.
    const services = {
      ...rt.services,
      translator: run.translator ? rt.services.translator : undefined,
    };
    await withServer(rt, services, baseUrl, async (base) => {
      let total = 0;
      const halves = [0, 0];
      const ms: number[] = [];
      const misses: string[] = [];
      for (const item of run.items) {
        const query = run.prepare ? await run.prepare(item.query) : item.query;
        const mode = run.mode ? `&mode=${run.mode}` : "";
        const url = `${base}/api/v1/search/semantic?q=${encodeURIComponent(query)}&limit=20${mode}`;
        const started = performance.now();
        const res = await fetchRetrying(url);
        if (res.status !== 200) throw new Error(`${url}: ${res.status} ${await res.text()}`);
        const ranked = papersOf((await res.json()) as SearchResponse);
        ms.push(performance.now() - started);
        const rr = reciprocalRankAt10(ranked, item.paper);
        const value = run.metric === "MRR@10" ? rr : rr > 0 ? 1 : 0;
        total += value;
        halves[run.items.indexOf(item) % 2]! += value;
        if (rr === 0) misses.push(`${item.paper} "${query}"`);
      }
      const n = samples(`${run.name} queries`, run.items.length);
      const value = figure(`${run.name} ${run.metric}`, total / n);
      const sorted = [...ms].sort((a, b) => a - b);
      const at = (p: number) => sorted[Math.min(n - 1, Math.floor((p / 100) * n))] ?? 0;
      const target =
        run.target === null
          ? ""
          : `≥ ${run.target.toFixed(2)} ${value >= run.target ? "met" : "NOT met"}`;
      const halfFigures = run.allDev
        ? "all dev"
        : `${(halves[0]! / Math.ceil(n / 2)).toFixed(3)} / ${(halves[1]! / Math.floor(n / 2) || 0).toFixed(3)}`;
      table.push(
        `| ${run.name} | ${n} | ${run.metric} | ${value.toFixed(3)} | ${halfFigures} | ${target} | ${at(50).toFixed(0)} / ${at(95).toFixed(0)} ms |`,
      );
      figures.push({
        set: run.name,
        queries: n,
        metric: run.metric,
        value,
        dev: run.allDev ? value : halves[0]! / Math.ceil(n / 2),
        test: run.allDev ? null : halves[1]! / Math.floor(n / 2) || 0,
        target: run.target,
        met: run.target === null ? null : value >= run.target,
        notInTop10: misses.length,
        p50Ms: at(50),
        p95Ms: at(95),
      });
      log(`${run.name}: ${run.metric} ${value.toFixed(4)}; not in the top 10: ${misses.length}`);
      for (const miss of misses) log(`  miss: ${miss}`);
    });
  }
  return { table, figures };
}

await main();
