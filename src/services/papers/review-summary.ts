/**
 * @module Review counts and means per kind: the one query behind every review summary (the
 * paper view's and the review list's).
 */
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { reviews } from "../../db/schema/index.ts";

export type ScoreMeans = {
  soundness: number;
  presentation: number;
  contribution: number;
  confidence: number;
  overall: number;
};

export interface ReviewSummary {
  count: number;
  /** Means rounded to two decimals; null when there is no review of this kind. */
  mean: ScoreMeans | null;
}

export interface ReviewSummaries {
  human: ReviewSummary;
  ai_advisory: ReviewSummary;
}

/**
 * Counts and means of a paper's visible reviews, grouped by kind, so an AI score can only
 * ever land in the `ai_advisory` group: the kind column (tied to the author by a check
 * constraint) decides the group, never the caller. `version` narrows to one version.
 */
export async function reviewSummaries(
  db: Db,
  paperId: string,
  version: number | null = null,
): Promise<ReviewSummaries> {
  const rows = await db
    .select({
      kind: reviews.kind,
      count: sql<number>`count(*)`.mapWith(Number),
      soundness: sql<number>`avg(${reviews.soundness})`.mapWith(Number),
      presentation: sql<number>`avg(${reviews.presentation})`.mapWith(Number),
      contribution: sql<number>`avg(${reviews.contribution})`.mapWith(Number),
      confidence: sql<number>`avg(${reviews.confidence})`.mapWith(Number),
      overall: sql<number>`avg(${reviews.overall})`.mapWith(Number),
    })
    .from(reviews)
    .where(
      and(
        eq(reviews.paperId, paperId),
        isNull(reviews.removedAt),
        version === null ? undefined : eq(reviews.paperVersion, version),
      ),
    )
    .groupBy(reviews.kind);
  return {
    human: summarise(rows.find((r) => r.kind === "human")),
    ai_advisory: summarise(rows.find((r) => r.kind === "ai_advisory")),
  };
}

/** A kind's count and rounded means; no reviews of the kind gives `{ count: 0, mean: null }`. */
export function summarise(row: ({ count: number } & ScoreMeans) | undefined): ReviewSummary {
  if (!row || row.count === 0) return { count: 0, mean: null };
  return {
    count: row.count,
    mean: {
      soundness: round2(row.soundness),
      presentation: round2(row.presentation),
      contribution: round2(row.contribution),
      confidence: round2(row.confidence),
      overall: round2(row.overall),
    },
  };
}

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}
