/**
 * @module The hot reads (paper detail, list page, context) as one hand-written statement
 * each, prepared by name on PostgreSQL, the same text on PGlite (docs/adr/0021).
 */
import type { Db } from "../../db/client.ts";
import type { PaperStatus } from "../../db/schema/index.ts";
import { preparedRows, type Statement } from "../../db/sql.ts";
import type { SummaryRow } from "./summary.ts";

/** Columns of a list item, as `summaryColumns` (summary.ts) selects them; `p` and `h` below. */
const SUMMARY_COLUMNS = `p.id, p.status, p.owner_id, p.current_version,
  p.published_at::text as published_at, p.updated_at::text as updated_at,
  h.title, h.ai_model, h.screening_status, h.screened_at::text as screened_at, h.screened_by,
  p.comment_count, p.ai_review_count, p.human_review_count, p.subjects`;

const REVIEW_KINDS = ["human", "ai_advisory"] as const;
const SCORES = ["soundness", "presentation", "contribution", "confidence", "overall"] as const;
const reviewColumns = REVIEW_KINDS.flatMap((kind) => [
  `count(*) filter (where kind = '${kind}')::int as ${kind}_count`,
  ...SCORES.map((s) => `avg(${s}) filter (where kind = '${kind}') as ${kind}_${s}`),
]).join(",\n    ");

/**
 * A paper with its current version, the requested version ($2, null for the current one),
 * every version's number and date, the owner's handle and the visible reviews' counts and
 * means per kind: everything `getPaper` returns, in one round trip.
 */
const DETAIL: Statement = {
  name: "quire_paper_detail_v2",
  text: `select ${SUMMARY_COLUMNS},
  h.abstract as head_abstract, h.license, h.keywords, h.language,
  r.version as r_version, r.title as r_title, r.abstract as r_abstract, r.body as r_body,
  r.ai_model as r_ai_model, r.created_at::text as r_created_at, r.changelog as r_changelog,
  o.handle as owner_handle, v.numbers as version_numbers, v.dates as version_dates, s.*
from papers p
join paper_versions h on h.paper_id = p.id and h.version = p.current_version
left join paper_versions r on r.paper_id = p.id and r.version = coalesce($2::int, p.current_version)
left join owners o on o.id = p.owner_id
cross join lateral (
  select array_agg(version order by version) as numbers,
         array_agg(created_at::text order by version) as dates
  from paper_versions where paper_id = p.id) v
cross join lateral (
  select ${reviewColumns}
  from reviews where paper_id = p.id and removed_at is null) s
where p.id = $1`,
};

/** Newest first; `papers_list_idx` is walked, not sorted (NULLS LAST matches it). */
const LIST_ORDER = "order by p.published_at desc nulls last, p.id desc nulls last limit $1";
const LIST_FROM = `select ${SUMMARY_COLUMNS}
from papers p join paper_versions h on h.paper_id = p.id and h.version = p.current_version
where p.status = 'published'`;
const LIST_FIRST: Statement = { name: "quire_paper_list_v2", text: `${LIST_FROM}\n${LIST_ORDER}` };
const LIST_AFTER: Statement = {
  name: "quire_paper_list_after_v2",
  text: `${LIST_FROM} and (p.published_at, p.id) < ($2::timestamptz, $3)\n${LIST_ORDER}`,
};

/** The paper's visibility and current version, with the requested version's chunks in order. */
const CONTEXT: Statement = {
  name: "quire_paper_context_v1",
  text: `select p.status, p.owner_id, p.current_version,
  c.chunk_index, c.field, c.section, c.start, c."end", c.content
from papers p
left join chunks c on c.paper_id = p.id and c.version = coalesce($2::int, p.current_version)
where p.id = $1
order by c.chunk_index`,
};

interface SummaryColumns {
  id: string;
  status: PaperStatus;
  owner_id: string | null;
  current_version: number;
  published_at: string;
  updated_at: string;
  title: string;
  ai_model: string;
  screening_status: "passed" | "warnings";
  screened_at: string;
  screened_by: string;
  comment_count: number;
  ai_review_count: number;
  human_review_count: number;
  subjects: string[];
}

/** Means of one kind of review, null when there is none; as `reviewSummaries` reads them. */
interface ReviewAggregate {
  count: number;
  soundness: number;
  presentation: number;
  contribution: number;
  confidence: number;
  overall: number;
}

export interface DetailRow {
  summary: SummaryRow;
  head: { abstract: string; license: string; keywords: string[]; language: string };
  /** The requested version; null when the paper has no such version. */
  requested: {
    version: number;
    title: string;
    abstract: string;
    body: string;
    aiModel: string;
    createdAt: Date;
    changelog: string | null;
  } | null;
  ownerHandle: string | null;
  versions: { version: number; createdAt: Date }[];
  reviews: { human: ReviewAggregate; ai_advisory: ReviewAggregate };
}

/** Timestamps arrive as PostgreSQL's text; Drizzle's timestamp columns make Dates the same way. */
const date = (text: string) => new Date(text);

function toSummaryRow(r: SummaryColumns): SummaryRow {
  return {
    id: r.id,
    status: r.status,
    ownerId: r.owner_id,
    currentVersion: r.current_version,
    publishedAt: date(r.published_at),
    updatedAt: date(r.updated_at),
    title: r.title,
    aiModel: r.ai_model,
    screeningStatus: r.screening_status,
    screenedAt: date(r.screened_at),
    screenedBy: r.screened_by,
    comments: r.comment_count,
    aiReviews: r.ai_review_count,
    humanReviews: r.human_review_count,
    subjects: r.subjects,
  };
}

export async function selectDetail(
  db: Db,
  id: string,
  version: number | null,
): Promise<DetailRow | null> {
  const [row] = await preparedRows<SummaryColumns & Record<string, unknown>>(db, DETAIL, [
    id,
    version,
  ]);
  if (!row) return null;
  const aggregate = (kind: string): ReviewAggregate => ({
    count: Number(row[`${kind}_count`]),
    soundness: Number(row[`${kind}_soundness`]),
    presentation: Number(row[`${kind}_presentation`]),
    contribution: Number(row[`${kind}_contribution`]),
    confidence: Number(row[`${kind}_confidence`]),
    overall: Number(row[`${kind}_overall`]),
  });
  const numbers = row.version_numbers as number[];
  const dates = row.version_dates as string[];
  return {
    summary: toSummaryRow(row),
    head: {
      abstract: row.head_abstract as string,
      license: row.license as string,
      keywords: row.keywords as string[],
      language: row.language as string,
    },
    requested:
      row.r_version == null
        ? null
        : {
            version: row.r_version as number,
            title: row.r_title as string,
            abstract: row.r_abstract as string,
            body: row.r_body as string,
            aiModel: row.r_ai_model as string,
            createdAt: date(row.r_created_at as string),
            changelog: row.r_changelog as string | null,
          },
    ownerHandle: (row.owner_handle as string | null) ?? null,
    versions: numbers.map((version, i) => ({ version, createdAt: date(dates[i] as string) })),
    reviews: { human: aggregate("human"), ai_advisory: aggregate("ai_advisory") },
  };
}

/** One page plus one row (to know whether a next page exists), after `position` if given. */
export async function selectListPage(
  db: Db,
  limit: number,
  position: { publishedAt: string; id: string } | null,
): Promise<SummaryRow[]> {
  const rows = position
    ? await preparedRows<SummaryColumns>(db, LIST_AFTER, [limit, position.publishedAt, position.id])
    : await preparedRows<SummaryColumns>(db, LIST_FIRST, [limit]);
  return rows.map(toSummaryRow);
}

export interface SpanRows {
  paper: { status: PaperStatus; ownerId: string | null; current: number };
  chunks: {
    chunkIndex: number;
    field: "title" | "abstract" | "body" | "caption";
    section: string | null;
    start: number;
    end: number;
    content: string;
  }[];
}

export async function selectSpans(
  db: Db,
  id: string,
  version: number | null,
): Promise<SpanRows | null> {
  const rows = await preparedRows<{
    status: PaperStatus;
    owner_id: string | null;
    current_version: number;
    chunk_index: number | null;
    field: "title" | "abstract" | "body" | "caption";
    section: string | null;
    start: number;
    end: number;
    content: string;
  }>(db, CONTEXT, [id, version]);
  const first = rows[0];
  if (!first) return null;
  return {
    paper: { status: first.status, ownerId: first.owner_id, current: first.current_version },
    chunks: rows
      .filter((r) => r.chunk_index !== null)
      .map((r) => ({
        chunkIndex: r.chunk_index as number,
        field: r.field,
        section: r.section,
        start: r.start,
        end: r.end,
        content: r.content,
      })),
  };
}
