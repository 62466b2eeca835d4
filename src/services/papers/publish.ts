/** @module publishVersion: the one way a version enters the archive. */
import { and, eq, ne, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import {
  chunks,
  owners,
  paperIdCounters,
  papers,
  paperVersions,
  screeningResults,
} from "../../db/schema/index.ts";
import { chunkPaper } from "../chunks/chunker.ts";
import type { ServiceContext } from "../context.ts";
import { Conflict, type FieldIssue, Forbidden, Invalid, NotFound } from "../errors.ts";
import { formatPaperId, newId, paperIdMonth, parsePaperRef } from "../ids.ts";
import {
  type Fingerprint,
  fingerprint,
  NEAR_DUPLICATE_MAX_DISTANCE,
} from "../screening/fingerprint.ts";
import {
  type DuplicateEvidence,
  type ScreeningInput,
  type ScreeningOutcome,
  screenRules,
} from "../screening/rules.ts";
import { reindexPaper } from "../search/indexing.ts";

export interface PublishInput extends ScreeningInput {
  /** Set to publish a new version of this paper; absent for a new paper. */
  paperId?: string;
  changelog?: string | null;
  /** Owner of a new paper. Owners publish as themselves; only operators may name another. */
  ownerId?: string | null;
  /** Original publication time, for operator imports of existing records. */
  publishedAt?: Date;
  /** Makes operator imports idempotent: a second publish with the same key is a no-op. */
  importKey?: string;
}

export type PublishResult =
  | { outcome: "published"; paper_id: string; version: number; screening: ScreeningOutcome }
  | { outcome: "rejected"; screening_id: string; screening: ScreeningOutcome }
  | { outcome: "already_imported"; paper_id: string };

const MAX_SEQ_PER_MONTH = 99_999;

/**
 * Screens, assigns the `YYMM.NNNNN` id, chunks and stores a version — everything in one
 * transaction, so a version is either fully published (paper, version, chunks, screening
 * record) or absent. Rejected submissions get no paper id; their screening result is kept
 * so the submitter can see the reasons. Duplicate checks run under an advisory lock on the
 * content hash, so two identical concurrent submissions cannot both pass.
 */
export async function publishVersion(
  ctx: ServiceContext,
  raw: PublishInput,
): Promise<PublishResult> {
  const input = normalize(raw);
  rejectNul(input);
  const ownerId = await authorizePublish(ctx, input);
  const print = fingerprint(input);
  const now = ctx.clock.now();

  return ctx.db.transaction(async (tx) => {
    const db = tx as unknown as Db;
    await db.execute(sql`select pg_advisory_xact_lock(hashtextextended(${print.contentHash}, 0))`);
    if (input.importKey) {
      const [existing] = await db
        .select({ id: papers.id })
        .from(papers)
        .where(eq(papers.importKey, input.importKey))
        .limit(1);
      if (existing) return { outcome: "already_imported" as const, paper_id: existing.id };
    }
    const selfId = input.paperId ? parsePaperRef(input.paperId)?.id : undefined;
    const evidence = await findDuplicates(db, print, selfId);
    const screening = screenRules(input, evidence);
    if (screening.status === "rejected") {
      const screeningId = newId("scr", now);
      await db.insert(screeningResults).values({
        id: screeningId,
        paperId: selfId ?? null,
        version: null,
        ownerId,
        title: input.title,
        contentHash: print.contentHash,
        outcome: "rejected",
        screener: screening.screened_by,
        reasons: screening.reasons,
        createdAt: now,
      });
      return { outcome: "rejected" as const, screening_id: screeningId, screening };
    }

    const { paperId, version } = selfId
      ? await nextVersion(db, selfId, now)
      : await newPaper(db, { ownerId, publishedAt: input.publishedAt ?? now, now, input });
    const createdAt = version === 1 ? (input.publishedAt ?? now) : now;
    await db.insert(paperVersions).values({
      paperId,
      version,
      title: input.title,
      abstract: input.abstract,
      body: input.body,
      aiModel: input.ai_model,
      license: input.license,
      keywords: input.keywords,
      language: screening.language,
      changelog: input.changelog ?? null,
      createdAt,
      screeningStatus: screening.status,
      screenedAt: now,
      screenedBy: screening.screened_by,
      contentHash: print.contentHash,
      simhash: print.simhash,
      simhashBands: bandKeys(print),
    });
    const spans = chunkPaper(input, { maxChars: ctx.settings.chunkMaxChars });
    if (spans.length > 0) {
      await db.insert(chunks).values(
        spans.map((c) => ({
          paperId,
          version,
          chunkIndex: c.chunk_index,
          field: c.field,
          section: c.section,
          start: c.start,
          end: c.end,
          content: c.content,
        })),
      );
    }
    // Same transaction: the new version is searchable (and the old one is not) exactly
    // when it is published; dense embeddings are only queued, never awaited.
    await reindexPaper({ ...ctx, db }, paperId);
    await db.insert(screeningResults).values({
      id: newId("scr", now),
      paperId,
      version,
      ownerId,
      title: input.title,
      contentHash: print.contentHash,
      outcome: screening.status,
      screener: screening.screened_by,
      reasons: screening.reasons,
      createdAt: now,
    });
    return { outcome: "published" as const, paper_id: paperId, version, screening };
  });
}

/** PostgreSQL text cannot hold NUL; say so as a validation error instead of failing later. */
function rejectNul(input: PublishInput): void {
  const fields = ["title", "abstract", "body", "ai_model", "license", "changelog"] as const;
  const issues = fields
    .filter((f) => typeof input[f] === "string" && (input[f] as string).includes("\u0000"))
    .map((f): FieldIssue => ({ in: "body", name: f, message: "must not contain NUL characters" }));
  if (input.keywords.some((k) => k.includes("\u0000"))) {
    issues.push({ in: "body", name: "keywords", message: "must not contain NUL characters" });
  }
  if (issues.length > 0) throw new Invalid("The paper contains NUL characters.", issues);
}

function normalize(raw: PublishInput): PublishInput {
  const keywords = [...new Set((raw.keywords ?? []).map((k) => k.trim()).filter(Boolean))];
  return {
    ...raw,
    title: (raw.title ?? "").trim(),
    abstract: (raw.abstract ?? "").trim(),
    body: raw.body ?? "",
    ai_model: (raw.ai_model ?? "").trim(),
    license: (raw.license ?? "").trim(),
    keywords,
    changelog: raw.changelog?.trim() || null,
  };
}

/** Decides whose paper this is; the owner comes from the caller, never from input. */
async function authorizePublish(ctx: ServiceContext, input: PublishInput): Promise<string | null> {
  const caller = ctx.caller;
  if (caller.kind === "operator") {
    if (input.paperId) {
      const [paper] = await ctx.db
        .select({ ownerId: papers.ownerId })
        .from(papers)
        .where(eq(papers.id, parsePaperRef(input.paperId)?.id ?? ""))
        .limit(1);
      return paper?.ownerId ?? null;
    }
    return input.ownerId ?? null;
  }
  if (caller.kind !== "owner") {
    throw new Forbidden("Only signed-in owners (or operators) can publish papers.");
  }
  if (input.publishedAt || input.importKey) {
    throw new Forbidden("Only operators can set publication dates or import keys.");
  }
  const [owner] = await ctx.db
    .select({ verified: owners.emailVerifiedAt })
    .from(owners)
    .where(eq(owners.id, caller.ownerId))
    .limit(1);
  if (!owner?.verified) throw new Forbidden("Verify your email address before submitting papers.");
  if (input.paperId) {
    const [paper] = await ctx.db
      .select({ ownerId: papers.ownerId })
      .from(papers)
      .where(eq(papers.id, parsePaperRef(input.paperId)?.id ?? ""))
      .limit(1);
    if (!paper) throw new NotFound(`No paper has the id "${input.paperId}".`);
    if (paper.ownerId !== caller.ownerId) {
      throw new Forbidden("Only the paper's owner can publish new versions of it.");
    }
  }
  return caller.ownerId;
}

async function newPaper(
  db: Db,
  args: { ownerId: string | null; publishedAt: Date; now: Date; input: PublishInput },
): Promise<{ paperId: string; version: number }> {
  const yymm = paperIdMonth(args.publishedAt);
  const [counter] = await db
    .insert(paperIdCounters)
    .values({ yymm, last: 1 })
    .onConflictDoUpdate({
      target: paperIdCounters.yymm,
      set: { last: sql`${paperIdCounters.last} + 1` },
    })
    .returning({ last: paperIdCounters.last });
  if (!counter || counter.last > MAX_SEQ_PER_MONTH) {
    throw new Conflict(`The id space for ${yymm} is exhausted.`);
  }
  const paperId = formatPaperId(yymm, counter.last);
  await db.insert(papers).values({
    id: paperId,
    ownerId: args.ownerId,
    status: "published",
    currentVersion: 1,
    publishedAt: args.publishedAt,
    // The archive changed now, whatever the record's original date: harvesters (OAI-PMH
    // `from`) must see imports as new.
    updatedAt: args.now,
    importKey: args.input.importKey ?? null,
  });
  return { paperId, version: 1 };
}

async function nextVersion(
  db: Db,
  paperId: string,
  now: Date,
): Promise<{ paperId: string; version: number }> {
  const [paper] = await db
    .select({ status: papers.status, current: papers.currentVersion })
    .from(papers)
    .where(eq(papers.id, paperId))
    .for("update")
    .limit(1);
  if (!paper) throw new NotFound(`No paper has the id "${paperId}".`);
  if (paper.status !== "published") {
    throw new Conflict(
      `Paper ${paperId} is ${paper.status}; only published papers get new versions.`,
    );
  }
  const version = paper.current + 1;
  await db
    .update(papers)
    .set({ currentVersion: version, updatedAt: now })
    .where(eq(papers.id, paperId));
  return { paperId, version };
}

/** Band values tagged with their position, so band 0 never matches band 2 by accident. */
function bandKeys(print: Fingerprint): number[] {
  return print.bands.map((band, i) => i * 65_536 + band);
}

async function findDuplicates(
  db: Db,
  print: Fingerprint,
  selfId: string | undefined,
): Promise<DuplicateEvidence> {
  const visible = and(
    eq(papers.id, paperVersions.paperId),
    eq(papers.status, "published"),
    selfId ? ne(papers.id, selfId) : undefined,
  );
  const [exact] = await db
    .select({ paperId: paperVersions.paperId })
    .from(paperVersions)
    .innerJoin(papers, visible)
    .where(eq(paperVersions.contentHash, print.contentHash))
    .limit(1);
  // Bands narrow the scan through the GIN index; the Hamming distance is computed in SQL,
  // so only true near duplicates come back however large the archive grows.
  const distance = sql<number>`bit_count((${paperVersions.simhash} # ${print.simhash})::bit(64))`;
  const candidates = await db
    .select({
      paperId: paperVersions.paperId,
      distance: sql<number>`min(${distance})`.mapWith(Number),
    })
    .from(paperVersions)
    .innerJoin(papers, visible)
    .where(
      and(
        sql`${paperVersions.simhashBands} && ${sql.raw(`ARRAY[${bandKeys(print).join(",")}]`)}::int[]`,
        sql`${distance} <= ${NEAR_DUPLICATE_MAX_DISTANCE}`,
      ),
    )
    .groupBy(paperVersions.paperId)
    .orderBy(sql`min(${distance})`)
    .limit(20);
  const near = new Map(candidates.map((c) => [c.paperId, c.distance]));
  return {
    exactDuplicateOf: exact?.paperId ?? null,
    nearDuplicates: [...near].map(([paper_id, distance]) => ({ paper_id, distance })),
  };
}
