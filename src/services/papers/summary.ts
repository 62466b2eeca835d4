/** @module The one query shape behind every paper list item (list, detail, search). */
import type { Db } from "../../db/client.ts";
import { papers, paperVersions } from "../../db/schema/index.ts";
import { isCurrentVersion } from "./current-version.ts";
import { AI_LABEL, type PaperListItem } from "./schemas.ts";

/**
 * Columns of a list item. The counts are counters on the paper row, kept exact by triggers
 * in the transaction of every comment and review write (migration 0005), so a page of 100
 * papers costs no per-row counting.
 */
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
  comments: papers.commentCount,
  aiReviews: papers.aiReviewCount,
  humanReviews: papers.humanReviewCount,
  subjects: papers.subjects,
};

export type SummaryRow = Awaited<ReturnType<typeof selectSummaries>>[number];

/** papers joined to their current version. */
export function selectSummaries(db: Db) {
  return db.select(summaryColumns).from(papers).innerJoin(paperVersions, isCurrentVersion);
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
    subjects: row.subjects,
    version: row.currentVersion,
    published_at: row.publishedAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
