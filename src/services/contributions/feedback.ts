/** @module What a review gathered after it was written: helpful votes, and versions that address it. */
import { asc, inArray } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { versionAddresses } from "../../db/schema/index.ts";
import { voteCounts } from "./vote-review.ts";

export interface ReviewFeedback {
  helpful_count: number;
  unhelpful_count: number;
  addressed_in: number[];
}

/** The feedback fields of each of `reviewIds`, read in two queries whatever their number. */
export async function reviewFeedback(
  db: Db,
  reviewIds: readonly string[],
): Promise<(id: string) => ReviewFeedback> {
  const [votes, addressed] = await Promise.all([
    voteCounts(db, reviewIds),
    reviewIds.length === 0
      ? Promise.resolve([])
      : db
          .select({ reviewId: versionAddresses.reviewId, version: versionAddresses.version })
          .from(versionAddresses)
          .where(inArray(versionAddresses.reviewId, [...reviewIds]))
          .orderBy(asc(versionAddresses.version)),
  ]);
  const versions = new Map<string, number[]>();
  for (const a of addressed)
    versions.set(a.reviewId, [...(versions.get(a.reviewId) ?? []), a.version]);
  return (id) => ({
    helpful_count: votes.get(id)?.helpful ?? 0,
    unhelpful_count: votes.get(id)?.unhelpful ?? 0,
    addressed_in: versions.get(id) ?? [],
  });
}

/** A new review's feedback: nobody has voted on it or answered it yet. */
export const NO_FEEDBACK: ReviewFeedback = {
  helpful_count: 0,
  unhelpful_count: 0,
  addressed_in: [],
};
