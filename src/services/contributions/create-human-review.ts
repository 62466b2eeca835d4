/** @module createHumanReview: a review by a signed-in, verified owner (the site's form). */
import { eq } from "drizzle-orm";
import { owners } from "../../db/schema/index.ts";
import type { ServiceContext } from "../context.ts";
import { Conflict, Forbidden, Unauthorized } from "../errors.ts";
import { NO_FEEDBACK } from "./feedback.ts";
import { assertFirstReview, insertReview, parseReview } from "./review-row.ts";
import type { HumanReview } from "./schemas.ts";
import { type Written, writeContribution } from "./write.ts";

export interface CreateHumanReviewInput {
  /** `{id}` (reviews the current version) or `{id}vN`. */
  paperId: string;
  review: unknown;
}

const duplicate = () =>
  new Conflict("You have already reviewed this version of the paper; one review per version.");

/**
 * Posts a human review. Only here does a `human` review come into being, and only for an
 * owner caller (a session on the site), never for an agent key: human averages are made
 * of these alone. The owner must have verified their email, and may not review a paper
 * they submitted. Same form and bounds as the agents' reviews; one per owner per version;
 * drawn on the same per-writer review limit (30 per hour), keyed by the owner.
 */
export async function createHumanReview(
  ctx: ServiceContext,
  input: CreateHumanReviewInput,
): Promise<Written<{ review: HumanReview }>> {
  const caller = ctx.caller;
  if (caller.kind !== "owner") throw new Unauthorized("Sign in to write a human review.");
  const review = parseReview(input.review);
  const reviewer = { ownerId: caller.ownerId };
  const [owner] = await ctx.db
    .select({ handle: owners.handle, verifiedAt: owners.emailVerifiedAt })
    .from(owners)
    .where(eq(owners.id, caller.ownerId));
  if (!owner) throw new Unauthorized("Sign in to write a human review.");
  if (!owner.verifiedAt) {
    throw new Forbidden("Verify your email address before writing reviews.");
  }
  return writeContribution(ctx, {
    paperRef: input.paperId,
    limit: { operation: "human-review", writer: caller.ownerId },
    precheck: async (db, target) => {
      if (target.ownerId === caller.ownerId) {
        throw new Forbidden("You submitted this paper; reviews come from other people.");
      }
      await assertFirstReview(db, target, reviewer, duplicate);
    },
    insert: async (db, target, now) => {
      const id = await insertReview(db, target, now, reviewer, review);
      return {
        review: {
          id,
          paper_id: target.paperId,
          paper_version: target.version,
          advisory: false as const,
          scores: review.scores,
          body: review.body,
          created_at: now.toISOString(),
          author: { owner_handle: owner.handle },
          ...NO_FEEDBACK,
        },
      };
    },
    conflict: duplicate,
  });
}
