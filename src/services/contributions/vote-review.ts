/** @module voteReview: a signed-in person marks a review helpful or not (one vote each, changeable). */
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { agents, papers, reviews, reviewVotes } from "../../db/schema/index.ts";
import { withTransaction } from "../../db/sql.ts";
import type { ServiceContext } from "../context.ts";
import { Forbidden, NotFound } from "../errors.ts";
import { prefixedIdPattern } from "../ids.ts";
import { recordEvent } from "../notifications/index.ts";
import { limitOperation } from "../ratelimit/index.ts";
import { parseInput } from "../validation.ts";
import { verifiedOwner } from "./owner-writer.ts";
import { VoteInputSchema } from "./schemas.ts";

export interface VoteReviewInput {
  reviewId: string;
  /** `helpful`, `unhelpful`, or `none` to take one's vote back. */
  vote: unknown;
}

export interface VoteResult {
  review_id: string;
  paper_id: string;
  vote: "helpful" | "unhelpful" | "none";
  helpful_count: number;
  unhelpful_count: number;
}

const REVIEW_ID = prefixedIdPattern("rev");

/**
 * Only people vote: an owner session with a confirmed email (an agent key is a 401, an
 * unconfirmed email a 403). One vote per person per review, held by the primary key and
 * changed in place; never on a review one wrote or one's own agent wrote (403). Unknown,
 * removed and unpublished reviews are the same 404. Then the voter's `votes` quota (60 an
 * hour per person; 429), so only a vote that would be stored draws on it, as comments do.
 * The review row is locked for the transaction, so the counts returned are the ones just
 * committed.
 */
export async function voteReview(ctx: ServiceContext, input: VoteReviewInput): Promise<VoteResult> {
  const voter = await verifiedOwner(ctx, "vote on reviews");
  const { vote } = parseInput(VoteInputSchema, { vote: input.vote });
  const notFound = () => new NotFound(`No review has the id "${input.reviewId}".`);
  if (!REVIEW_ID.test(input.reviewId)) throw notFound();
  return withTransaction(ctx.db, async (db) => {
    const [review] = await db
      .select({
        paperId: reviews.paperId,
        paperVersion: reviews.paperVersion,
        ownerId: reviews.ownerId,
        agentId: reviews.agentId,
        agentOwner: agents.ownerId,
      })
      .from(reviews)
      .innerJoin(papers, eq(papers.id, reviews.paperId))
      .leftJoin(agents, eq(agents.id, reviews.agentId))
      .where(
        and(
          eq(reviews.id, input.reviewId),
          isNull(reviews.removedAt),
          eq(papers.status, "published"),
        ),
      )
      .for("update", { of: reviews });
    if (!review) throw notFound();
    if (review.ownerId === voter.ownerId || review.agentOwner === voter.ownerId) {
      throw new Forbidden("This review is yours or your agent's; others judge whether it helped.");
    }
    await limitOperation(ctx, "vote", { writer: voter.ownerId });
    const now = ctx.clock.now();
    if (vote === "none") {
      await db
        .delete(reviewVotes)
        .where(
          and(eq(reviewVotes.reviewId, input.reviewId), eq(reviewVotes.ownerId, voter.ownerId)),
        );
    } else {
      await db
        .insert(reviewVotes)
        .values({
          reviewId: input.reviewId,
          ownerId: voter.ownerId,
          helpful: vote === "helpful",
          createdAt: now,
          updatedAt: now,
        })
        .onConflictDoUpdate({
          target: [reviewVotes.reviewId, reviewVotes.ownerId],
          set: { helpful: vote === "helpful", updatedAt: now },
        });
    }
    // The review's author (its agent and that agent's owner, or the person) hears of a
    // helpful vote, once per voter and review however often the vote changes.
    if (vote === "helpful") {
      await recordEvent(db, {
        kind: "helpful_vote",
        paperId: review.paperId,
        paperVersion: review.paperVersion,
        subjectId: `${input.reviewId}/${voter.ownerId}`,
        actor: { ownerId: voter.ownerId },
        target: { id: input.reviewId, agentId: review.agentId, ownerId: review.ownerId },
        at: now,
      });
    }
    const counts = await voteCounts(db, [input.reviewId]);
    const mine = counts.get(input.reviewId) ?? { helpful: 0, unhelpful: 0 };
    return {
      review_id: input.reviewId,
      paper_id: review.paperId,
      vote,
      helpful_count: mine.helpful,
      unhelpful_count: mine.unhelpful,
    };
  });
}

/** Helpful and unhelpful votes of each of `reviewIds` (absent ids have none). */
export async function voteCounts(
  db: Db,
  reviewIds: readonly string[],
): Promise<Map<string, { helpful: number; unhelpful: number }>> {
  const out = new Map<string, { helpful: number; unhelpful: number }>();
  if (reviewIds.length === 0) return out;
  const rows = await db
    .select({
      reviewId: reviewVotes.reviewId,
      helpful: sql<number>`count(*) filter (where ${reviewVotes.helpful})`.mapWith(Number),
      unhelpful: sql<number>`count(*) filter (where not ${reviewVotes.helpful})`.mapWith(Number),
    })
    .from(reviewVotes)
    .where(inArray(reviewVotes.reviewId, [...reviewIds]))
    .groupBy(reviewVotes.reviewId);
  for (const r of rows) out.set(r.reviewId, { helpful: r.helpful, unhelpful: r.unhelpful });
  return out;
}

/** The caller's own votes on `reviewIds` (the page shows which button is pressed). */
export async function myVotes(
  ctx: ServiceContext,
  reviewIds: readonly string[],
): Promise<Map<string, "helpful" | "unhelpful">> {
  const out = new Map<string, "helpful" | "unhelpful">();
  if (ctx.caller.kind !== "owner" || reviewIds.length === 0) return out;
  const rows = await ctx.db
    .select({ reviewId: reviewVotes.reviewId, helpful: reviewVotes.helpful })
    .from(reviewVotes)
    .where(
      and(
        eq(reviewVotes.ownerId, ctx.caller.ownerId),
        inArray(reviewVotes.reviewId, [...reviewIds]),
      ),
    );
  for (const r of rows) out.set(r.reviewId, r.helpful ? "helpful" : "unhelpful");
  return out;
}
