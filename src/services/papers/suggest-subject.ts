/**
 * @module suggestSubject: for a paper published without subjects, the subject its closest
 * papers share — the screener's suggestion, shown to the owner and to moderators, never
 * applied by itself (docs/adr/0041-arxiv-subjects-and-one-filter-schema.md).
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { papers } from "../../db/schema/index.ts";
import type { ServiceContext } from "../context.ts";
import { Forbidden } from "../errors.ts";
import { parsePaperRef } from "../ids.ts";
import { rankRelated } from "../search/index.ts";
import { paperNotFound } from "./get.ts";

export interface SuggestionSettings {
  /** Closest papers asked. */
  neighbours: number;
  /** A cross-listed subject counts this much of a primary one. */
  crossListWeight: number;
  /** The winner's share of all the votes cast, at least. */
  minShare: number;
  /** Papers that name the winner, at least. */
  minSupport: number;
}

/** How the neighbours vote; chosen on the dev half of `npm run eval:related -- --tune`. */
export const SUGGESTION_SETTINGS: Readonly<SuggestionSettings> = {
  neighbours: 10,
  crossListWeight: 0.5,
  minShare: 0.5,
  minSupport: 2,
};

export interface Neighbour {
  /** The neighbour's subjects, primary first (empty: it casts no vote). */
  subjects: readonly string[];
  /** Its closeness, 0..1 (the related score). */
  score: number;
}

/**
 * The subject the neighbours agree on: each votes its closeness for its primary subject and
 * `crossListWeight` of it for each cross-list; the winner needs `minShare` of the votes and
 * `minSupport` papers naming it. Ties go to the code first in order, so the result is stable.
 */
export function voteSubject(
  neighbours: readonly Neighbour[],
  settings: SuggestionSettings = SUGGESTION_SETTINGS,
): string | null {
  const weight = new Map<string, number>();
  const support = new Map<string, number>();
  let total = 0;
  // Summed in one order whatever order the neighbours come in: floating-point sums depend on
  // their order, and a share exactly at minShare must not pass in one order and fail in another.
  const key = (n: Neighbour) => n.subjects.join(" ");
  const ordered = [...neighbours].sort(
    (a, b) => a.score - b.score || (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0),
  );
  for (const n of ordered) {
    n.subjects.forEach((code, i) => {
      const w = n.score * (i === 0 ? 1 : settings.crossListWeight);
      weight.set(code, (weight.get(code) ?? 0) + w);
      support.set(code, (support.get(code) ?? 0) + 1);
      total += w;
    });
  }
  let best: string | null = null;
  for (const [code, w] of weight) {
    const bw = best === null ? -1 : (weight.get(best) ?? 0);
    if (w > bw || (w === bw && best !== null && code < best)) best = code;
  }
  if (best === null || total <= 0) return null;
  if ((weight.get(best) ?? 0) / total < settings.minShare) return null;
  if ((support.get(best) ?? 0) < settings.minSupport) return null;
  return best;
}

/**
 * Finds the suggestion for one version of a paper from its closest published papers that have
 * subjects (the search index; the caller's database, so a write's own transaction or the
 * primary, never a lagging replica). Returns null when no subject stands out.
 */
async function findSubjectSuggestion(
  ctx: ServiceContext,
  source: { paperId: string; version: number },
  settings: SuggestionSettings = SUGGESTION_SETTINGS,
): Promise<string | null> {
  return voteSubject(await subjectNeighbours(ctx, source, settings.neighbours), settings);
}

/** The closest published papers to one version, with their subjects and closeness. */
export async function subjectNeighbours(
  ctx: ServiceContext,
  source: { paperId: string; version: number },
  count: number,
): Promise<Neighbour[]> {
  const hits = await rankRelated(ctx, source, count);
  if (hits.length === 0) return [];
  const rows = await ctx.db
    .select({ id: papers.id, subjects: papers.subjects })
    .from(papers)
    .where(
      and(
        inArray(
          papers.id,
          hits.map((h) => h.paperId),
        ),
        eq(papers.status, "published"),
      ),
    );
  const subjects = new Map(rows.map((r) => [r.id, r.subjects]));
  return hits.map((h) => ({ subjects: subjects.get(h.paperId) ?? [], score: h.score }));
}

/**
 * Stores the suggestion for a paper that has no subjects (and clears it when it has some).
 * Called after a version is published; a failure is logged and the paper stays as it is.
 */
export async function refreshSubjectSuggestion(
  ctx: ServiceContext,
  source: { paperId: string; version: number },
): Promise<void> {
  try {
    const [paper] = await ctx.db
      .select({ subjects: papers.subjects })
      .from(papers)
      .where(eq(papers.id, source.paperId));
    if (!paper) return;
    const suggestion = paper.subjects.length > 0 ? null : await findSubjectSuggestion(ctx, source);
    await setSuggestion(ctx.db, source.paperId, suggestion);
  } catch (err) {
    ctx.logger.warn({ err, paper: source.paperId }, "no subject suggestion");
  }
}

async function setSuggestion(db: Db, paperId: string, code: string | null): Promise<void> {
  await db
    .update(papers)
    .set({ suggestedSubject: code })
    .where(and(eq(papers.id, paperId), sql`${papers.suggestedSubject} is distinct from ${code}`));
}

/**
 * The stored suggestion, for the paper's owner and for moderators (it is the screener's note,
 * not part of the public record): null when the paper has subjects or none stood out.
 */
export async function subjectSuggestion(ctx: ServiceContext, id: string): Promise<string | null> {
  const ref = parsePaperRef(id);
  if (!ref) throw paperNotFound(id);
  const [row] = await ctx.db
    .select({
      ownerId: papers.ownerId,
      subjects: papers.subjects,
      suggested: papers.suggestedSubject,
    })
    .from(papers)
    .where(eq(papers.id, ref.id));
  if (!row) throw paperNotFound(id);
  const caller = ctx.caller;
  const allowed =
    caller.kind === "operator" ||
    (caller.kind === "owner" && (caller.ownerId === row.ownerId || caller.role === "moderator"));
  if (!allowed) throw new Forbidden("Only the paper's owner and moderators see its suggestion.");
  return row.subjects.length > 0 ? null : row.suggested;
}
