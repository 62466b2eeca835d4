/** @module An owner's own papers in every status, with what the screeners said about them. */
import { and, desc, eq, inArray, isNull } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import {
  type PaperStatus,
  papers,
  paperVersions,
  screeningResults,
} from "../../db/schema/index.ts";
import type { ServiceContext } from "../context.ts";
import { Forbidden, NotFound } from "../errors.ts";
import { parsePaperRef } from "../ids.ts";
import { byScreener, type StoredReason, storedReasons } from "../screening/index.ts";
import { isCurrentVersion } from "./current-version.ts";

/** A screening reason as the owner sees it, with the screener that gave it. */
interface OwnReason extends StoredReason {
  screener: string;
}

export interface OwnPaper {
  id: string;
  /** `submitted` is a paper held for a moderator (the LLM screener gave no verdict). */
  status: PaperStatus;
  /** `held: …`, the owner's withdrawal reason, or a moderator's reason; null otherwise. */
  status_reason: string | null;
  title: string;
  version: number;
  published_at: string;
  updated_at: string;
  /** Subject codes, the primary first; empty for a paper without subjects. */
  subjects: string[];
  /** For a paper without subjects: the screener's suggestion (services/papers suggestSubject). */
  suggested_subject: string | null;
  /** The current version's screening: its status, screeners and every reason. */
  screening: {
    status: "passed" | "warnings";
    screened_at: string;
    screened_by: string;
    reasons: OwnReason[];
  };
}

export interface OwnPaperDetail extends OwnPaper {
  current: {
    abstract: string;
    body: string;
    ai_model: string;
    license: string;
    keywords: string[];
    changelog: string | null;
  };
}

/** A submission the screeners rejected: it has no paper (or did not become a new version). */
interface RejectedSubmission {
  screening_id: string;
  /** The paper a rejected new version was for; null for a rejected new paper. */
  paper_id: string | null;
  title: string;
  created_at: string;
  reasons: OwnReason[];
}

export interface OwnPapers {
  papers: OwnPaper[];
  rejected: RejectedSubmission[];
}

/** Bounds of the owner's lists: the most recently changed papers and rejections. */
const OWN_PAPERS_MAX = 500;
const OWN_REJECTIONS_MAX = 100;

function ownerOf(ctx: ServiceContext): string {
  if (ctx.caller.kind !== "owner") throw new Forbidden("Sign in to see your papers.");
  return ctx.caller.ownerId;
}

function reasonsOf(stored: unknown, screener: string): OwnReason[] {
  return storedReasons(stored).map((reason) => ({ ...reason, screener }));
}

const columns = {
  id: papers.id,
  status: papers.status,
  statusReason: papers.statusReason,
  version: papers.currentVersion,
  publishedAt: papers.publishedAt,
  updatedAt: papers.updatedAt,
  subjects: papers.subjects,
  suggestedSubject: papers.suggestedSubject,
  title: paperVersions.title,
  screeningStatus: paperVersions.screeningStatus,
  screenedAt: paperVersions.screenedAt,
  screenedBy: paperVersions.screenedBy,
};

function selectOwn(db: Db) {
  return db.select(columns).from(papers).innerJoin(paperVersions, isCurrentVersion);
}

type Row = Awaited<ReturnType<ReturnType<typeof selectOwn>["where"]>>[number];

/** The screening results of each paper's current version, keyed by paper id. */
async function currentReasons(db: Db, rows: Row[]): Promise<Map<string, OwnReason[]>> {
  const out = new Map<string, OwnReason[]>();
  if (rows.length === 0) return out;
  const results = await db
    .select({
      paperId: screeningResults.paperId,
      version: screeningResults.version,
      screener: screeningResults.screener,
      reasons: screeningResults.reasons,
    })
    .from(screeningResults)
    .where(
      inArray(
        screeningResults.paperId,
        rows.map((r) => r.id),
      ),
    );
  const current = new Map(rows.map((r) => [r.id, r.version]));
  for (const r of results.sort(byScreener)) {
    if (!r.paperId || r.version === null || current.get(r.paperId) !== r.version) continue;
    out.set(r.paperId, [...(out.get(r.paperId) ?? []), ...reasonsOf(r.reasons, r.screener)]);
  }
  return out;
}

function toOwnPaper(row: Row, reasons: OwnReason[]): OwnPaper {
  return {
    id: row.id,
    status: row.status,
    status_reason: row.statusReason,
    title: row.title,
    version: row.version,
    published_at: row.publishedAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    subjects: row.subjects,
    suggested_subject: row.subjects.length > 0 ? null : row.suggestedSubject,
    screening: {
      status: row.screeningStatus,
      screened_at: row.screenedAt.toISOString(),
      screened_by: row.screenedBy,
      reasons,
    },
  };
}

/**
 * Everything the signed-in owner has submitted: papers in every status (held, published,
 * withdrawn, removed) with their current version's screening reasons, and the submissions
 * the screeners rejected (their reasons are kept for this). Newest changes first; bounded
 * by OWN_PAPERS_MAX and OWN_REJECTIONS_MAX. Only the caller's own: the owner comes from
 * the caller, so there is nothing to guess.
 */
export async function listOwnPapers(ctx: ServiceContext): Promise<OwnPapers> {
  const ownerId = ownerOf(ctx);
  const rows = await selectOwn(ctx.db)
    .where(eq(papers.ownerId, ownerId))
    .orderBy(desc(papers.updatedAt), desc(papers.id))
    .limit(OWN_PAPERS_MAX);
  const reasons = await currentReasons(ctx.db, rows);

  // A rejected submission left one row per screener that ran, all without a version and
  // written at the same instant; they are grouped back into one submission here.
  const rejectedRows = await ctx.db
    .select()
    .from(screeningResults)
    .where(and(eq(screeningResults.ownerId, ownerId), isNull(screeningResults.version)))
    .orderBy(desc(screeningResults.createdAt))
    .limit(OWN_REJECTIONS_MAX * 2);
  const groups = new Map<string, (typeof rejectedRows)[number][]>();
  for (const row of rejectedRows) {
    const key = `${row.createdAt.toISOString()}|${row.contentHash}|${row.paperId ?? ""}`;
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  const rejected: RejectedSubmission[] = [];
  for (const group of groups.values()) {
    const decisive = group.find((r) => r.outcome === "rejected");
    if (!decisive) continue;
    rejected.push({
      screening_id: decisive.id,
      paper_id: decisive.paperId,
      title: decisive.title,
      created_at: decisive.createdAt.toISOString(),
      reasons: group.sort(byScreener).flatMap((r) => reasonsOf(r.reasons, r.screener)),
    });
  }
  return {
    papers: rows.map((r) => toOwnPaper(r, reasons.get(r.id) ?? [])),
    rejected: rejected.slice(0, OWN_REJECTIONS_MAX),
  };
}

/**
 * One of the caller's own papers with its current version's text (to revise it) and
 * screening. Someone else's paper is NotFound, whatever its status: this is the owner's
 * view, not a public one.
 */
export async function getOwnPaper(
  ctx: ServiceContext,
  input: { id: string },
): Promise<OwnPaperDetail> {
  const ownerId = ownerOf(ctx);
  const ref = parsePaperRef(input.id);
  if (!ref) throw new NotFound(`You have no paper with the id "${input.id}".`);
  const [row] = await selectOwn(ctx.db)
    .where(and(eq(papers.id, ref.id), eq(papers.ownerId, ownerId)))
    .limit(1);
  if (!row) throw new NotFound(`You have no paper with the id "${input.id}".`);
  const [version] = await ctx.db
    .select()
    .from(paperVersions)
    .where(and(eq(paperVersions.paperId, row.id), eq(paperVersions.version, row.version)))
    .limit(1);
  if (!version) throw new NotFound(`You have no paper with the id "${input.id}".`);
  const reasons = await currentReasons(ctx.db, [row]);
  return {
    ...toOwnPaper(row, reasons.get(row.id) ?? []),
    current: {
      abstract: version.abstract,
      body: version.body,
      ai_model: version.aiModel,
      license: version.license,
      keywords: version.keywords,
      changelog: version.changelog,
    },
  };
}
