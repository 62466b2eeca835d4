/** @module fileReport: a reader asks the moderators to look at a paper, a comment or a review. */
import { and, count, eq, isNull } from "drizzle-orm";
import { moderationEvents, reports } from "../../db/schema/index.ts";
import { withTransaction } from "../../db/sql.ts";
import type { ServiceContext } from "../context.ts";
import { Conflict } from "../errors.ts";
import { newId } from "../ids.ts";
import { limitOperation } from "../ratelimit/index.ts";
import { parseInput } from "../validation.ts";
import { type FiledReport, type FileReportInput, FileReportInputSchema } from "./schemas.ts";
import { findTarget } from "./target.ts";

/**
 * Open reports from readers who are not signed in, at most, on one target. They cannot be told
 * apart, so without a bound a crowd of addresses could add rows for ever; past it the
 * moderators already have the target in their queue, and the reader is told so
 * (`ReportQueueFull`) instead of a row being added.
 */
export const MAX_OPEN_READER_REPORTS_PER_TARGET = 20;

/** The target already has as many open readers' reports as are kept (see the bound above). */
export class ReportQueueFull extends Conflict {}

/** Where a report came from: the client's address, the key of the per-address limit. */
export interface ReportOrigin {
  address: string;
}

/**
 * Anyone may report, signed in or not: readers who see a problem should not need an
 * account. The per-address `reports` bucket (10 an hour) is drawn before anything is read,
 * so a flood costs nothing and cannot fill the queue; the address itself is never stored.
 * Only what the reporter can see can be reported (anything else is the same 404 as an
 * unknown id). A signed-in reader's second open report on the same target is a Conflict;
 * readers who are not signed in cannot be told apart, so theirs are kept up to
 * MAX_OPEN_READER_REPORTS_PER_TARGET open ones per target. Filing is
 * recorded in the moderation log in the same transaction.
 */
export async function fileReport(
  ctx: ServiceContext,
  raw: FileReportInput,
  origin: ReportOrigin,
): Promise<FiledReport> {
  const input = parseInput(FileReportInputSchema, raw);
  await limitOperation(ctx, "report", { ip: origin.address });
  const reporter = ctx.caller.kind === "owner" ? ctx.caller : null;
  const now = ctx.clock.now();
  return withTransaction(ctx.db, async (db) => {
    const target = await findTarget(db, ctx, input.targetType, input.targetId);
    if (reporter) {
      const [already] = await db
        .select({ id: reports.id })
        .from(reports)
        .where(
          and(
            eq(reports.reporterOwnerId, reporter.ownerId),
            eq(reports.targetType, input.targetType),
            eq(reports.targetId, target.id),
            eq(reports.status, "open"),
          ),
        )
        .limit(1);
      if (already) {
        throw new Conflict("You have reported this already; a moderator will look at it.");
      }
    } else {
      const [open] = await db
        .select({ n: count() })
        .from(reports)
        .where(
          and(
            isNull(reports.reporterOwnerId),
            eq(reports.targetType, input.targetType),
            eq(reports.targetId, target.id),
            eq(reports.status, "open"),
          ),
        );
      if ((open?.n ?? 0) >= MAX_OPEN_READER_REPORTS_PER_TARGET) {
        throw new ReportQueueFull(
          "Readers have already reported this and the moderators have it in their queue.",
        );
      }
    }
    const id = newId("rpt", now);
    const note = input.note ? input.note : null;
    await db.insert(reports).values({
      id,
      targetType: input.targetType,
      targetId: target.id,
      paperId: target.paperId,
      reason: input.reason,
      note,
      reporterOwnerId: reporter?.ownerId ?? null,
      createdAt: now,
    });
    await db.insert(moderationEvents).values({
      id: newId("mod", now),
      actor: reporter?.handle ?? REPORT_ACTOR,
      actorOwnerId: reporter?.ownerId ?? null,
      action: "report.file",
      targetType: input.targetType,
      targetId: target.id,
      reason: input.reason,
      details: { report_id: id, paper_id: target.paperId, note },
      createdAt: now,
    });
    return {
      id,
      target_type: input.targetType,
      target_id: target.id,
      paper_id: target.paperId,
      status: "open",
      created_at: now.toISOString(),
    };
  });
}

/** How the log names a reader who was not signed in (an owner always has an owner id). */
export const REPORT_ACTOR = "reader";
