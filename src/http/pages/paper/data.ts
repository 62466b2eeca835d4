/**
 * @module What the paper page shows, loaded in one go: the version, its history and
 * screening warnings, one page each of comments, human reviews and AI reviews, and the
 * papers closest to it.
 */

import type { CommentList, ReviewList } from "../../../services/contributions/index.ts";
import { listComments, listReviews, myVotes } from "../../../services/contributions/index.ts";
import type { PaperDetail } from "../../../services/papers/index.ts";
import {
  getPaper,
  getScreeningWarnings,
  listPaperVersions,
  type PaperVersions,
  type RelatedPapers,
  relatedPapers,
  type ScreeningWarning,
} from "../../../services/papers/index.ts";
import type { Page } from "../page.ts";
import type { ScoreKey } from "../reading-parts.tsx";

/** Comments per page: 20 long comments still keep the page light. */
export const COMMENTS_PAGE_SIZE = 20;
/** Reviews per page, per kind. */
const REVIEWS_PAGE_SIZE = 10;
/** Related papers shown: the API's default. */
const RELATED_SHOWN = 5;

export interface ReviewFormState {
  errors: Partial<Record<ScoreKey | "body", string>>;
  general: string | null;
}

export interface PaperData {
  ref: string;
  detail: PaperDetail;
  versions: PaperVersions;
  warnings: ScreeningWarning[];
  comments: CommentList;
  human: NonNullable<ReviewList["human"]>;
  ai: NonNullable<ReviewList["ai_advisory"]>;
  /** Papers closest to the shown version's text. */
  related: RelatedPapers["related"];
  /** The signed-in person's votes on the shown reviews. */
  myVotes: Map<string, "helpful" | "unhelpful">;
}

/** Reads a cursor parameter; an empty one is absent. */
export function cursorParam(p: Page, name: string): string | undefined {
  const value = p.c.req.query(name);
  return value === undefined || value === "" ? undefined : value;
}
export async function loadPaper(p: Page, ref: string): Promise<PaperData> {
  const detail = await getPaper(p.ctx, { id: ref });
  const commentsCursor = cursorParam(p, "comments");
  const humanCursor = cursorParam(p, "human");
  const aiCursor = cursorParam(p, "ai");
  const [versions, comments, human, ai, related] = await Promise.all([
    listPaperVersions(p.ctx, { id: detail.paper.id }),
    listComments(p.ctx, {
      paperId: ref,
      order: "thread",
      limit: COMMENTS_PAGE_SIZE,
      ...(commentsCursor ? { cursor: commentsCursor } : {}),
    }),
    listReviews(p.ctx, {
      paperId: ref,
      kind: "human",
      limit: REVIEWS_PAGE_SIZE,
      ...(humanCursor ? { cursor: humanCursor } : {}),
    }),
    listReviews(p.ctx, {
      paperId: ref,
      kind: "ai_advisory",
      limit: REVIEWS_PAGE_SIZE,
      ...(aiCursor ? { cursor: aiCursor } : {}),
    }),
    relatedPapers(p.ctx, { id: ref, limit: RELATED_SHOWN }),
  ]);
  const shown = versions.versions.find((v) => v.version === detail.version.version);
  const warnings =
    shown?.verification.status === "warnings"
      ? await getScreeningWarnings(p.ctx, {
          id: detail.paper.id,
          version: detail.version.version,
        })
      : [];
  if (!human.human || !ai.ai_advisory) throw new Error("review lists missing");
  const votes = await myVotes(p.ctx, [
    ...human.human.reviews.map((r) => r.id),
    ...ai.ai_advisory.reviews.map((r) => r.id),
  ]);
  return {
    ref,
    detail,
    versions,
    warnings,
    comments,
    human: human.human,
    ai: ai.ai_advisory,
    related: related.related,
    myVotes: votes,
  };
}
