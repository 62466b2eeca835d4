/** @module listPaperVersions: every version of a visible paper with its changelog and screening. */
import { and, asc, eq, isNotNull } from "drizzle-orm";
import { papers, paperVersions, screeningResults } from "../../db/schema/index.ts";
import type { ServiceContext } from "../context.ts";
import { parsePaperRef } from "../ids.ts";
import { byScreener, type StoredReason, storedReasons } from "../screening/index.ts";
import { addressesOf } from "./addresses.ts";
import { paperNotFound } from "./get.ts";
import { canSeePaper } from "./visibility.ts";

interface VersionEntry {
  version: number;
  title: string;
  ai_model: string;
  created_at: string;
  changelog: string | null;
  /** Reviews of earlier versions this version says it addresses (ids). */
  addresses: string[];
  verification: { status: "passed" | "warnings"; screened_at: string; screened_by: string };
}

/** A warning screening recorded for a published version, with the screener that noted it. */
export interface ScreeningWarning extends Omit<StoredReason, "severity"> {
  /** Which screener noted it: `quire-rules/…` or `llm:<model>`. */
  screener: string;
}

export interface PaperVersions {
  paper_id: string;
  current_version: number;
  /** Oldest first. */
  versions: VersionEntry[];
}

/**
 * The version history the paper page shows: each version's title, model, date and
 * changelog, oldest first. Visibility is the paper's (the same 404 as `getPaper` for an
 * unknown, withdrawn or removed paper). Versions are immutable and few, so this reads them
 * all; bodies are not read.
 */
export async function listPaperVersions(
  ctx: ServiceContext,
  input: { id: string },
): Promise<PaperVersions> {
  const ref = parsePaperRef(input.id);
  if (!ref) throw paperNotFound(input.id);
  const [paper] = await ctx.db
    .select({ status: papers.status, ownerId: papers.ownerId, current: papers.currentVersion })
    .from(papers)
    .where(eq(papers.id, ref.id))
    .limit(1);
  if (!paper || !canSeePaper(ctx.caller, paper)) throw paperNotFound(input.id);
  const [addresses, rows] = await Promise.all([
    addressesOf(ctx.db, ref.id),
    ctx.db
      .select({
        version: paperVersions.version,
        title: paperVersions.title,
        aiModel: paperVersions.aiModel,
        createdAt: paperVersions.createdAt,
        changelog: paperVersions.changelog,
        screeningStatus: paperVersions.screeningStatus,
        screenedAt: paperVersions.screenedAt,
        screenedBy: paperVersions.screenedBy,
      })
      .from(paperVersions)
      .where(eq(paperVersions.paperId, ref.id))
      .orderBy(asc(paperVersions.version)),
  ]);
  return {
    paper_id: ref.id,
    current_version: paper.current,
    versions: rows.map((r) => ({
      version: r.version,
      title: r.title,
      ai_model: r.aiModel,
      created_at: r.createdAt.toISOString(),
      changelog: r.changelog,
      addresses: addresses.get(r.version) ?? [],
      verification: {
        status: r.screeningStatus,
        screened_at: r.screenedAt.toISOString(),
        screened_by: r.screenedBy,
      },
    })),
  };
}

/**
 * The warnings automated screening recorded for one published version (empty when it
 * passed clean). They are shown to readers beside the "passed with warnings" badge, since a
 * badge alone does not say what to read with care. Only `warning`-severity reasons exist for
 * a published version; `reject` ones never publish. Every screener's record of the version
 * counts (rules first, then the LLM's), as the owner sees them.
 */
export async function getScreeningWarnings(
  ctx: ServiceContext,
  input: { id: string; version: number },
): Promise<ScreeningWarning[]> {
  const ref = parsePaperRef(input.id);
  if (!ref) throw paperNotFound(input.id);
  const [paper] = await ctx.db
    .select({ status: papers.status, ownerId: papers.ownerId })
    .from(papers)
    .where(eq(papers.id, ref.id))
    .limit(1);
  if (!paper || !canSeePaper(ctx.caller, paper)) throw paperNotFound(input.id);
  const rows = await ctx.db
    .select({ reasons: screeningResults.reasons, screener: screeningResults.screener })
    .from(screeningResults)
    .where(
      and(
        eq(screeningResults.paperId, ref.id),
        eq(screeningResults.version, input.version),
        isNotNull(screeningResults.version),
      ),
    )
    .orderBy(asc(screeningResults.createdAt), asc(screeningResults.id));
  return rows.sort(byScreener).flatMap((row) =>
    storedReasons(row.reasons)
      .filter((reason) => reason.severity === "warning")
      .map(({ severity: _severity, ...reason }) => ({ ...reason, screener: row.screener })),
  );
}
