/** @module What a report is about: the target, if the reader can see it, and its paper. */
import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { comments, papers, paperVersions, reviews } from "../../db/schema/index.ts";
import type { ServiceContext } from "../context.ts";
import { NotFound } from "../errors.ts";
import { parsePaperRef } from "../ids.ts";
import { canSeePaper, isCurrentVersion } from "../papers/index.ts";
import { parseInput } from "../validation.ts";
import { type ReportTarget, type ReportTargetInput, ReportTargetInputSchema } from "./schemas.ts";

export interface ReportTargetView {
  target_type: ReportTarget;
  /** The paper id without a version for a paper; the comment's or review's id otherwise. */
  target_id: string;
  paper_id: string;
  paper_title: string;
}

/**
 * The target a report form is about, with its paper's title, for the form's page. What the
 * caller cannot see (unknown ids, removed comments, papers that are not public) is the same
 * NotFound, so the form reveals nothing fileReport would not.
 */
export async function getReportTarget(
  ctx: ServiceContext,
  raw: ReportTargetInput,
): Promise<ReportTargetView> {
  const input = parseInput(ReportTargetInputSchema, raw, "path");
  const target = await findTarget(ctx.db, ctx, input.targetType, input.targetId);
  const [row] = await ctx.db
    .select({ title: paperVersions.title })
    .from(papers)
    .innerJoin(paperVersions, isCurrentVersion)
    .where(eq(papers.id, target.paperId))
    .limit(1);
  return {
    target_type: input.targetType,
    target_id: target.id,
    paper_id: target.paperId,
    paper_title: row?.title ?? target.paperId,
  };
}

/** The target's canonical id and paper, or NotFound when the caller cannot see it. */
export async function findTarget(
  db: Db,
  ctx: ServiceContext,
  type: ReportTarget,
  id: string,
): Promise<{ id: string; paperId: string }> {
  const missing = () => new NotFound(`No ${type} has the id "${id}".`);
  let paperId: string;
  if (type === "paper") {
    const ref = parsePaperRef(id);
    if (!ref) throw missing();
    paperId = ref.id;
  } else {
    const table = type === "comment" ? comments : reviews;
    const [row] = await db
      .select({ paperId: table.paperId })
      .from(table)
      .where(and(eq(table.id, id), isNull(table.removedAt)))
      .limit(1);
    if (!row) throw missing();
    paperId = row.paperId;
  }
  const [paper] = await db
    .select({ status: papers.status, ownerId: papers.ownerId })
    .from(papers)
    .where(eq(papers.id, paperId))
    .limit(1);
  if (!paper || !canSeePaper(ctx.caller, paper)) throw missing();
  return { id: type === "paper" ? paperId : id, paperId };
}
