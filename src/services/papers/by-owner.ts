/** @module listOwnerPublishedPapers: an owner's visible papers, newest first (the owner's page). */
import { and, eq, sql } from "drizzle-orm";
import { papers, paperVersions } from "../../db/schema/index.ts";
import { publicReadDb, type ServiceContext } from "../context.ts";
import { pageSizeOf } from "../paging.ts";
import { isCurrentVersion } from "./current-version.ts";
import { type BrowseItem, decodeCursor, encodeCursor } from "./list.ts";
import { summaryColumns, toListItem } from "./summary.ts";

export interface ListOwnerPublishedPapersInput {
  ownerId: string;
  limit?: number;
  /** A `next_cursor` of an earlier page of the same owner's list. */
  cursor?: string;
}

/**
 * Public: the papers an owner submitted that anyone can see (published), as the site's list
 * shows them, in its newest-first order and with its cursors. Whoever asks sees the same list: an
 * owner's unpublished papers are on their own /my/papers, never here.
 */
export async function listOwnerPublishedPapers(
  ctx: ServiceContext,
  input: ListOwnerPublishedPapersInput,
): Promise<{ papers: BrowseItem[]; next_cursor: string | null }> {
  const limit = pageSizeOf(input.limit);
  const decoded = input.cursor === undefined ? null : decodeCursor(input.cursor, "newest");
  const position = decoded?.sort === "newest" ? decoded : null;
  const rows = await publicReadDb(ctx)
    .select({
      ...summaryColumns,
      keywords: paperVersions.keywords,
      language: paperVersions.language,
    })
    .from(papers)
    .innerJoin(paperVersions, isCurrentVersion)
    .where(
      and(
        eq(papers.ownerId, input.ownerId),
        eq(papers.status, "published"),
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
    papers: page.map((row) => ({
      ...toListItem(row),
      keywords: row.keywords,
      language: row.language,
    })),
    next_cursor:
      rows.length > limit && last
        ? encodeCursor({ sort: "newest", publishedAtMs: last.publishedAt.getTime(), id: last.id })
        : null,
  };
}
