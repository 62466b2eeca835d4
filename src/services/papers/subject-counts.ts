/**
 * @module subjectCounts: how many visible papers each subject and each group holds, for the
 * site's facet lists and the subject index, in one aggregate query.
 */
import { and, type SQL, sql } from "drizzle-orm";
import { papers, paperVersions } from "../../db/schema/index.ts";
import { pgArray, rowsOf } from "../../db/sql.ts";
import { publicReadDb, type ServiceContext } from "../context.ts";
import { Invalid } from "../errors.ts";
import { NO_FILTERS, type PaperFiltersInput, parsePaperFilters } from "../filters/index.ts";
import { PAPER_ID_PATTERN } from "../ids.ts";
import { SUBJECTS, subjectGroupsOf } from "../subjects/index.ts";
import { isCurrentVersion } from "./current-version.ts";
import { filterConditions } from "./list.ts";

/** The most papers `paperIds` may name: a page of search results is far fewer. */
const SUBJECT_COUNT_IDS_MAX = 500;

export interface SubjectCountsInput {
  /** The list's filters (filters.ts), read the same way: a subject, dates, model, agent. */
  filters?: PaperFiltersInput;
  /** Only these papers (a page of search results); ids of invisible papers count nothing. */
  paperIds?: readonly string[];
}

export interface SubjectCount {
  code: string;
  count: number;
}

export interface SubjectCounts {
  /** Categories with at least one paper, most papers first (ties by code). */
  subjects: SubjectCount[];
  /**
   * Groups with at least one paper, most first: distinct papers, so a paper in cs.CL and
   * cs.LG counts once in cs; a group counts what its filter matches (aliases included).
   */
  groups: SubjectCount[];
}

/** (canonical code, group) for every group a category is listed under, as query parameters. */
const MEMBERSHIP = SUBJECTS.flatMap((s) => subjectGroupsOf(s.code).map((g) => [s.code, g]));
const MEMBER_CODES = MEMBERSHIP.map(([code]) => code as string);
const MEMBER_GROUPS = MEMBERSHIP.map(([, group]) => group as string);

const byCount = (a: SubjectCount, b: SubjectCount) =>
  b.count - a.count || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0);

/**
 * Counts per category and per group over visible papers matching the filters (and, when
 * given, among `paperIds`). One statement: the matching papers once, their subjects unnested,
 * grouped by code and by group. It reads every matching paper's subject array, no version
 * text: the current version is joined only for a `model` filter.
 */
export async function subjectCounts(
  ctx: ServiceContext,
  input: SubjectCountsInput = {},
): Promise<SubjectCounts> {
  const filters = input.filters ? parsePaperFilters(input.filters) : NO_FILTERS;
  const ids = input.paperIds ? checkIds(input.paperIds) : null;
  if (ids?.length === 0) return { subjects: [], groups: [] };
  const where: SQL[] = filterConditions(filters);
  if (ids) where.push(sql`${papers.id} = any(${pgArray(ids, "text")})`);
  const join = filters.model ? sql`inner join ${paperVersions} on ${isCurrentVersion}` : sql``;
  const rows = await rowsOf<{ kind: "s" | "g"; code: string; n: number }>(
    publicReadDb(ctx),
    sql`with matching as (
      select ${papers.id} as id, ${papers.subjects} as subjects
      from ${papers} ${join}
      where ${and(...where)}
    ), listed as (
      select matching.id, s.code from matching, unnest(matching.subjects) as s(code)
    )
    select 's' as kind, code, count(*)::int as n from listed group by code
    union all
    select 'g' as kind, m.grp as code, count(distinct listed.id)::int as n
    from listed
    join unnest(${pgArray(MEMBER_CODES, "text")}, ${pgArray(MEMBER_GROUPS, "text")}) as m(code, grp)
      on m.code = listed.code
    group by m.grp`,
  );
  const out: SubjectCounts = { subjects: [], groups: [] };
  for (const row of rows) {
    (row.kind === "s" ? out.subjects : out.groups).push({ code: row.code, count: Number(row.n) });
  }
  out.subjects.sort(byCount);
  out.groups.sort(byCount);
  return out;
}

function checkIds(ids: readonly string[]): string[] {
  if (ids.length > SUBJECT_COUNT_IDS_MAX || ids.some((id) => !PAPER_ID_PATTERN.test(id))) {
    throw new Invalid("The paper ids are not valid; see errors.", [
      {
        in: "query",
        name: "paperIds",
        message: `must be at most ${SUBJECT_COUNT_IDS_MAX} paper ids (YYMM.NNNNN)`,
      },
    ]);
  }
  return [...new Set(ids)];
}
