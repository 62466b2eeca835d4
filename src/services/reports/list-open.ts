/** @module listOpenReports: the reports no moderator has resolved yet, oldest first. */
import { and, asc, count, eq } from "drizzle-orm";
import {
  comments,
  owners,
  papers,
  paperVersions,
  reports,
  reviews,
} from "../../db/schema/index.ts";
import type { ServiceContext } from "../context.ts";
import { requireModerator } from "../moderation/index.ts";
import { isCurrentVersion } from "../papers/index.ts";
import { parseInput } from "../validation.ts";
import {
  type ListReportsInput,
  ListReportsInputSchema,
  type ReportQueue,
  type ReportReason,
  type ReportTarget,
} from "./schemas.ts";

/** Characters of a reported comment or review shown in the queue. */
const EXCERPT_CHARS = 300;

/**
 * Open reports with what a moderator needs to decide: the target, its paper's title, the
 * start of a reported comment or review, the reason and note, and who reported it (a handle,
 * or nobody for a reader who was not signed in). Oldest first, so the longest wait is
 * handled first. Moderators only: notes can name people.
 */
export async function listOpenReports(
  ctx: ServiceContext,
  raw: ListReportsInput = {},
): Promise<ReportQueue> {
  requireModerator(ctx);
  const { limit } = parseInput(ListReportsInputSchema, raw, "query");
  const open = eq(reports.status, "open");
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select({
        id: reports.id,
        targetType: reports.targetType,
        targetId: reports.targetId,
        paperId: reports.paperId,
        title: paperVersions.title,
        commentBody: comments.body,
        reviewBody: reviews.body,
        reason: reports.reason,
        note: reports.note,
        reporter: owners.handle,
        createdAt: reports.createdAt,
      })
      .from(reports)
      .innerJoin(papers, eq(papers.id, reports.paperId))
      .innerJoin(paperVersions, isCurrentVersion)
      .leftJoin(comments, and(eq(reports.targetType, "comment"), eq(comments.id, reports.targetId)))
      .leftJoin(reviews, and(eq(reports.targetType, "review"), eq(reviews.id, reports.targetId)))
      .leftJoin(owners, eq(owners.id, reports.reporterOwnerId))
      .where(open)
      .orderBy(asc(reports.createdAt), asc(reports.id))
      .limit(limit),
    ctx.db.select({ n: count() }).from(reports).where(open),
  ]);
  return {
    count: Number(total?.n ?? 0),
    reports: rows.map((row) => {
      const body = row.commentBody ?? row.reviewBody;
      return {
        id: row.id,
        target_type: row.targetType as ReportTarget,
        target_id: row.targetId,
        paper_id: row.paperId,
        paper_title: row.title,
        excerpt: body === null ? null : excerpt(body),
        reason: row.reason as ReportReason,
        note: row.note,
        reporter_handle: row.reporter,
        created_at: row.createdAt.toISOString(),
      };
    }),
  };
}

function excerpt(text: string): string {
  const chars = [...text];
  return chars.length <= EXCERPT_CHARS ? text : `${chars.slice(0, EXCERPT_CHARS).join("")}…`;
}
