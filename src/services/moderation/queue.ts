/** @module listModerationQueue: papers waiting for a moderator (held) and published papers with warnings (flagged). */
import { and, asc, count, eq, inArray, notExists, type SQL } from "drizzle-orm";
import { z } from "zod";
import {
  moderationEvents,
  owners,
  papers,
  paperVersions,
  screeningResults,
} from "../../db/schema/index.ts";
import type { ServiceContext } from "../context.ts";
import { PageSizeSchema } from "../paging.ts";
import { isCurrentVersion } from "../papers/index.ts";
import { storedReasons } from "../screening/index.ts";
import { parseInput } from "../validation.ts";
import { requireModerator } from "./authorize.ts";
import type { ModerationQueue, QueuePaper, QueueScreening } from "./schemas.ts";
import { clearedWhere } from "./transition.ts";

const QueueInputSchema = z.object({ limit: PageSizeSchema });

/**
 * The two queues, oldest first so the longest wait is handled first. Held papers are
 * `submitted` ones (the submit flow stores them when the LLM screener is unavailable, with
 * a `held:` status reason). Flagged papers are published ones whose current version has
 * screening warnings and no clearing entry in the log for that version, so a new version
 * with warnings comes back. Each paper brings every screening run of its current version
 * with the reasons, which is what a moderator decides on. Moderators only.
 */
export async function listModerationQueue(
  ctx: ServiceContext,
  raw: { limit?: number } = {},
): Promise<ModerationQueue> {
  requireModerator(ctx);
  const { limit } = parseInput(QueueInputSchema, raw, "query");
  const held = eq(papers.status, "submitted");
  const flagged = and(
    eq(papers.status, "published"),
    eq(paperVersions.screeningStatus, "warnings"),
    notExists(
      ctx.db
        .select({ id: moderationEvents.id })
        .from(moderationEvents)
        .where(clearedWhere(papers.id, papers.currentVersion)),
    ),
  ) as SQL;
  const [heldRows, heldCount, flaggedRows, flaggedCount] = await Promise.all([
    queueRows(ctx, held, limit),
    queueCount(ctx, held),
    queueRows(ctx, flagged, limit),
    queueCount(ctx, flagged),
  ]);
  const screenings = await screeningsOf(ctx, [...heldRows, ...flaggedRows]);
  const withScreenings = (rows: Row[]): QueuePaper[] =>
    rows.map((row) => toQueuePaper(row, screenings.get(`${row.id}v${row.version}`) ?? []));
  return {
    held: { count: heldCount, papers: withScreenings(heldRows) },
    flagged: { count: flaggedCount, papers: withScreenings(flaggedRows) },
  };
}

type Row = Awaited<ReturnType<typeof queueRows>>[number];

function queueRows(ctx: ServiceContext, where: SQL, limit: number) {
  return ctx.db
    .select({
      id: papers.id,
      status: papers.status,
      version: papers.currentVersion,
      publishedAt: papers.publishedAt,
      updatedAt: papers.updatedAt,
      statusReason: papers.statusReason,
      ownerHandle: owners.handle,
      title: paperVersions.title,
      abstract: paperVersions.abstract,
      aiModel: paperVersions.aiModel,
      screeningStatus: paperVersions.screeningStatus,
      screenedBy: paperVersions.screenedBy,
      screenedAt: paperVersions.screenedAt,
    })
    .from(papers)
    .innerJoin(paperVersions, isCurrentVersion)
    .leftJoin(owners, eq(owners.id, papers.ownerId))
    .where(where)
    .orderBy(asc(paperVersions.screenedAt), asc(papers.id))
    .limit(limit);
}

async function queueCount(ctx: ServiceContext, where: SQL): Promise<number> {
  const [row] = await ctx.db
    .select({ n: count() })
    .from(papers)
    .innerJoin(paperVersions, isCurrentVersion)
    .where(where);
  return Number(row?.n ?? 0);
}

/** Screening runs of the listed papers' current versions, keyed `idvN`, oldest first. */
async function screeningsOf(
  ctx: ServiceContext,
  rows: Row[],
): Promise<Map<string, QueueScreening[]>> {
  const out = new Map<string, QueueScreening[]>();
  if (rows.length === 0) return out;
  const wanted = new Set(rows.map((r) => `${r.id}v${r.version}`));
  const found = await ctx.db
    .select({
      paperId: screeningResults.paperId,
      version: screeningResults.version,
      screener: screeningResults.screener,
      outcome: screeningResults.outcome,
      reasons: screeningResults.reasons,
      createdAt: screeningResults.createdAt,
    })
    .from(screeningResults)
    .where(inArray(screeningResults.paperId, [...new Set(rows.map((r) => r.id))]))
    .orderBy(asc(screeningResults.createdAt), asc(screeningResults.id));
  for (const s of found) {
    const key = `${s.paperId}v${s.version}`;
    if (!wanted.has(key)) continue;
    const list = out.get(key) ?? [];
    list.push({
      screener: s.screener,
      outcome: s.outcome,
      reasons: storedReasons(s.reasons),
      created_at: s.createdAt.toISOString(),
    });
    out.set(key, list);
  }
  return out;
}

function toQueuePaper(row: Row, screenings: QueueScreening[]): QueuePaper {
  return {
    paper_id: row.id,
    status: row.status === "submitted" ? "submitted" : "published",
    version: row.version,
    title: row.title,
    abstract: row.abstract,
    ai_model: row.aiModel,
    owner_handle: row.ownerHandle,
    published_at: row.publishedAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    status_reason: row.statusReason,
    screening: {
      status: row.screeningStatus,
      screened_by: row.screenedBy,
      screened_at: row.screenedAt.toISOString(),
    },
    screenings,
  };
}
