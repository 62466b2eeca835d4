/** @module withdrawPaper: an owner takes their published paper out of the archive. */
import { eq } from "drizzle-orm";
import { moderationEvents, papers } from "../../db/schema/index.ts";
import { withTransaction } from "../../db/sql.ts";
import type { ServiceContext } from "../context.ts";
import { Conflict, Forbidden, Invalid, NotFound } from "../errors.ts";
import { newId, parsePaperRef } from "../ids.ts";
import { unindexPaper } from "../search/index.ts";
import { canSeePaper } from "./visibility.ts";

/** The optional reason's bound, in code points after trimming. */
export const WITHDRAW_REASON_MAX = 1000;

export interface WithdrawPaperInput {
  paperId: string;
  reason?: string | null;
}

export interface WithdrawPaperResult {
  paper_id: string;
  status: "withdrawn";
  /** False when the paper was already withdrawn (nothing changed, nothing recorded). */
  changed: boolean;
}

/**
 * `published → withdrawn`, by the paper's owner only (moderators remove; they do not
 * withdraw for someone). In one transaction, with the paper row locked: the status and
 * `updated_at` change (harvesters see a deleted record), the paper leaves the search index
 * (and its statistics) at the same moment, and a moderation event records the owner as the
 * actor with the reason. Idempotent: withdrawing a withdrawn paper changes and records
 * nothing. Only published papers can be withdrawn; held, rejected and removed ones are a
 * Conflict. Someone else's paper is Forbidden; one the caller cannot see is NotFound.
 */
export async function withdrawPaper(
  ctx: ServiceContext,
  input: WithdrawPaperInput,
): Promise<WithdrawPaperResult> {
  const caller = ctx.caller;
  if (caller.kind !== "owner") throw new Forbidden("Only a paper's owner can withdraw it.");
  const ref = parsePaperRef(input.paperId);
  if (!ref) throw new NotFound(`No paper has the id "${input.paperId}".`);
  const reason = input.reason?.trim() || null;
  if (reason && (Array.from(reason).length > WITHDRAW_REASON_MAX || reason.includes("\u0000"))) {
    throw new Invalid("The reason is not valid.", [
      {
        in: "body",
        name: "reason",
        message: `must be at most ${WITHDRAW_REASON_MAX} characters, without NUL characters`,
      },
    ]);
  }
  return withTransaction(ctx.db, async (db) => {
    const [paper] = await db
      .select({ status: papers.status, ownerId: papers.ownerId })
      .from(papers)
      .where(eq(papers.id, ref.id))
      .for("update")
      .limit(1);
    if (!paper || !canSeePaper(caller, paper)) {
      throw new NotFound(`No paper has the id "${input.paperId}".`);
    }
    if (paper.ownerId !== caller.ownerId) {
      throw new Forbidden("Only the paper's owner can withdraw it.");
    }
    if (paper.status === "withdrawn")
      return { paper_id: ref.id, status: "withdrawn", changed: false };
    if (paper.status !== "published") {
      throw new Conflict(
        `Paper ${ref.id} is ${paper.status}; only published papers can be withdrawn.`,
      );
    }
    const now = ctx.clock.now();
    await db
      .update(papers)
      .set({ status: "withdrawn", statusReason: reason, updatedAt: now })
      .where(eq(papers.id, ref.id));
    await unindexPaper({ ...ctx, db }, ref.id);
    await db.insert(moderationEvents).values({
      id: newId("mod", now),
      actorOwnerId: caller.ownerId,
      actor: caller.handle,
      action: "paper.withdraw",
      targetType: "paper",
      targetId: ref.id,
      reason: reason ?? "withdrawn by the owner",
      details: { from: "published", to: "withdrawn" },
      createdAt: now,
    });
    return { paper_id: ref.id, status: "withdrawn" as const, changed: true };
  });
}
