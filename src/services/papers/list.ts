/**
 * @module listPapers and browsePapers: visible papers, filtered (filters.ts) and ordered by
 * first publication, last update or discussion, keyset-paginated. One query shape serves the
 * API, MCP, the site and the feed; the unfiltered newest-first page, the hot read, keeps its
 * prepared statement (hot-reads.ts).
 */
import { and, eq, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import { papers, paperVersions } from "../../db/schema/index.ts";
import { publicReadDb, type ServiceContext } from "../context.ts";
import { Invalid } from "../errors.ts";
import {
  hasFilters,
  type PaperFilters,
  type PaperListQuery,
  PaperListQuerySchema,
  type PaperSort,
  paperFilterSql,
  parsePaperFilters,
} from "../filters/index.ts";
import { PAPER_ID_PATTERN } from "../ids.ts";
import { decodeKeyset, encodeKeyset, invalidCursor, MS_PART } from "../paging.ts";
import { issuesFromZod } from "../validation.ts";
import { isCurrentVersion } from "./current-version.ts";
import { selectListPage } from "./hot-reads.ts";
import { KeywordFilterSchema, type PaperList, type PaperListItem } from "./schemas.ts";
import { type SummaryRow, summaryColumns, toListItem } from "./summary.ts";

export type ListPapersInput = PaperListQuery;

/**
 * Visible papers matching the filters, as conditions on `papers` (and, for `model`, on the
 * current version joined as `paper_versions`): the list's and the subject counts' one reading
 * of the filters.
 */
export function filterConditions(f: PaperFilters): SQL[] {
  return [
    eq(papers.status, "published"),
    ...paperFilterSql(f, sql`${papers}`, sql`${paperVersions}`),
  ];
}

/** Where a page ended, in the order it was read. */
type Position =
  | { sort: "newest"; publishedAtMs: number; id: string }
  | { sort: "updated"; updatedAt: string; id: string }
  | { sort: "discussed"; discussion: number; id: string };

/** A timestamp at the database's precision (microseconds), as cursors carry it. */
const MICROS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const COUNT = /^\d{1,9}$/;

/**
 * A newest-first cursor is `ms|id`, as it always was (a cursor a client kept still pages);
 * the other orders' cursors start with their order, so a cursor never pages another order.
 */
export function encodeCursor(position: Position): string {
  switch (position.sort) {
    case "newest":
      return encodeKeyset([position.publishedAtMs, position.id]);
    case "updated":
      return encodeKeyset(["u", position.updatedAt, position.id]);
    case "discussed":
      return encodeKeyset(["d", position.discussion, position.id]);
  }
}

/** A cursor this server issued for `sort`; a 400 naming `cursor` for anything else. */
export function decodeCursor(cursor: string, sort: PaperSort = "newest"): Position {
  switch (sort) {
    case "newest": {
      const [ms, id] = decodeKeyset(cursor, [MS_PART, PAPER_ID_PATTERN]) as [string, string];
      return { sort, publishedAtMs: Number(ms), id };
    }
    case "updated": {
      const [, at, id] = decodeKeyset(cursor, [/^u$/, MICROS, PAPER_ID_PATTERN]) as string[];
      if (Number.isNaN(Date.parse(at!))) throw invalidCursor();
      return { sort, updatedAt: at!, id: id! };
    }
    case "discussed": {
      const [, n, id] = decodeKeyset(cursor, [/^d$/, COUNT, PAPER_ID_PATTERN]) as string[];
      return { sort, discussion: Number(n), id: id! };
    }
  }
}

/** The checked query: page size, order, where to start and the resolved filters. */
export interface ListRequest {
  limit: number;
  sort: PaperSort;
  position: Position | null;
  filters: PaperFilters;
}

/** Checks the whole query at once (every failed check listed) and resolves it. */
export function parseListQuery(input: ListPapersInput): ListRequest {
  const parsed = PaperListQuerySchema.safeParse(input);
  const issues = parsed.success ? [] : issuesFromZod("query", parsed.error.issues);
  let position: Position | null = null;
  // A sort that is itself invalid is reported; the cursor is then read as newest-first's.
  const sort = parsed.success ? parsed.data.sort : "newest";
  if (input.cursor !== undefined && !issues.some((i) => i.name === "cursor")) {
    try {
      position = decodeCursor(input.cursor, sort);
    } catch (error) {
      if (!(error instanceof Invalid)) throw error;
      issues.push(...error.issues);
    }
  }
  if (!parsed.success || issues.length > 0) {
    throw new Invalid("The listing request is invalid; see errors.", issues);
  }
  const { limit, cursor: _cursor, sort: _sort, ...filters } = parsed.data;
  return { limit, sort, position, filters: parsePaperFilters(filters) };
}

const KeywordOnly = z.object({ keyword: KeywordFilterSchema });

/** Visible comments and reviews of both kinds: the `discussed` order. */
const DISCUSSION = sql`(${papers.commentCount} + ${papers.aiReviewCount} + ${papers.humanReviewCount})`;
/** `updated_at` at full precision, for the `updated` order's cursors. */
const UPDATED_MICROS = sql<string>`to_char(${papers.updatedAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

type FoundRow = SummaryRow & {
  keywords: string[];
  language: string;
  updatedMicros: string;
  discussion: number;
};

async function findPapers(
  ctx: ServiceContext,
  request: ListRequest,
  keyword: string | null,
): Promise<FoundRow[]> {
  return papersQuery(ctx, request, keyword);
}

/**
 * One page (plus one row, to know whether another follows) of visible papers matching the
 * filters, in `sort` order after `position`, with `keyword` when given (the site and feed's
 * keyword listing). Each order walks its own index (migration 0013; `papers_list_idx` for
 * newest first): the orders below are written to match them exactly, NULLS placement included.
 */
export function papersQuery(ctx: ServiceContext, request: ListRequest, keyword: string | null) {
  const { filters: f, position, sort, limit } = request;
  const where: (SQL | undefined)[] = filterConditions(f);
  if (keyword !== null) {
    where.push(
      sql`quire_lower_keywords(${paperVersions.keywords}) @> array[lower(${keyword})]::text[]`,
    );
  }
  let order: SQL[];
  switch (sort) {
    case "newest":
      if (position?.sort === "newest") {
        where.push(
          sql`(${papers.publishedAt}, ${papers.id}) < (${new Date(position.publishedAtMs).toISOString()}::timestamptz, ${position.id})`,
        );
      }
      order = [sql`${papers.publishedAt} desc nulls last`, sql`${papers.id} desc nulls last`];
      break;
    case "updated":
      if (position?.sort === "updated") {
        where.push(
          sql`(${papers.updatedAt}, ${papers.id}) < (${position.updatedAt}::timestamptz, ${position.id})`,
        );
      }
      order = [sql`${papers.updatedAt} desc nulls last`, sql`${papers.id} desc nulls last`];
      break;
    case "discussed":
      if (position?.sort === "discussed") {
        where.push(sql`(${DISCUSSION}, ${papers.id}) < (${position.discussion}, ${position.id})`);
      }
      order = [sql`${DISCUSSION} desc`, sql`${papers.id} desc nulls last`];
      break;
  }
  return publicReadDb(ctx)
    .select({
      ...summaryColumns,
      keywords: paperVersions.keywords,
      language: paperVersions.language,
      updatedMicros: UPDATED_MICROS,
      discussion: sql<number>`${DISCUSSION}`.mapWith(Number),
    })
    .from(papers)
    .innerJoin(paperVersions, isCurrentVersion)
    .where(and(...where))
    .orderBy(...order)
    .limit(limit + 1);
}

/** Where the next page starts, after `last` in `sort` order. */
function positionAfter(sort: PaperSort, last: FoundRow): Position {
  switch (sort) {
    case "newest":
      return { sort, publishedAtMs: last.publishedAt.getTime(), id: last.id };
    case "updated":
      return { sort, updatedAt: last.updatedMicros, id: last.id };
    case "discussed":
      return { sort, discussion: last.discussion, id: last.id };
  }
}

/**
 * Lists published papers: newest first by default (ties by id descending), or by last update
 * or discussion, filtered by subject, dates, model and agent. Paging is keyset-based, so a page
 * is as cheap at the millionth paper as at the first and a paper published mid-scan never
 * shifts later pages of the newest-first order.
 */
export async function listPapers(ctx: ServiceContext, input: ListPapersInput): Promise<PaperList> {
  const request = parseListQuery(input);
  if (request.sort === "newest" && !hasFilters(request.filters)) {
    const position = request.position?.sort === "newest" ? request.position : null;
    const rows = await selectListPage(
      publicReadDb(ctx),
      request.limit + 1,
      position && {
        publishedAt: new Date(position.publishedAtMs).toISOString(),
        id: position.id,
      },
    );
    const page = rows.slice(0, request.limit);
    const last = page.at(-1);
    return {
      papers: page.map(toListItem),
      next_cursor:
        rows.length > request.limit && last
          ? encodeCursor({ sort: "newest", publishedAtMs: last.publishedAt.getTime(), id: last.id })
          : null,
    };
  }
  const rows = await findPapers(ctx, request, null);
  return pageOf(rows, request, (row) => toListItem(row));
}

function pageOf<T>(
  rows: FoundRow[],
  request: ListRequest,
  item: (row: FoundRow) => T,
): { papers: T[]; next_cursor: string | null } {
  const page = rows.slice(0, request.limit);
  const last = page.at(-1);
  return {
    papers: page.map(item),
    next_cursor:
      rows.length > request.limit && last ? encodeCursor(positionAfter(request.sort, last)) : null,
  };
}

export interface BrowseItem extends PaperListItem {
  keywords: string[];
  /** The current version's language (ISO 639-1, or `und`), for the title's `lang` on a page in another. */
  language: string;
}

export interface BrowsePage {
  papers: BrowseItem[];
  next_cursor: string | null;
  /** The keyword filtered on, trimmed; null without one. */
  keyword: string | null;
  /** The filters applied (the subject as given, for titles and links). */
  filters: PaperFilters;
  sort: PaperSort;
}

export type BrowsePapersInput = ListPapersInput & {
  /** Only papers whose current version has this keyword (case-insensitive, exact). */
  keyword?: string;
};

/**
 * The list the site's pages and the Atom feed show: the API list's items, filters and orders
 * plus each paper's keywords (which the API list item does not carry), optionally only the
 * papers with one keyword (`quire_lower_keywords`, which the GIN index answers).
 */
export async function browsePapers(
  ctx: ServiceContext,
  input: BrowsePapersInput,
): Promise<BrowsePage> {
  const { keyword: rawKeyword, ...query } = input;
  const issues = [];
  let keyword: string | null = null;
  if (rawKeyword !== undefined) {
    const parsed = KeywordOnly.safeParse({ keyword: rawKeyword });
    if (parsed.success) keyword = parsed.data.keyword;
    else issues.push(...issuesFromZod("query", parsed.error.issues));
  }
  let request: ListRequest | null = null;
  try {
    request = parseListQuery(query);
  } catch (error) {
    if (!(error instanceof Invalid)) throw error;
    issues.push(...error.issues);
  }
  if (issues.length > 0 || !request) {
    throw new Invalid("The listing request is invalid; see errors.", issues);
  }
  const rows = await findPapers(ctx, request, keyword);
  return {
    ...pageOf(rows, request, (row) => ({
      ...toListItem(row),
      keywords: row.keywords,
      language: row.language,
    })),
    keyword,
    filters: request.filters,
    sort: request.sort,
  };
}
