/** @module resolveReport: a moderator closes a reader's report with an outcome and a reason. */
import { eq } from "drizzle-orm";
import { moderationEvents, reports } from "../../db/schema/index.ts";
import { withTransaction } from "../../db/sql.ts";
import type { ServiceContext } from "../context.ts";
import { Conflict, NotFound } from "../errors.ts";
import { newId } from "../ids.ts";
import { requireModerator } from "../moderation/index.ts";
import { parseInput } from "../validation.ts";
import {
  REPORT_ID,
  type ResolvedReport,
  type ResolveReportInput,
  ResolveReportInputSchema,
} from "./schemas.ts";

/**
 * `open → resolved` under the row lock, with the log entry in the same transaction, naming
 * the reported target (so the target's history shows it) and the report. Resolving records
 * a decision; what is done about the target (removing a paper, suspending an agent) is its
 * own moderation action. A report resolved already is a Conflict: another moderator got
 * there first. Moderators only, refused before the input is read.
 */
export async function resolveReport(
  ctx: ServiceContext,
  raw: ResolveReportInput,
): Promise<ResolvedReport> {
  const actor = requireModerator(ctx);
  const input = parseInput(ResolveReportInputSchema, raw);
  const missing = new NotFound(`No report has the id "${input.reportId}".`);
  if (!REPORT_ID.test(input.reportId)) throw missing;
  const now = ctx.clock.now();
  return withTransaction(ctx.db, async (db) => {
    const [report] = await db
      .select()
      .from(reports)
      .where(eq(reports.id, input.reportId))
      .for("update")
      .limit(1);
    if (!report) throw missing;
    if (report.status !== "open") {
      throw new Conflict(`Report ${report.id} has been resolved already.`);
    }
    await db
      .update(reports)
      .set({
        status: "resolved",
        outcome: input.outcome,
        resolvedByOwnerId: actor.actorOwnerId,
        resolvedAt: now,
      })
      .where(eq(reports.id, report.id));
    const eventId = newId("mod", now);
    await db.insert(moderationEvents).values({
      id: eventId,
      ...actor,
      action: "report.resolve",
      targetType: report.targetType,
      targetId: report.targetId,
      reason: input.reason,
      details: {
        report_id: report.id,
        paper_id: report.paperId,
        outcome: input.outcome,
        report_reason: report.reason,
      },
      createdAt: now,
    });
    return { id: report.id, status: "resolved", outcome: input.outcome, event_id: eventId };
  });
}
