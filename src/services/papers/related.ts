/** @module relatedPapers: other visible papers whose text is closest to one paper's. */
import { and, eq, inArray } from "drizzle-orm";
import { papers, paperVersions } from "../../db/schema/index.ts";
import { publicReadDb, type ServiceContext } from "../context.ts";
import { parsePaperRef } from "../ids.ts";
import { rankRelated } from "../search/index.ts";
import { parseInput } from "../validation.ts";
import { isCurrentVersion } from "./current-version.ts";
import { paperNotFound } from "./get.ts";
import { RelatedInputSchema, type RelatedPapers } from "./schemas.ts";
import { summaryColumns, toListItem } from "./summary.ts";
import { canSeePaper } from "./visibility.ts";

export interface RelatedPapersInput {
  /** `YYMM.NNNNN`, or `YYMM.NNNNNvN` for the papers related to version N's text. */
  id: string;
  limit?: number;
}

/**
 * The papers closest to this one by their text, from the search index (see `rankRelated`):
 * only current versions of published papers, never the paper itself or another version of
 * it, closest first. The source answers like every paper read: a paper the caller may not
 * see, a malformed id and a version that does not exist are all 404; an owner may ask about
 * their own withdrawn paper (its text is read from the version, not from the index, which no
 * longer holds it), but what comes back is always published. Subjects are not used yet.
 */
export async function relatedPapers(
  ctx: ServiceContext,
  input: RelatedPapersInput,
): Promise<RelatedPapers> {
  const { limit } = parseInput(
    RelatedInputSchema,
    { limit: input.limit },
    "query",
    "limit is out of range",
  );
  const ref = parsePaperRef(input.id);
  if (!ref) throw paperNotFound(input.id);
  const db = publicReadDb(ctx);
  const [paper] = await db
    .select({ status: papers.status, ownerId: papers.ownerId, current: papers.currentVersion })
    .from(papers)
    .where(eq(papers.id, ref.id));
  if (!paper || !canSeePaper(ctx.caller, paper)) throw paperNotFound(input.id);
  const version = ref.version ?? paper.current;
  if (version > paper.current) throw paperNotFound(input.id);

  const hits = await rankRelated(ctx, { paperId: ref.id, version }, limit);
  const rows =
    hits.length === 0
      ? []
      : await db
          .select({ ...summaryColumns, language: paperVersions.language })
          .from(papers)
          .innerJoin(paperVersions, isCurrentVersion)
          .where(
            and(
              inArray(
                papers.id,
                hits.map((h) => h.paperId),
              ),
              eq(papers.status, "published"),
            ),
          );
  const byId = new Map(rows.map((r) => [r.id, r]));
  const related: RelatedPapers["related"] = [];
  for (const hit of hits) {
    const row = byId.get(hit.paperId);
    if (row) related.push({ ...toListItem(row), language: row.language, score: hit.score });
  }
  return { paper_id: ref.id, version, related };
}
