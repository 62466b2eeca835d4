/**
 * @module The hot reads' query layer alone: for the list page and the paper detail, Node CPU
 * per call and calls per second of (a) Drizzle's query builder rebuilt per call (what the
 * services did before), (b) Drizzle `.prepare()` with placeholders and (c) the hand-written
 * prepared statements of services/papers/hot-reads.ts, on the sample papers (docs/adr/0021).
 * Figures go to bench/results/reads.json and .md.
 *
 *   npm run bench:reads
 *   npm run bench:reads -- --smoke   # a second per row (CI)
 *
 * Environment (all optional): BENCH_SECONDS per row (default 5; smoke 0.3), BENCH_CONCURRENCY
 * calls in flight (default 8; smoke 2), BENCH_ENGINES (pglite,postgres), BENCH_ADMIN_URL.
 */
import { and, asc, desc, eq, sql } from "drizzle-orm";
import { openDatabase } from "../src/db/client.ts";
import { owners, papers, paperVersions } from "../src/db/schema/index.ts";
import { selectDetail, selectListPage } from "../src/services/papers/hot-reads.ts";
import { reviewSummaries } from "../src/services/papers/review-summary.ts";
import { seedSamplePapers } from "../src/services/papers/seed.ts";
import { selectSummaries } from "../src/services/papers/summary.ts";
import { testContext } from "../src/testing/db.ts";
import { withScratchDatabase } from "../src/testing/scratch.ts";
import { writeResult } from "./lib/results.ts";
import { figure, orSmoke, samples } from "./lib/smoke.ts";

type Engine = "pglite" | "postgres";
const SECONDS = Number(process.env.BENCH_SECONDS ?? orSmoke(5, 0.3));
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? orSmoke(8, 2));
const ADMIN_URL = process.env.BENCH_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const ENGINES = (process.env.BENCH_ENGINES ?? "pglite,postgres")
  .split(",")
  .map((s) => s.trim())
  .filter((s): s is Engine => s === "pglite" || s === "postgres");

interface Row {
  engine: Engine;
  read: string;
  variant: string;
  perSecond: number;
  cpuUs: number;
}

/** Runs `call` from CONCURRENCY loops for SECONDS; calls/s and Node CPU µs per call. */
async function measure(call: (i: number) => Promise<unknown>) {
  for (let i = 0; i < 20; i++) await call(i); // warm-up: plans prepared, code optimised
  const until = performance.now() + SECONDS * 1000;
  const cpu = process.cpuUsage();
  const started = performance.now();
  let calls = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < until) await call(calls++);
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  samples("calls", calls);
  return {
    perSecond: figure("calls/s", calls / seconds),
    cpuUs: figure("CPU µs/call", (used.user + used.system) / calls),
  };
}

async function runEngine(engine: Engine, url: string | undefined): Promise<Row[]> {
  const database = await openDatabase({ databaseUrl: url });
  try {
    const ctx = testContext(database);
    await seedSamplePapers(ctx);
    const db = database.db;
    const ids = (await db.select({ id: papers.id }).from(papers)).map((r) => r.id);
    samples("sample papers", ids.length);
    const pick = (i: number) => ids[i % ids.length] as string;

    const listBuilt = () =>
      selectSummaries(db)
        .where(eq(papers.status, "published"))
        .orderBy(sql`${papers.publishedAt} desc nulls last`, sql`${papers.id} desc nulls last`)
        .limit(51);
    const listPrepared = selectSummaries(db)
      .where(eq(papers.status, sql.placeholder("status")))
      .orderBy(desc(papers.publishedAt), desc(papers.id))
      .limit(sql.placeholder("limit"))
      .prepare("bench_reads_list");
    /** The detail as the services read it before: a summary, then three queries at once. */
    const detailBuilt = async (id: string) => {
      const [summary] = await selectSummaries(db).where(eq(papers.id, id)).limit(1);
      if (!summary) throw new Error(`no paper ${id}`);
      return Promise.all([
        db
          .select({ version: paperVersions.version, createdAt: paperVersions.createdAt })
          .from(paperVersions)
          .where(eq(paperVersions.paperId, id))
          .orderBy(asc(paperVersions.version)),
        db
          .select()
          .from(paperVersions)
          .where(
            and(eq(paperVersions.paperId, id), eq(paperVersions.version, summary.currentVersion)),
          ),
        summary.ownerId
          ? db.select({ handle: owners.handle }).from(owners).where(eq(owners.id, summary.ownerId))
          : Promise.resolve([]),
        reviewSummaries(db, id),
      ]);
    };

    const rows: Row[] = [];
    const add = async (read: string, variant: string, call: (i: number) => Promise<unknown>) => {
      const m = await measure(call);
      rows.push({ engine, read, variant, ...m });
    };
    await add("list", "drizzle, built per call", () => listBuilt());
    await add("list", "drizzle .prepare()", () =>
      listPrepared.execute({ status: "published", limit: 51 }),
    );
    await add("list", "hand-written, prepared", () => selectListPage(db, 51, null));
    await add("detail", "drizzle, built per call (4 statements)", (i) => detailBuilt(pick(i)));
    await add("detail", "hand-written, prepared (1 statement)", (i) =>
      selectDetail(db, pick(i), null),
    );
    return rows;
  } finally {
    await database.close();
  }
}

const all: Row[] = [];
for (const engine of ENGINES) {
  all.push(
    ...(engine === "postgres"
      ? await withScratchDatabase(ADMIN_URL, "quire_bench_reads", (url) => runEngine(engine, url))
      : await runEngine(engine, undefined)),
  );
}
console.log(`${SECONDS} s per row, ${CONCURRENCY} calls in flight, sample papers`);
console.log("| engine | read | variant | calls/s | Node CPU µs/call | CPU vs built |");
console.log("| --- | --- | --- | --- | --- | --- |");
const rows = all.map((row) => {
  const base = all.find((r) => r.engine === row.engine && r.read === row.read) as Row;
  return { ...row, cpuVsBuilt: figure("ratio", row.cpuUs / base.cpuUs) };
});
for (const row of rows) {
  console.log(
    `| ${row.engine} | ${row.read} | ${row.variant} | ${row.perSecond.toFixed(0)} | ${row.cpuUs.toFixed(0)} | ${row.cpuVsBuilt.toFixed(2)} |`,
  );
}
writeResult("reads", {
  settings: { seconds: SECONDS, concurrency: CONCURRENCY, engines: ENGINES },
  rows,
});
