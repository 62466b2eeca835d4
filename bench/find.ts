/**
 * @module `npm run bench:find`: how fast papers are found by subject, date and order, on the
 * ~6,900 arXiv cs abstracts of ../shared/data loaded with their categories as subjects.
 *
 * Per engine (BENCH_ENGINES, default `postgres,pglite`), through the services the routes call:
 * - the list: the unfiltered newest-first first page (the hot read, a baseline), then
 *   `subject` + `since` in each order (`newest`, `updated`, `discussed`) and a group
 *   (`cs` + `since`), first pages and a page deep in the listing: p50 and p95 in ms.
 *   Target: filtered p95 ≤ 10 ms on PostgreSQL.
 * - search: 200 queries (titles' first words) unfiltered, with `subject` + `since` (narrow)
 *   and with the group `cs` (broad, nearly every paper), interleaved query by query (lexical
 *   and hybrid): p95 of each and their ratio. Target: filtered p95 within 1.2× of unfiltered.
 *
 * Writes `bench/results/find.json` (and `.md`). `--smoke`: 300 abstracts, a few iterations.
 *
 *   npm run bench:find
 *   BENCH_ENGINES=postgres BENCH_ITERATIONS=500 npm run bench:find
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { loadConfig } from "../src/config.ts";
import { createLogger } from "../src/logger.ts";
import { openRuntime } from "../src/runtime.ts";
import type { ServiceContext } from "../src/services/context.ts";
import { type ListPapersInput, listPapers } from "../src/services/papers/index.ts";
import { rebuildSearchIndex, searchChunks } from "../src/services/search/index.ts";
import { canonicalSubject } from "../src/services/subjects/index.ts";
import { withScratchDatabase } from "../src/testing/scratch.ts";
import { arxivPapers, type BulkPaper, bulkLoadPapers } from "./lib/bulk-load.ts";
import { positive } from "./lib/env.ts";
import { writeResult } from "./lib/results.ts";
import { figure, orSmoke, samples } from "./lib/smoke.ts";

type Engine = "pglite" | "postgres";

const ARXIV = new URL("../../shared/data/arxiv-daily-cs/data/", import.meta.url);
const PAPERS = positive("BENCH_PAPERS", orSmoke(100_000, 300));
const ITERATIONS = positive("BENCH_ITERATIONS", orSmoke(200, 5));
const QUERIES = positive("BENCH_QUERIES", orSmoke(200, 3));
const ADMIN_URL = process.env.BENCH_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const ENGINES = (process.env.BENCH_ENGINES ?? "postgres,pglite")
  .split(",")
  .map((s) => s.trim())
  .filter((s): s is Engine => s === "pglite" || s === "postgres");

/** The list's targets (p95, ms) and search's (filtered p95 over unfiltered p95). */
const TARGETS = { listP95Ms: 10, searchRatio: 1.2 };

function log(line: string): void {
  process.stderr.write(`${line}\n`);
}

/** arXiv's records with their categories as subjects (canonical codes, the first as primary). */
function* withSubjects(): Generator<BulkPaper> {
  for (const paper of arxivPapers(ARXIV)) {
    const codes = [
      ...new Set(paper.keywords.map((c) => canonicalSubject(c)).filter((c) => c !== undefined)),
    ].slice(0, 5);
    yield { ...paper, subjects: codes };
  }
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

interface Timing {
  name: string;
  n: number;
  p50Ms: number;
  p95Ms: number;
}

/** Times `run` over `iterations` calls (after a warm-up of a tenth of them). */
async function time(name: string, iterations: number, run: (i: number) => Promise<unknown>) {
  const [timing] = await timeTogether(iterations, { [name]: run });
  return timing!;
}

/**
 * Times several variants of the same calls interleaved: call i of every variant runs before
 * call i + 1 of any, in an order that rotates, so a variant is compared with its baseline on
 * the same machine state (a drift in load, a cache warming) rather than minutes apart.
 */
async function timeTogether(
  iterations: number,
  variants: Record<string, (i: number) => Promise<unknown>>,
): Promise<Timing[]> {
  const entries = Object.entries(variants);
  for (let i = 0; i < Math.max(1, Math.floor(iterations / 10)); i++) {
    for (const [, run] of entries) await run(i);
  }
  const ms = entries.map((): number[] => []);
  for (let i = 0; i < iterations; i++) {
    for (let k = 0; k < entries.length; k++) {
      const j = (i + k) % entries.length;
      const started = performance.now();
      await entries[j]![1](i);
      ms[j]!.push(performance.now() - started);
    }
  }
  return entries.map(([name], j) => {
    const sorted = ms[j]!.sort((a, b) => a - b);
    samples(name, sorted.length);
    const timing: Timing = {
      name,
      n: sorted.length,
      p50Ms: figure(`${name} p50`, percentile(sorted, 50)),
      p95Ms: figure(`${name} p95`, percentile(sorted, 95)),
    };
    log(`  ${name}: p50 ${timing.p50Ms.toFixed(2)} ms, p95 ${timing.p95Ms.toFixed(2)} ms`);
    return timing;
  });
}

async function withEngine<T>(engine: Engine, run: (ctx: ServiceContext) => Promise<T>) {
  const env: Record<string, string> = { LOG_LEVEL: "silent", SEED_SAMPLES: "false", PORT: "0" };
  const go = async () => {
    const rt = await openRuntime(loadConfig(env), createLogger("silent"));
    try {
      return await run(rt.services);
    } finally {
      await rt.close();
    }
  };
  if (engine === "pglite") {
    const dir = mkdtempSync(join(tmpdir(), "quire-bench-find-"));
    env.DATA_DIR = dir;
    try {
      return await go();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return withScratchDatabase(ADMIN_URL, "quire_bench_find", async (url) => {
    env.DATABASE_URL = url;
    return go();
  });
}

async function measure(engine: Engine) {
  return withEngine(engine, async (ctx) => {
    const loaded = await bulkLoadPapers(ctx, withSubjects(), { count: PAPERS });
    await rebuildSearchIndex(ctx, {});
    await ctx.db.execute(sql`analyze`);
    log(`${engine}: ${loaded.loaded} papers loaded with subjects`);
    // Spread the discussion counts and updates so the other orders have something to order.
    await ctx.db.execute(sql`update papers set comment_count = (hashtext(id) & 7),
      updated_at = published_at + ((hashtext(id) & 1023) * interval '1 minute')`);
    await ctx.db.execute(sql`analyze papers`);
    const [{ mid } = { mid: "2026-06-03" }] = (
      (await ctx.db.execute(
        sql`select (percentile_disc(0.5) within group (order by published_at))::date::text as mid from papers`,
      )) as unknown as { rows: { mid: string }[] }
    ).rows;
    const anonymous: ServiceContext = { ...ctx, caller: { kind: "anonymous" } };
    const list = (q: ListPapersInput) => listPapers(anonymous, q);
    // A cursor a few pages deep, for each listing measured.
    const deep = async (q: ListPapersInput) => {
      let cursor: string | undefined;
      for (let page = 0; page < 3; page++) {
        const next = (await list({ ...q, ...(cursor ? { cursor } : {}) })).next_cursor;
        if (!next) break;
        cursor = next;
      }
      return cursor;
    };
    const listings: { name: string; q: ListPapersInput }[] = [
      { name: "cs.CL since mid, newest", q: { subject: "cs.CL", since: mid, limit: 20 } },
      {
        name: "cs.CL since mid, updated",
        q: { subject: "cs.CL", since: mid, sort: "updated", limit: 20 },
      },
      {
        name: "cs.CL since mid, discussed",
        q: { subject: "cs.CL", since: mid, sort: "discussed", limit: 20 },
      },
      { name: "cs.LG since mid, newest", q: { subject: "cs.LG", since: mid, limit: 20 } },
      { name: "group cs since mid, newest", q: { subject: "cs", since: mid, limit: 20 } },
      { name: "stat.ML, discussed", q: { subject: "stat.ML", sort: "discussed", limit: 20 } },
    ];
    log(`${engine}: the list (${ITERATIONS} calls each)`);
    const baseline = await time("unfiltered newest, first page", ITERATIONS, () =>
      list({ limit: 20 }),
    );
    const filtered: Timing[] = [];
    for (const { name, q } of listings) {
      filtered.push(await time(name, ITERATIONS, () => list(q)));
      const cursor = await deep(q);
      if (cursor)
        filtered.push(await time(`${name}, page 4`, ITERATIONS, () => list({ ...q, cursor })));
    }

    const titles = (
      (await ctx.db.execute(
        sql`select title from paper_versions order by hashtext(paper_id) limit ${QUERIES}`,
      )) as unknown as { rows: { title: string }[] }
    ).rows.map((r) => r.title.split(/\s+/).slice(0, 6).join(" "));
    samples("queries", titles.length);
    log(`${engine}: search (${titles.length} queries, each mode, unfiltered and filtered)`);
    const search: Record<string, number | string>[] = [];
    for (const mode of ["lexical", "hybrid"] as const) {
      const q = (i: number) => titles[i % titles.length]!;
      const [plain, narrow, broad] = await timeTogether(titles.length, {
        [`search ${mode}`]: (i) => searchChunks(anonymous, { q: q(i), mode }),
        [`search ${mode}, cs.CL since mid`]: (i) =>
          searchChunks(anonymous, { q: q(i), mode, subject: "cs.CL", since: mid }),
        [`search ${mode}, group cs`]: (i) =>
          searchChunks(anonymous, { q: q(i), mode, subject: "cs" }),
      });
      search.push({
        mode,
        unfilteredP95Ms: plain!.p95Ms,
        narrowP95Ms: narrow!.p95Ms,
        broadP95Ms: broad!.p95Ms,
        narrowRatio: figure("narrow ratio", narrow!.p95Ms / plain!.p95Ms),
        broadRatio: figure("broad ratio", broad!.p95Ms / plain!.p95Ms),
      });
    }
    const worstList = Math.max(...filtered.map((t) => t.p95Ms));
    const worstRatio = Math.max(
      ...search.flatMap((s) => [Number(s.narrowRatio), Number(s.broadRatio)]),
    );
    return {
      engine,
      papers: loaded.loaded,
      since: mid,
      list: { baseline, filtered, worstP95Ms: worstList },
      search,
      verdicts: {
        listWithinTarget: worstList <= TARGETS.listP95Ms,
        searchWithinTarget: worstRatio <= TARGETS.searchRatio,
      },
    };
  });
}

const runs = [];
for (const engine of ENGINES) runs.push(await measure(engine));
writeResult("find", { targets: TARGETS, iterations: ITERATIONS, runs });
for (const r of runs) {
  log(
    `${r.engine}: worst filtered list p95 ${r.list.worstP95Ms.toFixed(2)} ms (target ≤ ${TARGETS.listP95Ms}); ` +
      `search filtered/unfiltered p95 ${r.search.map((s) => `${s.mode} ${Number(s.narrowRatio).toFixed(2)}/${Number(s.broadRatio).toFixed(2)}`).join(", ")} (target ≤ ${TARGETS.searchRatio})`,
  );
}
