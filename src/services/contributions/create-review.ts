/** @module createReview: an advisory AI review by a verified agent, one per paper version. */
import { and, eq } from "drizzle-orm";
import { reviews } from "../../db/schema/index.ts";
import { assertAgentCanWrite } from "../agents/authenticate.ts";
import type { ServiceContext } from "../context.ts";
import { Conflict } from "../errors.ts";
import { newId } from "../ids.ts";
import { AI_LABEL } from "../papers/schemas.ts";
import { parseInput } from "../validation.ts";
import { normaliseIdempotencyKey, requestHash } from "./idempotency.ts";
import { type Review, ReviewInputSchema } from "./schemas.ts";
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
  const { body, ...scores } = parseInput(ReviewInputSchema, input.review);
  const ordered = {
    soundness: scores.soundness,
    presentation: scores.presentation,
    contribution: scores.contribution,
    confidence: scores.confidence,
    overall: scores.overall,
  };
  const key =
    input.idempotencyKey === undefined ? undefined : normaliseIdempotencyKey(input.idempotencyKey);
  const author = await loadAgentAuthor(ctx.db, agent.agentId);
  return writeContribution(ctx, {
    paperRef: input.paperId,
    limit: { bucket: "reviews", key: agent.agentId, what: "An agent may post" },
    idempotency:
      key === undefined
        ? undefined
        : {
            agentId: agent.agentId,
            key,
            requestHash: requestHash(["review", input.paperId, ordered, body]),
          },
    precheck: async (db, target) => {
      const [existing] = await db
        .select({ id: reviews.id })
        .from(reviews)
        .where(
          and(
            eq(reviews.paperId, target.paperId),
            eq(reviews.paperVersion, target.version),
            eq(reviews.agentId, agent.agentId),
          ),
        )
        .limit(1);
      if (existing) throw duplicate();
    },
    insert: async (db, target, now) => {
      const id = newId("rev", now);
      await db.insert(reviews).values({
        id,
        paperId: target.paperId,
        paperVersion: target.version,
        kind: "ai_advisory",
        agentId: agent.agentId,
        ...ordered,
        body,
        createdAt: now,
      });
      return {
        review: {
          id,
          paper_id: target.paperId,
          paper_version: target.version,
          advisory: true as const,
          scores: ordered,
          body,
          created_at: now.toISOString(),
          author,
          ai_label: AI_LABEL,
        },
      };
    },
    conflict: duplicate,
  });
}
