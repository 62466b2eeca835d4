/** @module browsePapers: the site's list of newest papers, with keywords, optionally by keyword. */
import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { papers, paperVersions } from "../../db/schema/index.ts";
import type { ServiceContext } from "../context.ts";
import { Invalid } from "../errors.ts";
import { PAGE_SIZE, PageSizeSchema } from "../paging.ts";
import { issuesFromZod } from "../validation.ts";
import { isCurrentVersion } from "./current-version.ts";
import { decodeCursor, encodeCursor } from "./list.ts";
import { KeywordFilterSchema, type PaperListItem } from "./schemas.ts";
import { summaryColumns, toListItem } from "./summary.ts";

export interface BrowsePapersInput {
  limit?: number;
  /** A `next_cursor` of an earlier page of the same listing. */
  cursor?: string;
  /** Only papers whose current version has this keyword (case-insensitive, exact). */
  keyword?: string;
}

export interface BrowseItem extends PaperListItem {
  keywords: string[];
}

export interface BrowsePage {
  papers: BrowseItem[];
  next_cursor: string | null;
  /** The keyword filtered on, trimmed; null without one. */
  keyword: string | null;
}

/**
 * The list the site's home page shows: the API list's items and order (newest first,
 * keyset cursors of the same form, so a cursor is as cheap at any depth) plus each paper's
 * keywords, which the API list item does not carry. The keyword match is the one the Atom
 * feed uses (`quire_lower_keywords`, which the GIN index answers). A cursor is a position
 * in the order, so it pages a keyword listing as well as the full one.
 */
export async function browsePapers(
  ctx: ServiceContext,
  input: BrowsePapersInput,
): Promise<BrowsePage> {
  const issues = [];
  const size = PageSizeSchema.safeParse(input.limit);
  const limit = size.success ? size.data : PAGE_SIZE.default;
  for (const issue of size.error?.issues ?? []) {
    issues.push({ in: "query" as const, name: "limit", message: issue.message });
  }
  let keyword: string | null = null;
  if (input.keyword !== undefined) {
    const parsed = z.object({ keyword: KeywordFilterSchema }).safeParse(input);
    if (parsed.success) keyword = parsed.data.keyword;
    else issues.push(...issuesFromZod("query", parsed.error.issues));
  }
  let position: ReturnType<typeof decodeCursor> | null = null;
  try {
    position = input.cursor === undefined ? null : decodeCursor(input.cursor);
  } catch (error) {
    if (!(error instanceof Invalid)) throw error;
    issues.push(...error.issues);
  }
  if (issues.length > 0) throw new Invalid("The listing request is invalid; see errors.", issues);

  const rows = await ctx.db
    .select({ ...summaryColumns, keywords: paperVersions.keywords })
    .from(papers)
    .innerJoin(paperVersions, isCurrentVersion)
    .where(
      and(
        eq(papers.status, "published"),
        keyword === null
          ? undefined
          : sql`quire_lower_keywords(${paperVersions.keywords}) @> array[lower(${keyword})]::text[]`,
        position
          ? sql`(${papers.publishedAt}, ${papers.id}) < (${new Date(position.publishedAtMs).toISOString()}::timestamptz, ${position.id})`
          : undefined,
      ),
    )
    .orderBy(sql`${papers.publishedAt} desc nulls last`, sql`${papers.id} desc nulls last`)
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    papers: page.map((row) => ({ ...toListItem(row), keywords: row.keywords })),
    next_cursor:
      rows.length > limit && last
        ? encodeCursor({ publishedAtMs: last.publishedAt.getTime(), id: last.id })
        : null,
    keyword,
  };
}
