/**
 * @module Bulk loading of arXiv listing records, for the benchmarks, evaluations and the
 * dataset tests: not a product path (operators use `quire import`), so it lives here.
 */
import { readdirSync, readFileSync } from "node:fs";
import { sql } from "drizzle-orm";
import { chunks, paperIdCounters, papers, paperVersions } from "../../src/db/schema/index.ts";
import { withTransaction } from "../../src/db/sql.ts";
import { chunkPaper, chunkRow } from "../../src/services/chunks/index.ts";
import type { ServiceContext } from "../../src/services/context.ts";
import { fingerprint, screenRules } from "../../src/services/screening/index.ts";

/** An arXiv listing line (shared/data/arxiv-daily-cs): only the fields we load. */
interface ArxivLine {
  id: string;
  title: string;
  summary: string;
  categories: string[];
}

export interface BulkPaper {
  id: string;
  title: string;
  abstract: string;
  keywords: string[];
  /** Subject codes (canonical, the primary first); none when absent. */
  subjects?: string[];
  publishedAt: Date;
}

/**
 * The arXiv records of `dir` (files `YYYY-MM-DD.jsonl`), de-duplicated by id, in file then
 * line order, read lazily. arXiv ids already have our `YYMM.NNNNN` form and are kept.
 * published_at is the announcement day plus one minute per line, so every run agrees.
 */
export function* arxivPapers(dir: URL): Generator<BulkPaper> {
  const files = readdirSync(dir)
    .filter((f) => /^\d{4}-\d{2}-\d{2}\.jsonl$/.test(f))
    .sort();
  const seen = new Set<string>();
  for (const file of files) {
    const day = Date.parse(`${file.slice(0, 10)}T00:00:00Z`);
    const lines = readFileSync(new URL(file, dir), "utf8").split("\n");
    for (const [index, line] of lines.entries()) {
      if (line.trim() === "") continue;
      const record = JSON.parse(line) as ArxivLine;
      if (seen.has(record.id)) continue;
      seen.add(record.id);
      yield {
        id: record.id,
        title: record.title.replace(/\s+/g, " ").trim(),
        abstract: record.summary.trim(),
        keywords: [...new Set(record.categories)],
        publishedAt: new Date(day + index * 60_000),
      };
    }
  }
}

export interface BulkLoadResult {
  loaded: number;
  skipped: number;
  ids: string[];
}

/**
 * Inserts up to `count` papers straight into papers, paper_versions and chunks, in
 * multi-row batches: importPapers takes ~80 ms a paper on PGlite (duplicate lookups under
 * an advisory lock, one transaction each), far too slow for thousands in a test. Each paper
 * still gets what publishing would give it (the rule screener's outcome and language, the
 * fingerprint, the same chunks); those the screener rejects are skipped. No duplicate
 * checks run, so only load sources without duplicates.
 */
export async function bulkLoadPapers(
  ctx: ServiceContext,
  source: Iterable<BulkPaper>,
  options: { count: number; aiModel?: string; license?: string; batch?: number },
): Promise<BulkLoadResult> {
  const batchSize = options.batch ?? 250;
  const result: BulkLoadResult = { loaded: 0, skipped: 0, ids: [] };
  const aiModel = options.aiModel ?? "test";
  const license = options.license ?? "CC-BY-4.0";
  const iterator = source[Symbol.iterator]();
  let exhausted = false;
  while (!exhausted && result.loaded < options.count) {
    const batch: BulkPaper[] = [];
    const want = Math.min(batchSize, options.count - result.loaded);
    while (batch.length < want) {
      const next = iterator.next();
      if (next.done) {
        exhausted = true;
        break;
      }
      batch.push(next.value);
    }
    if (batch.length > 0) await insertBatch(ctx, batch, aiModel, license, result);
  }
  // Keep the id counters ahead of the loaded ids, so later publications never collide.
  await ctx.db.execute(sql`insert into ${paperIdCounters} (yymm, last)
    select substr(id, 1, 4), max(substr(id, 6)::int) from ${papers} group by 1
    on conflict (yymm) do update set last = greatest(${paperIdCounters.last}, excluded.last)`);
  // Fresh planner statistics, as autovacuum would give a corpus that grew gradually: with
  // the empty-table estimates the export's keyset queries get sort-based plans.
  await ctx.db.execute(sql`analyze ${papers}, ${paperVersions}, ${chunks}`);
  return result;
}

async function insertBatch(
  ctx: ServiceContext,
  batch: BulkPaper[],
  aiModel: string,
  license: string,
  result: BulkLoadResult,
): Promise<void> {
  const now = ctx.clock.now();
  const paperRows: (typeof papers.$inferInsert)[] = [];
  const versionRows: (typeof paperVersions.$inferInsert)[] = [];
  const chunkRows: (typeof chunks.$inferInsert)[] = [];
  for (const paper of batch) {
    const input = {
      title: paper.title,
      abstract: paper.abstract,
      body: "",
      ai_model: aiModel,
      license,
      keywords: paper.keywords,
    };
    const screening = screenRules(input, { exactDuplicateOf: null, nearDuplicates: [] });
    if (screening.status === "rejected") {
      result.skipped++;
      continue;
    }
    const print = fingerprint(input);
    paperRows.push({
      id: paper.id,
      ownerId: null,
      status: "published",
      currentVersion: 1,
      publishedAt: paper.publishedAt,
      updatedAt: paper.publishedAt,
      subjects: paper.subjects ?? [],
    });
    versionRows.push({
      paperId: paper.id,
      version: 1,
      title: input.title,
      abstract: input.abstract,
      body: input.body,
      aiModel,
      license,
      keywords: input.keywords,
      language: screening.language,
      changelog: null,
      createdAt: paper.publishedAt,
      screeningStatus: screening.status,
      screenedAt: now,
      screenedBy: screening.screened_by,
      contentHash: print.contentHash,
      simhash: print.simhash,
      simhashBands: print.bands.map((band, i) => i * 65_536 + band),
    });
    for (const c of chunkPaper(input, { maxChars: ctx.settings.chunkMaxChars })) {
      chunkRows.push(chunkRow(paper.id, 1, c));
    }
    result.ids.push(paper.id);
  }
  if (paperRows.length === 0) return;
  await withTransaction(ctx.db, async (db) => {
    await db.insert(papers).values(paperRows);
    await db.insert(paperVersions).values(versionRows);
    for (let i = 0; i < chunkRows.length; i += 1000) {
      await db.insert(chunks).values(chunkRows.slice(i, i + 1000));
    }
  });
  result.loaded += paperRows.length;
}
