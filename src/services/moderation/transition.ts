/**
 * @module The one way moderation acts on a paper: authorized, checked under the row lock
 * against what the moderator saw, logged and reindexed in the same transaction.
 */
import { and, eq, inArray, type SQL, sql } from "drizzle-orm";
import { moderationEvents, papers, paperVersions } from "../../db/schema/index.ts";
import { withTransaction } from "../../db/sql.ts";
import type { ServiceContext } from "../context.ts";
import { Conflict, NotFound } from "../errors.ts";
import { newId, parsePaperRef } from "../ids.ts";
import { recordEvent } from "../notifications/index.ts";
import { reindexPaper, unindexPaper } from "../search/index.ts";
import { parseInput } from "../validation.ts";
import { requireModerator } from "./authorize.ts";
import {
  type PaperActionInput,
  PaperActionInputSchema,
  type PaperActionResult,
} from "./schemas.ts";

type PaperAction = "paper.remove" | "paper.approve" | "paper.reject" | "paper.clear_flag";

/**
 * Log actions meaning "a moderator has looked at this version's warnings": clearing a flag,
 * and approving a held paper (whose version always carries warnings). Either takes the
 * version out of the flagged queue; a new version with warnings is flagged afresh.
 */
const CLEARING_ACTIONS = ["paper.clear_flag", "paper.approve"] as const;

/**
 * Where-condition on `moderation_events`: a moderator has cleared version `version` of
 * paper `paperId` (values, or the papers table's columns for a correlated subquery).
 */
export function clearedWhere(
  paperId: string | typeof papers.id,
  version: number | typeof papers.currentVersion,
): SQL {
  return and(
    eq(moderationEvents.targetType, "paper"),
    eq(moderationEvents.targetId, paperId),
    inArray(moderationEvents.action, [...CLEARING_ACTIONS]),
    sql`${moderationEvents.details} ->> 'version' = (${version})::text`,
  ) as SQL;
}

export interface PaperRule {
  action: PaperAction;
  /** The only status the action applies to; any other is a Conflict (a stale view). */
  from: "published" | "submitted";
  /** The new status; absent when the action leaves the status as it is (clearing a flag). */
  to?: "published" | "rejected" | "removed";
  /** `status_reason` after the move. */
  statusReason?: (reason: string) => string | null;
  /** The current version must carry screening warnings that nobody has cleared yet. */
  needsFlag?: boolean;
  /** How the search index follows the move (in the same transaction). */
  index?: "reindex" | "unindex";
}

export async function moderatePaper(
  ctx: ServiceContext,
  raw: PaperActionInput,
  rule: PaperRule,
): Promise<PaperActionResult> {
  const actor = requireModerator(ctx);
  const input = parseInput(PaperActionInputSchema, raw);
  const ref = parsePaperRef(input.paperId);
  if (!ref || ref.version !== null) throw new NotFound(`No paper has the id "${input.paperId}".`);
  const now = ctx.clock.now();
  return withTransaction(ctx.db, async (db) => {
    const [paper] = await db
      .select({ status: papers.status, currentVersion: papers.currentVersion })
      .from(papers)
      .where(eq(papers.id, ref.id))
      .for("update")
      .limit(1);
    if (!paper) throw new NotFound(`No paper has the id "${ref.id}".`);
    if (paper.status !== rule.from) {
      throw new Conflict(
        `Paper ${ref.id} is ${paper.status}, not ${rule.from}: someone may have acted on it already. Reload to see where it stands.`,
      );
    }
    const version = paper.currentVersion;
    if (input.version !== undefined && input.version !== version) {
      throw new Conflict(
        `Paper ${ref.id} is at version ${version} now, not ${input.version}. Reload and look at the new version first.`,
      );
    }
    if (rule.needsFlag) {
      const [current] = await db
        .select({ screening: paperVersions.screeningStatus })
        .from(paperVersions)
        .where(and(eq(paperVersions.paperId, ref.id), eq(paperVersions.version, version)))
        .limit(1);
      if (current?.screening !== "warnings") {
        throw new Conflict(`Paper ${ref.id}v${version} has no screening warnings to clear.`);
      }
      const [cleared] = await db
        .select({ id: moderationEvents.id })
        .from(moderationEvents)
        .where(clearedWhere(ref.id, version))
        .limit(1);
      if (cleared) {
        throw new Conflict(`The warnings of ${ref.id}v${version} have been cleared already.`);
      }
    }
    if (rule.to) {
      await db
        .update(papers)
        .set({
          status: rule.to,
          statusReason: rule.statusReason ? rule.statusReason(input.reason) : null,
          updatedAt: now,
          // A held paper was never public: approval is its publication (list order, feeds).
          ...(rule.to === "published" ? { publishedAt: now } : {}),
        })
        .where(eq(papers.id, ref.id));
    }
    const eventId = newId("mod", now);
    await db.insert(moderationEvents).values({
      id: eventId,
      ...actor,
      action: rule.action,
      targetType: "paper",
      targetId: ref.id,
      reason: input.reason,
      details: { from: paper.status, to: rule.to ?? paper.status, version },
      createdAt: now,
    });
    await recordEvent(db, {
      kind: "moderation",
      paperId: ref.id,
      paperVersion: version,
      subjectId: eventId,
      actor: { ownerId: actor.actorOwnerId },
      at: now,
      action: rule.action,
    });
    if (rule.index === "reindex") await reindexPaper({ ...ctx, db }, ref.id);
    if (rule.index === "unindex") await unindexPaper({ ...ctx, db }, ref.id);
    return {
      paper_id: ref.id,
      status: rule.to ?? paper.status,
      version,
      event_id: eventId,
    };
  });
}
