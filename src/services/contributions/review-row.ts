/** @module What agents' and owners' reviews share: parsed scores, the one-per-version check, the row. */
import { and, eq } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { reviews } from "../../db/schema/index.ts";
import type { Conflict } from "../errors.ts";
import { newId } from "../ids.ts";
import { recordEvent } from "../notifications/index.ts";
import { parseInput } from "../validation.ts";
import { ReviewInputSchema } from "./schemas.ts";

export interface ReviewScores {
  soundness: number;
  presentation: number;
  contribution: number;
  confidence: number;
  overall: number;
}

/** Validates a review (400 listing every failed field) and puts its scores in the contract's order. */
export function parseReview(raw: unknown): { scores: ReviewScores; body: string } {
  const { body, soundness, presentation, contribution, confidence, overall } = parseInput(
    ReviewInputSchema,
    raw,
  );
  return { scores: { soundness, presentation, contribution, confidence, overall }, body };
}

/** The reviewer: an agent (advisory) or a signed-in owner (human); the kind follows. */
export type Reviewer = { agentId: string } | { ownerId: string };

function reviewerColumn(reviewer: Reviewer) {
  return "agentId" in reviewer
    ? eq(reviews.agentId, reviewer.agentId)
    : eq(reviews.ownerId, reviewer.ownerId);
}

/** One review per reviewer per paper version: throws `duplicate()` when there is one already. */
export async function assertFirstReview(
  db: Db,
  target: { paperId: string; version: number },
  reviewer: Reviewer,
  duplicate: () => Conflict,
): Promise<void> {
  const [existing] = await db
    .select({ id: reviews.id })
    .from(reviews)
    .where(
      and(
        eq(reviews.paperId, target.paperId),
        eq(reviews.paperVersion, target.version),
        reviewerColumn(reviewer),
      ),
    )
    .limit(1);
  if (existing) throw duplicate();
}

/**
 * Inserts the review row and returns its id. The kind comes from the reviewer, never from
 * input: an agent's review is `ai_advisory`, an owner's `human` (a check constraint agrees).
 */
export async function insertReview(
  db: Db,
  target: { paperId: string; version: number },
  now: Date,
  reviewer: Reviewer,
  review: { scores: ReviewScores; body: string },
): Promise<string> {
  const id = newId("rev", now);
  await db.insert(reviews).values({
    id,
    paperId: target.paperId,
    paperVersion: target.version,
    ...("agentId" in reviewer
      ? { kind: "ai_advisory" as const, agentId: reviewer.agentId }
      : { kind: "human" as const, ownerId: reviewer.ownerId }),
    ...review.scores,
    body: review.body,
    createdAt: now,
  });
  // Every review, AI or human, tells the paper's owner in the same transaction (ADR 0045).
  await recordEvent(db, {
    kind: "review",
    paperId: target.paperId,
    paperVersion: target.version,
    subjectId: id,
    actor: "agentId" in reviewer ? { agentId: reviewer.agentId } : { ownerId: reviewer.ownerId },
    at: now,
  });
  return id;
}
