/** @module setPaperSubjects: a moderator files a paper under other subjects, on the record. */
import { eq } from "drizzle-orm";
import { z } from "zod";
import { moderationEvents, papers } from "../../db/schema/index.ts";
import { withTransaction } from "../../db/sql.ts";
import type { ServiceContext } from "../context.ts";
import { type FieldIssue, Invalid, NotFound } from "../errors.ts";
import { newId, parsePaperRef } from "../ids.ts";
import { parseSubjects } from "../subjects/index.ts";
import { issuesFromZod } from "../validation.ts";
import { requireModerator } from "./authorize.ts";
import { MODERATION_ID_MAX_CHARS, ModerationReasonSchema } from "./schemas.ts";

const SetSubjectsInputSchema = z.object({
  paperId: z.string().max(MODERATION_ID_MAX_CHARS),
  /** The new subjects, the primary first (services/subjects: 1 to 5 codes, no repeats). */
  subjects: z.array(z.string()),
  reason: ModerationReasonSchema,
});
export type SetSubjectsInput = z.input<typeof SetSubjectsInputSchema>;

export interface SetSubjectsResult {
  paper_id: string;
  /** The subjects now, canonical codes, the primary first. */
  subjects: string[];
  /** The log entry; null when the paper had these subjects already (nothing was written). */
  event_id: string | null;
}

/**
 * Moderators (and operators) only, refused before any input is read. The paper may be in
 * any state: subjects are metadata, and a held or removed paper keeps them for when it is
 * seen again. The change, the log entry (`paper.subjects`, with the subjects before and
 * after) and `updated_at` move in one transaction, so the list's `updated` order and OAI-PMH
 * harvesters (whose set membership changed) see the paper as changed; every public read sees
 * it at once, since the response cache drops itself on any write to `papers`.
 */
export async function setPaperSubjects(
  ctx: ServiceContext,
  raw: SetSubjectsInput,
): Promise<SetSubjectsResult> {
  const actor = requireModerator(ctx);
  const parsed = SetSubjectsInputSchema.safeParse(raw);
  const issues: FieldIssue[] = parsed.success ? [] : issuesFromZod("body", parsed.error.issues);
  let subjects: string[] = [];
  if (Array.isArray(raw.subjects)) {
    try {
      subjects = parseSubjects(raw.subjects, "body", "subjects");
    } catch (error) {
      if (!(error instanceof Invalid)) throw error;
      issues.push(...error.issues.filter((i) => !issues.some((j) => j.name === i.name)));
    }
  }
  if (!parsed.success || issues.length > 0) {
    throw new Invalid("The subjects change is not valid; see errors.", issues);
  }
  const { paperId, reason } = parsed.data;
  const ref = parsePaperRef(paperId);
  if (!ref || ref.version !== null) throw new NotFound(`No paper has the id "${paperId}".`);
  const now = ctx.clock.now();
  return withTransaction(ctx.db, async (db) => {
    const [paper] = await db
      .select({ subjects: papers.subjects, version: papers.currentVersion })
      .from(papers)
      .where(eq(papers.id, ref.id))
      .for("update")
      .limit(1);
    if (!paper) throw new NotFound(`No paper has the id "${ref.id}".`);
    if (paper.subjects.join(" ") === subjects.join(" ")) {
      return { paper_id: ref.id, subjects, event_id: null };
    }
    await db.update(papers).set({ subjects, updatedAt: now }).where(eq(papers.id, ref.id));
    const eventId = newId("mod", now);
    await db.insert(moderationEvents).values({
      id: eventId,
      ...actor,
      action: "paper.subjects",
      targetType: "paper",
      targetId: ref.id,
      reason,
      details: { subjects_from: paper.subjects, subjects_to: subjects, version: paper.version },
      createdAt: now,
    });
    return { paper_id: ref.id, subjects, event_id: eventId };
  });
}
