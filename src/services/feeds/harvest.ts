/** @module The queries behind the Atom feeds and OAI-PMH: papers with their current version. */
import { and, asc, count, desc, eq, gte, inArray, lt, min, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { owners, type PaperStatus, papers, paperVersions } from "../../db/schema/index.ts";
import { pgArray } from "../../db/sql.ts";
import { isCurrentVersion } from "../papers/index.ts";

/**
 * Statuses a harvester may learn about. Published papers are full records; withdrawn and
 * removed ones stay as deleted records (OAI-PMH `deletedRecord` = persistent), so copies
 * harvested earlier can be taken down downstream. Submitted and rejected papers were never
 * public and never appear.
 */
const HARVEST_STATUSES = [
  "published",
  "withdrawn",
  "removed",
] as const satisfies readonly PaperStatus[];

export interface HarvestRecord {
  id: string;
  status: PaperStatus;
  ownerHandle: string | null;
  version: number;
  publishedAt: Date;
  updatedAt: Date;
  /** `updated_at` at full (microsecond) precision, UTC, for keyset cursors. */
  position: string;
  title: string;
  abstract: string;
  aiModel: string;
  license: string;
  keywords: string[];
  language: string;
  /** Subject codes, the primary first; empty for a paper without subjects. */
  subjects: string[];
}

/** Where a keyset page starts: strictly after this (updated_at, id). */
export interface HarvestPosition {
  position: string;
  id: string;
}

export interface HarvestWindow {
  /** Inclusive lower bound on `updated_at`. */
  from?: Date | undefined;
  /** Exclusive upper bound on `updated_at` (the OAI `until`, widened to its granularity). */
  before?: Date | undefined;
  /** Only records with one of these subject codes (an OAI set); deleted records included. */
  subjects?: readonly string[] | undefined;
}

const columns = {
  id: papers.id,
  status: papers.status,
  ownerHandle: owners.handle,
  version: papers.currentVersion,
  publishedAt: papers.publishedAt,
  updatedAt: papers.updatedAt,
  position: sql<string>`to_char(${papers.updatedAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
  title: paperVersions.title,
  abstract: paperVersions.abstract,
  aiModel: paperVersions.aiModel,
  license: paperVersions.license,
  keywords: paperVersions.keywords,
  language: paperVersions.language,
  subjects: papers.subjects,
};

function selectRecords(db: Db) {
  return db
    .select(columns)
    .from(papers)
    .innerJoin(paperVersions, isCurrentVersion)
    .leftJoin(owners, eq(owners.id, papers.ownerId));
}

/**
 * Case-insensitive exact keyword match. The expression is the one `paper_versions_keywords_idx`
 * is built on (migration 0002), so the GIN index answers it.
 */
function hasKeyword(keyword: string) {
  return sql`quire_lower_keywords(${paperVersions.keywords}) @> array[lower(${keyword})]::text[]`;
}

/** Papers with any of these subject codes (the GIN index `papers_subjects_idx` answers it). */
function hasSubject(codes: readonly string[]) {
  return sql`${papers.subjects} && ${pgArray(codes, "text")}`;
}

/**
 * The newest visible papers by first publication, optionally only those with a keyword, with
 * one of some subject codes, or among some papers (a search's matches); the filters combine.
 */
export async function newestPapers(
  db: Db,
  options: {
    limit: number;
    keyword?: string | undefined;
    subjects?: readonly string[] | undefined;
    ids?: readonly string[] | undefined;
  },
): Promise<HarvestRecord[]> {
  return selectRecords(db)
    .where(
      and(
        eq(papers.status, "published"),
        options.keyword === undefined ? undefined : hasKeyword(options.keyword),
        options.subjects === undefined ? undefined : hasSubject(options.subjects),
        options.ids === undefined ? undefined : inArray(papers.id, [...options.ids]),
      ),
    )
    .orderBy(desc(papers.publishedAt), desc(papers.id))
    .limit(options.limit);
}

function windowCondition(window: HarvestWindow) {
  return and(
    inArray(papers.status, [...HARVEST_STATUSES]),
    window.from ? gte(papers.updatedAt, window.from) : undefined,
    window.before ? lt(papers.updatedAt, window.before) : undefined,
    window.subjects ? hasSubject(window.subjects) : undefined,
  );
}

/**
 * One page of harvestable records in `(updated_at, id)` order. The cursor compares at the
 * database's own precision, so rows that differ only in microseconds are neither skipped
 * nor repeated; a record changed mid-harvest moves behind the cursor and is seen again,
 * which is what OAI-PMH harvesters expect.
 */
export async function harvestPage(
  db: Db,
  options: HarvestWindow & { after?: HarvestPosition | undefined; limit: number },
): Promise<HarvestRecord[]> {
  const after = options.after;
  return selectRecords(db)
    .where(
      and(
        windowCondition(options),
        after
          ? sql`(${papers.updatedAt}, ${papers.id}) > (${after.position}::timestamptz, ${after.id})`
          : undefined,
      ),
    )
    .orderBy(asc(papers.updatedAt), asc(papers.id))
    .limit(options.limit);
}

/** How many records a harvest over this window returns in all. */
export async function countHarvestable(db: Db, window: HarvestWindow): Promise<number> {
  const [row] = await db.select({ n: count() }).from(papers).where(windowCondition(window));
  return row?.n ?? 0;
}

/** One harvestable record by paper id (deleted ones included), or null. */
export async function findHarvestable(db: Db, id: string): Promise<HarvestRecord | null> {
  const [row] = await selectRecords(db)
    .where(and(eq(papers.id, id), inArray(papers.status, [...HARVEST_STATUSES])))
    .limit(1);
  return row ?? null;
}

/** The oldest datestamp a harvester can see, or null for an empty archive. */
export async function earliestChange(db: Db): Promise<Date | null> {
  const [row] = await db
    .select({ earliest: min(papers.updatedAt) })
    .from(papers)
    .where(inArray(papers.status, [...HARVEST_STATUSES]));
  return row?.earliest ?? null;
}
