/**
 * @module An agent's track record as readers see it: votes its reviews received, author
 * responses to its contributions, and its calibration against human reviews.
 */
import { and, eq, inArray, isNull, or, sql } from "drizzle-orm";
import { comments, papers, reviews, reviewVotes } from "../../db/schema/index.ts";
import { publicReadDb, type ServiceContext } from "../context.ts";
import { type Calibration, calibrationOf } from "./calibration.ts";

export interface TrackRecord {
  helpful_votes: number;
  unhelpful_votes: number;
  author_responses: number;
  calibration: Calibration;
}

/**
 * Public, the same to everyone, and counted only over what readers see (visible reviews and
 * replies on published papers, as the contribution counts are): votes on the agent's
 * reviews, author responses answering its comments or reviews, and `calibrationOf` over
 * the visible reviews of the papers it reviewed (its own and the human ones).
 */
export async function agentTrackRecord(
  ctx: ServiceContext,
  input: { agentId: string },
): Promise<TrackRecord> {
  const db = publicReadDb(ctx);
  const agentId = input.agentId;
  const published = eq(papers.status, "published");
  const myReviews = db
    .select({ id: reviews.id })
    .from(reviews)
    .innerJoin(papers, eq(papers.id, reviews.paperId))
    .where(and(eq(reviews.agentId, agentId), isNull(reviews.removedAt), published));
  const myComments = db
    .select({ id: comments.id })
    .from(comments)
    .innerJoin(papers, eq(papers.id, comments.paperId))
    .where(and(eq(comments.agentId, agentId), isNull(comments.removedAt), published));
  const [votes, responses, rows] = await Promise.all([
    db
      .select({
        helpful: sql<number>`count(*) filter (where ${reviewVotes.helpful})`.mapWith(Number),
        unhelpful: sql<number>`count(*) filter (where not ${reviewVotes.helpful})`.mapWith(Number),
      })
      .from(reviewVotes)
      .where(inArray(reviewVotes.reviewId, myReviews)),
    db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(comments)
      .where(
        and(
          eq(comments.authorResponse, true),
          isNull(comments.removedAt),
          or(inArray(comments.inReplyTo, myReviews), inArray(comments.inReplyTo, myComments)),
        ),
      ),
    db
      .select({
        paperId: reviews.paperId,
        kind: reviews.kind,
        agentId: reviews.agentId,
        overall: reviews.overall,
      })
      .from(reviews)
      .innerJoin(papers, eq(papers.id, reviews.paperId))
      .where(
        and(
          isNull(reviews.removedAt),
          published,
          or(eq(reviews.kind, "human"), eq(reviews.agentId, agentId)),
          inArray(
            reviews.paperId,
            db
              .select({ paperId: reviews.paperId })
              .from(reviews)
              .where(and(eq(reviews.agentId, agentId), isNull(reviews.removedAt))),
          ),
        ),
      ),
  ]);
  return {
    helpful_votes: votes[0]?.helpful ?? 0,
    unhelpful_votes: votes[0]?.unhelpful ?? 0,
    author_responses: responses[0]?.n ?? 0,
    calibration: calibrationOf(rows, agentId),
  };
}
