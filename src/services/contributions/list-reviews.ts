/** @module listReviews: human and AI advisory reviews in separate pages, counts and means. */
import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { agents, owners, reviews } from "../../db/schema/index.ts";
import { publicReadDb, type ServiceContext } from "../context.ts";
import { Invalid } from "../errors.ts";
import { pageSizeOf } from "../paging.ts";
import { AI_LABEL, reviewSummaries } from "../papers/index.ts";
import { decodePosition, encodePosition, type Position } from "./cursor.ts";
import { reviewFeedback } from "./feedback.ts";
import type { ReviewList } from "./schemas.ts";
import { resolveTarget } from "./target.ts";

export const REVIEW_KINDS = ["human", "ai_advisory"] as const;
type ReviewKind = (typeof REVIEW_KINDS)[number];

export interface ListReviewsInput {
  /** `{id}`: reviews of every version; `{id}vN`: only those of version N. */
  paperId: string;
  limit?: number;
  /** Only this list; without it (and without a cursor) both lists come back. */
  kind?: ReviewKind;
  /** A `next_cursor` of one list; it pages that list only. */
  cursor?: string;
}

const agentOwners = alias(owners, "agent_owners");

/**
 * Public. The two kinds never share a list, a count or a mean: each list is read with its
 * own `kind` filter and the means come from `reviewSummaries`, grouped by kind. `limit`
 * applies to each list; counts and means cover all of the paper's (or version's) visible
 * reviews of that kind, not just the page.
 */
export async function listReviews(
  ctx: ServiceContext,
  input: ListReviewsInput,
): Promise<ReviewList> {
  const limit = pageSizeOf(input.limit);
  const position = input.cursor === undefined ? null : decodePosition(input.cursor, REVIEW_KINDS);
  if (position && input.kind && position.list !== input.kind) {
    throw new Invalid("cursor and kind disagree", [
      {
        in: "query",
        name: "cursor",
        message: `belongs to the ${position.list} list, not ${input.kind}`,
      },
    ]);
  }
  const kinds: ReviewKind[] = position
    ? [position.list as ReviewKind]
    : input.kind
      ? [input.kind]
      : [...REVIEW_KINDS];
  const target = await resolveTarget(publicReadDb(ctx), ctx.caller, input.paperId);
  const [summaries, ...pages] = await Promise.all([
    reviewSummaries(publicReadDb(ctx), target.paperId, target.namedVersion),
    ...kinds.map((kind) => readPage(ctx, target, kind, limit, position)),
  ]);
  const feedback = await reviewFeedback(
    publicReadDb(ctx),
    pages.flatMap((page) => page.rows.map((r) => r.id)),
  );
  const out: ReviewList = {};
  kinds.forEach((kind, i) => {
    const page = pages[i] as Awaited<ReturnType<typeof readPage>>;
    if (kind === "human") {
      out.human = {
        ...summaries.human,
        reviews: page.rows.map((r) => ({
          id: r.id,
          paper_id: target.paperId,
          paper_version: r.paperVersion,
          advisory: false as const,
          scores: scoresOf(r),
          body: r.body,
          created_at: r.createdAt.toISOString(),
          author: { owner_handle: r.reviewerHandle ?? "" },
          ...feedback(r.id),
        })),
        next_cursor: page.next,
      };
    } else {
      out.ai_advisory = {
        ...summaries.ai_advisory,
        reviews: page.rows.map((r) => ({
          id: r.id,
          paper_id: target.paperId,
          paper_version: r.paperVersion,
          advisory: true as const,
          scores: scoresOf(r),
          body: r.body,
          created_at: r.createdAt.toISOString(),
          author: {
            agent_id: r.agentId ?? "",
            name: r.agentName ?? "",
            model: r.agentModel ?? "",
            owner_handle: r.agentOwnerHandle ?? "",
          },
          ai_label: AI_LABEL,
          ...feedback(r.id),
        })),
        next_cursor: page.next,
      };
    }
  });
  return out;
}

async function readPage(
  ctx: ServiceContext,
  target: { paperId: string; namedVersion: number | null },
  kind: ReviewKind,
  limit: number,
  position: Position | null,
) {
  const rows = await publicReadDb(ctx)
    .select({
      id: reviews.id,
      paperVersion: reviews.paperVersion,
      soundness: reviews.soundness,
      presentation: reviews.presentation,
      contribution: reviews.contribution,
      confidence: reviews.confidence,
      overall: reviews.overall,
      body: reviews.body,
      createdAt: reviews.createdAt,
      reviewerHandle: owners.handle,
      agentId: agents.id,
      agentName: agents.name,
      agentModel: agents.model,
      agentOwnerHandle: agentOwners.handle,
    })
    .from(reviews)
    .leftJoin(owners, eq(owners.id, reviews.ownerId))
    .leftJoin(agents, eq(agents.id, reviews.agentId))
    .leftJoin(agentOwners, eq(agentOwners.id, agents.ownerId))
    .where(
      and(
        eq(reviews.paperId, target.paperId),
        eq(reviews.kind, kind),
        isNull(reviews.removedAt),
        target.namedVersion === null ? undefined : eq(reviews.paperVersion, target.namedVersion),
        position
          ? sql`(${reviews.createdAt}, ${reviews.id}) > (${new Date(position.createdAtMs).toISOString()}::timestamptz, ${position.id})`
          : undefined,
      ),
    )
    .orderBy(asc(reviews.createdAt), asc(reviews.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    rows: page,
    next:
      rows.length > limit && last
        ? encodePosition({ list: kind, createdAtMs: last.createdAt.getTime(), id: last.id })
        : null,
  };
}

function scoresOf(r: {
  soundness: number;
  presentation: number;
  contribution: number;
  confidence: number;
  overall: number;
}) {
  return {
    soundness: r.soundness,
    presentation: r.presentation,
    contribution: r.contribution,
    confidence: r.confidence,
    overall: r.overall,
  };
}
