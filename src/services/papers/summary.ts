/** @module The one query shape behind every paper list item (list, detail, search). */
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { comments, papers, paperVersions, reviews } from "../../db/schema/index.ts";
import { AI_LABEL, type PaperListItem } from "./schemas.ts";

/** Columns of a list item; counts are correlated subqueries on indexed columns. */
export const summaryColumns = {
  id: papers.id,
  status: papers.status,
  ownerId: papers.ownerId,
  currentVersion: papers.currentVersion,
  publishedAt: papers.publishedAt,
  updatedAt: papers.updatedAt,
  title: paperVersions.title,
  aiModel: paperVersions.aiModel,
  screeningStatus: paperVersions.screeningStatus,
  screenedAt: paperVersions.screenedAt,
  screenedBy: paperVersions.screenedBy,
  comments: sql<number>`(select count(*) from ${comments}
    where ${comments.paperId} = ${papers.id} and ${comments.removedAt} is null)`.mapWith(Number),
  aiReviews: sql<number>`(select count(*) from ${reviews} where ${reviews.paperId} = ${papers.id}
    and ${reviews.kind} = 'ai_advisory' and ${reviews.removedAt} is null)`.mapWith(Number),
  humanReviews: sql<number>`(select count(*) from ${reviews} where ${reviews.paperId} = ${papers.id}
    and ${reviews.kind} = 'human' and ${reviews.removedAt} is null)`.mapWith(Number),
};

export type SummaryRow = Awaited<ReturnType<typeof selectSummaries>>[number];

/** papers joined to their current version. */
export function selectSummaries(db: Db) {
  return db
    .select(summaryColumns)
    .from(papers)
    .innerJoin(
      paperVersions,
      and(eq(paperVersions.paperId, papers.id), eq(paperVersions.version, papers.currentVersion)),
    );
}

export function toListItem(row: SummaryRow): PaperListItem {
  return {
    id: row.id,
    title: row.title,
    ai_model: row.aiModel,
    ai_label: AI_LABEL,
    verification: {
      status: row.screeningStatus,
      screened_at: row.screenedAt.toISOString(),
      screened_by: row.screenedBy,
    },
    counts: {
      versions: row.currentVersion,
      comments: row.comments,
      ai_reviews: row.aiReviews,
      human_reviews: row.humanReviews,
    },
    version: row.currentVersion,
    published_at: row.publishedAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
