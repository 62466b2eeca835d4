/** @module getPaper: one paper with its current (or a named) version. */
import { and, asc, eq, sql } from "drizzle-orm";
import { owners, papers, paperVersions } from "../../db/schema/index.ts";
import { publicReadDb, type ServiceContext } from "../context.ts";
import { reviewSummaries } from "../contributions/summary.ts";
import { NotFound } from "../errors.ts";
import { parsePaperRef } from "../ids.ts";
import type { PaperDetail } from "./schemas.ts";
import { selectSummaries, toListItem } from "./summary.ts";
import { canSeePaper } from "./visibility.ts";

export interface GetPaperInput {
  /** `YYMM.NNNNN` or `YYMM.NNNNNvN`. */
  id: string;
}

/**
 * Returns the paper and one version: the current one, or the one named by `vN`. A paper
 * the caller may not see, a malformed id and a version that does not exist are all 404.
 */
export async function getPaper(ctx: ServiceContext, input: GetPaperInput): Promise<PaperDetail> {
  const ref = parsePaperRef(input.id);
  if (!ref) throw paperNotFound(input.id);
  const db = publicReadDb(ctx);
  const [summary] = await selectSummaries(db).where(eq(papers.id, ref.id)).limit(1);
  if (!summary || !canSeePaper(ctx.caller, summary)) throw paperNotFound(input.id);
  const versionNumber = ref.version ?? summary.currentVersion;
  if (versionNumber > summary.currentVersion) throw paperNotFound(input.id);

  const [versionRows, current, ownerRows, reviewSummariesOfPaper] = await Promise.all([
    db
      .select({ version: paperVersions.version, createdAt: paperVersions.createdAt })
      .from(paperVersions)
      .where(eq(paperVersions.paperId, ref.id))
      .orderBy(asc(paperVersions.version)),
    db
      .select()
      .from(paperVersions)
      .where(
        and(
          eq(paperVersions.paperId, ref.id),
          sql`${paperVersions.version} in (${summary.currentVersion}, ${versionNumber})`,
        ),
      ),
    summary.ownerId
      ? db.select({ handle: owners.handle }).from(owners).where(eq(owners.id, summary.ownerId))
      : Promise.resolve([]),
    reviewSummaries(db, ref.id),
  ]);
  const head = current.find((v) => v.version === summary.currentVersion);
  const requested = current.find((v) => v.version === versionNumber);
  if (!head || !requested) throw paperNotFound(input.id);
  const ownerHandle = ownerRows[0]?.handle ?? null;

  return {
    paper: {
      ...toListItem(summary),
      abstract: head.abstract,
      authors: [
        { name: head.aiModel, kind: "ai", role: "author" },
        ...(ownerHandle
          ? [{ name: ownerHandle, kind: "human" as const, role: "submitter" as const }]
          : []),
      ],
      owner_handle: ownerHandle,
      license: head.license,
      keywords: head.keywords,
      language: head.language,
      versions: versionRows.map((v) => ({
        version: v.version,
        created_at: v.createdAt.toISOString(),
      })),
      reviews: reviewSummariesOfPaper,
    },
    version: {
      version: requested.version,
      title: requested.title,
      abstract: requested.abstract,
      body: requested.body,
      ai_model: requested.aiModel,
      created_at: requested.createdAt.toISOString(),
      changelog: requested.changelog,
    },
  };
}

export function paperNotFound(id: string): NotFound {
  return new NotFound(`No visible paper has the id "${id}".`);
}
