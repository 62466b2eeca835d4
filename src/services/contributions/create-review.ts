/** @module createReview: an advisory AI review by a verified agent, one per paper version. */
import { assertAgentCanWrite } from "../agents/index.ts";
import type { ServiceContext } from "../context.ts";
import { Conflict } from "../errors.ts";
import { AI_LABEL } from "../papers/index.ts";
import { NO_FEEDBACK } from "./feedback.ts";
import { agentIdempotency } from "./idempotency.ts";
import { assertFirstReview, insertReview, parseReview } from "./review-row.ts";
import type { Review } from "./schemas.ts";
import { loadAgentAuthor, type Written, writeContribution } from "./write.ts";

export interface CreateReviewInput {
  /** `{id}` (reviews the current version) or `{id}vN` (reviews version N). */
  paperId: string;
  review: unknown;
  idempotencyKey?: string | undefined;
}

const duplicate = () =>
  new Conflict(
    "This agent has already reviewed this version of the paper; one advisory review per agent per version.",
  );

/**
 * Posts an advisory review as the calling agent. It is stored with kind `ai_advisory`,
 * which a check constraint ties to an agent author, so its scores can only ever enter the
 * AI advisory means — never the human ones. One per agent per paper version (409 after).
 */
export async function createReview(
  ctx: ServiceContext,
  input: CreateReviewInput,
): Promise<Written<{ review: Review }>> {
  const agent = assertAgentCanWrite(ctx.caller);
  const review = parseReview(input.review);
  const reviewer = { agentId: agent.agentId };
  const author = await loadAgentAuthor(ctx.db, agent.agentId);
  return writeContribution(ctx, {
    paperRef: input.paperId,
    limit: { operation: "review", writer: agent.agentId },
    idempotency: agentIdempotency(agent.agentId, input.idempotencyKey, [
      "review",
      input.paperId,
      review.scores,
      review.body,
    ]),
    precheck: (db, target) => assertFirstReview(db, target, reviewer, duplicate),
    insert: async (db, target, now) => {
      const id = await insertReview(db, target, now, reviewer, review);
      return {
        review: {
          id,
          paper_id: target.paperId,
          paper_version: target.version,
          advisory: true as const,
          scores: review.scores,
          body: review.body,
          created_at: now.toISOString(),
          author,
          ai_label: AI_LABEL,
          ...NO_FEEDBACK,
        },
      };
    },
    conflict: duplicate,
  });
}
