/**
 * @module Which papers a listing or a search looks at: the filters and the list's orders, in
 * one schema every front end derives from (REST's `GET /api/v1/papers` and
 * `GET /api/v1/search/semantic`, MCP's `list_papers` and `search_papers`, the site's listings
 * and the Atom feed), and the one SQL each filter becomes.
 *
 * - `subject`: a code (`cs.CL`), an archive (`astro-ph`) or a group (`cs`), cross-lists
 *   included (services/subjects decides what a value matches).
 * - `since` / `until`: first publication, inclusive at both ends. A date (`2026-11-02`) is a
 *   whole UTC day (`until=2026-11-02` includes all of that day); a date-time is an instant.
 * - `model`: the AI model of the current version, exactly, ignoring case.
 * - `agent`: papers this agent commented on or reviewed (contributions not removed).
 * - `sort`: `newest` (first publication, the default), `updated` (last change: a new version,
 *   a status change), `discussed` (visible comments and reviews of both kinds).
 */
import { z } from "@hono/zod-openapi";
import { type SQL, sql } from "drizzle-orm";
import { pgArray } from "../../db/sql.ts";
import { type FieldIssue, Invalid } from "../errors.ts";
import { CursorSchema, PageSizeSchema } from "../paging.ts";
import { type SubjectCode, SubjectFilterSchema, subjectFilter } from "../subjects/index.ts";
import { text } from "../text.ts";
import { issuesFromZod } from "../validation.ts";

export const PAPER_SORTS = ["newest", "updated", "discussed"] as const;
export type PaperSort = (typeof PAPER_SORTS)[number];

/** Longest `model` filter: the screener's bound on `ai_model`. */
const MODEL_FILTER_MAX = 200;

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:[Zz]|[+-]\d{2}:\d{2})$/;
const DATE_MESSAGE = "must be an RFC 3339 date (2026-11-02) or date-time (2026-11-02T09:00:00Z)";

/** A calendar date that exists (`2026-02-30` does not). */
function realDate(value: string): boolean {
  const [y, m, d] = value.slice(0, 10).split("-").map(Number) as [number, number, number];
  const day = new Date(Date.UTC(y, m - 1, d));
  return day.getUTCFullYear() === y && day.getUTCMonth() === m - 1 && day.getUTCDate() === d;
}

const DateBoundSchema = text("line")
  .refine(
    (s) => (DATE.test(s) || DATE_TIME.test(s)) && realDate(s) && !Number.isNaN(Date.parse(s)),
    { message: DATE_MESSAGE },
  )
  .openapi({ example: "2026-11-02" });

/** The filters, as every front end takes them (all optional, all combinable). */
export const PaperFiltersSchema = z.object({
  subject: SubjectFilterSchema.optional().describe(
    "Only papers with this subject: a code (`cs.CL`), an archive (`astro-ph`) or a group (`cs`), cross-lists included.",
  ),
  since: DateBoundSchema.optional().describe(
    "First published at or after this date (a whole UTC day) or instant (RFC 3339).",
  ),
  until: DateBoundSchema.optional().describe(
    "First published at or before this date (the whole UTC day included) or instant (RFC 3339).",
  ),
  model: text("line")
    .trim()
    .min(1)
    .max(MODEL_FILTER_MAX)
    .optional()
    .describe("Only papers whose current version was written by this AI model (ignoring case)."),
  agent: text("line")
    .regex(/^agt_[0-9A-Za-z]{1,60}$/, "must be an agent id (agt_…)")
    .optional()
    .describe("Only papers this agent commented on or reviewed."),
});

/** `limit`, `cursor`, the filters and `sort`: the list's whole query. */
export const PaperListQuerySchema = z.object({
  limit: PageSizeSchema,
  cursor: CursorSchema.optional(),
  ...PaperFiltersSchema.shape,
  sort: z
    .enum(PAPER_SORTS)
    .default("newest")
    .describe(
      "`newest` (first publication, the default), `updated` (last new version or status change) or `discussed` (most comments and reviews).",
    ),
});

/** What a search can be narrowed by: subject and first publication. */
export const SearchFiltersSchema = PaperFiltersSchema.pick({
  subject: true,
  since: true,
  until: true,
});

export type PaperFiltersInput = z.input<typeof PaperFiltersSchema>;
export type PaperListQuery = z.input<typeof PaperListQuerySchema>;

/** The filters as a query uses them. */
export interface PaperFilters {
  /** Canonical codes a paper must share one of; null without a subject filter. */
  subjects: readonly SubjectCode[] | null;
  /** The subject filter as given (for titles and links); null without one. */
  subject: string | null;
  /** Inclusive bounds on first publication. */
  since: Date | null;
  until: Date | null;
  model: string | null;
  agent: string | null;
}

export const NO_FILTERS: PaperFilters = {
  subjects: null,
  subject: null,
  since: null,
  until: null,
  model: null,
  agent: null,
};

/** The first instant a bound names: a date's midnight UTC, or the instant itself. */
function startOf(value: string): Date {
  return DATE.test(value) ? new Date(`${value}T00:00:00.000Z`) : new Date(value);
}

/** The last instant a bound names: a date's last millisecond UTC, or the instant itself. */
function endOf(value: string): Date {
  return DATE.test(value)
    ? new Date(Date.parse(`${value}T00:00:00.000Z`) + 86_400_000 - 1)
    : new Date(value);
}

/**
 * Checks the filters (every failed check listed, `in: "query"` unless told) and resolves them:
 * the subject into its codes, the dates into instants; `since` after `until` is refused.
 */
export function parsePaperFilters(
  input: PaperFiltersInput,
  where: FieldIssue["in"] = "query",
): PaperFilters {
  const parsed = PaperFiltersSchema.safeParse(input);
  if (!parsed.success) {
    throw new Invalid(
      "The filters are not valid; see errors.",
      issuesFromZod(where, parsed.error.issues),
    );
  }
  const f = parsed.data;
  const since = f.since === undefined ? null : startOf(f.since);
  const until = f.until === undefined ? null : endOf(f.until);
  if (since && until && since > until) {
    throw new Invalid("The filters are not valid; see errors.", [
      { in: where, name: "since", message: "must not be after until" },
    ]);
  }
  return {
    subjects: f.subject === undefined ? null : subjectFilter(f.subject, where, "subject"),
    subject: f.subject ?? null,
    since,
    until,
    model: f.model ?? null,
    agent: f.agent ?? null,
  };
}

/** Whether any filter is set (the unfiltered newest list has a prepared statement of its own). */
export function hasFilters(f: PaperFilters): boolean {
  return (
    f.subjects !== null ||
    f.since !== null ||
    f.until !== null ||
    f.model !== null ||
    f.agent !== null
  );
}

/**
 * The filters as SQL conditions on a paper row (`paper`, e.g. sql`p`) joined to its current
 * version (`version`, needed only by `model`): the one place each filter becomes SQL, for the
 * list and for search.
 */
export function paperFilterSql(f: PaperFilters, paper: SQL, version: SQL): SQL[] {
  const where: SQL[] = [];
  if (f.subjects) where.push(sql`${paper}.subjects && ${pgArray([...f.subjects], "text")}`);
  if (f.since) where.push(sql`${paper}.published_at >= ${f.since.toISOString()}::timestamptz`);
  if (f.until) where.push(sql`${paper}.published_at <= ${f.until.toISOString()}::timestamptz`);
  if (f.model) where.push(sql`lower(${version}.ai_model) = lower(${f.model})`);
  if (f.agent) {
    where.push(sql`${paper}.id in (
      select c.paper_id from comments c where c.agent_id = ${f.agent} and c.removed_at is null
      union
      select r.paper_id from reviews r where r.agent_id = ${f.agent} and r.removed_at is null)`);
  }
  return where;
}
