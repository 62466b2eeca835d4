/** @module publishVersion: the one way a version enters the archive. */
import { and, eq, inArray, ne, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import {
  chunks,
  owners,
  paperIdCounters,
  papers,
  paperVersions,
  reviews,
  screeningResults,
} from "../../db/schema/index.ts";
import { withTransaction } from "../../db/sql.ts";
import { chunkRow, chunkVersion } from "../chunks/index.ts";
import type { ServiceContext } from "../context.ts";
import { Conflict, type FieldIssue, Forbidden, Invalid, NotFound, Unavailable } from "../errors.ts";
import { keepVersionFiles, type PreparedFile, storeVersionFiles } from "../files/index.ts";
import { formatPaperId, newId, paperIdMonth, parsePaperRef } from "../ids.ts";
import { recordEvent } from "../notifications/index.ts";
import type { ReasonParams, SystemReasonParams } from "../screening/index.ts";
import {
  type DuplicateEvidence,
  type Fingerprint,
  fingerprint,
  type LlmScreener,
  LlmScreenerError,
  type LlmVerdict,
  NEAR_DUPLICATE_MAX_DISTANCE,
  type ScreeningInput,
  type ScreeningOutcome,
  screenRules,
} from "../screening/index.ts";
import { reindexPaper } from "../search/index.ts";
import { parseSubjects } from "../subjects/index.ts";
import { checkAddresses, storeAddresses } from "./addresses.ts";
import { refreshSubjectSuggestion } from "./suggest-subject.ts";
import { canSeePaper } from "./visibility.ts";

export interface PublishInput extends ScreeningInput {
  /**
   * Subject codes (services/subjects), the primary first, then up to four cross-lists;
   * aliases are stored as their canonical code. Absent on a new version: the paper keeps its
   * subjects; absent on a new paper: it has none (as papers from before subjects).
   */
  subjects?: readonly string[] | undefined;
  /** Set to publish a new version of this paper; absent for a new paper. */
  paperId?: string;
  /** What changed, up to CHANGELOG_MAX characters; owners must give one for every version after the first. */
  changelog?: string | null;
  /** Owner of a new paper. Owners publish as themselves; only operators may name another. */
  ownerId?: string | null;
  /**
   * A new version only: reviews of earlier versions it addresses (the revision form's
   * choice), checked and stored in the version's transaction.
   */
  addresses?: readonly string[];
  /** Original publication time, for operator imports of existing records. */
  publishedAt?: Date;
  /** Makes operator imports idempotent: a second publish with the same key is a no-op. */
  importKey?: string;
  /**
   * Operators only: ask the LLM screener too, when one is configured (imports skip it unless
   * asked). Owners' submissions always go through it; for them this is ignored.
   */
  llmScreening?: boolean;
  /**
   * The version's figures and supplementary files, checked and hashed by the files domain
   * (prepareSource); stored in the same transaction as the version.
   */
  files?: readonly PreparedFile[];
  /**
   * A new version without `files`: keep the figures and supplementary files of the version
   * it follows (a revision typed in the form still shows them).
   */
  keepFiles?: boolean;
}

export type PublishResult =
  | { outcome: "published"; paper_id: string; version: number; screening: ScreeningOutcome }
  /** Stored but not published: the LLM screener could not give a verdict (docs/adr/0012). */
  | { outcome: "held"; paper_id: string; version: number; screening: ScreeningOutcome }
  | { outcome: "rejected"; screening_id: string; screening: ScreeningOutcome }
  | { outcome: "already_imported"; paper_id: string };

/** Changelog bounds, in code points after trimming. */
export const CHANGELOG_MAX = 2000;

const MAX_SEQ_PER_MONTH = 99_999;

/** The LLM screener's part in one submission: its verdict, or why there is none. */
type LlmRun =
  | { kind: "verdict"; screener: LlmScreener; verdict: LlmVerdict }
  | { kind: "unavailable"; screener: LlmScreener; message: string; params: ReasonParams };

/**
 * Screens, assigns the `YYMM.NNNNN` id, chunks and stores a version. The rule screener
 * runs inside the writing transaction, under an advisory lock on the content hash, so two
 * identical concurrent submissions cannot both pass; a version is either fully stored
 * (paper, version, chunks, index, screening records) or absent. Rejected submissions get no
 * paper id; their screening results are kept so the submitter can see the reasons.
 *
 * The LLM screener (when configured; owners always, operators when asked) takes seconds,
 * so it runs first, outside any transaction: rules are checked once without the lock (a
 * rule rejection is stored at once and the model is not asked), then the model is asked,
 * then the transaction re-checks the rules (a duplicate may have been published meanwhile)
 * and applies the verdict: `reject` rejects, `flag` publishes with warnings, and no verdict
 * (down, slow, nonsense after retries) stores a new paper as `submitted` — held for a
 * moderator, unindexed, invisible. A new version of a published paper is never held (that
 * would hide the published paper): without a verdict it is refused with `Unavailable` and
 * nothing is stored. Details: docs/adr/0013-submission-and-llm-screening.md.
 */
export async function publishVersion(
  ctx: ServiceContext,
  raw: PublishInput,
): Promise<PublishResult> {
  const input = normalize(raw);
  rejectNul(input);
  const ownerId = await authorizePublish(ctx, input);
  checkChangelog(ctx, input);
  const selfId = input.paperId ? parsePaperRef(input.paperId)?.id : undefined;
  const print = fingerprint(input);
  const now = ctx.clock.now();

  const llm = llmScreenerFor(ctx, input);
  let llmRun: LlmRun | null = null;
  if (llm) {
    if (input.importKey) {
      const existing = await findImported(ctx.db, input.importKey);
      if (existing) return { outcome: "already_imported", paper_id: existing };
    }
    if (selfId) await assertRevisable(ctx.db, selfId);
    const first = screenRules(input, await findDuplicates(ctx.db, print, selfId));
    if (first.status === "rejected") {
      const screeningId = newId("scr", now);
      await ctx.db
        .insert(screeningResults)
        .values(
          screeningRow(
            { id: screeningId, selfId, version: null, ownerId, input, print, now },
            first,
          ),
        );
      return { outcome: "rejected", screening_id: screeningId, screening: first };
    }
    llmRun = await runLlm(ctx, llm, input);
    if (llmRun.kind === "unavailable" && selfId) {
      throw new Unavailable(
        "The automated screening of new versions is unavailable right now, so nothing was saved; try again in a few minutes.",
        60,
      );
    }
  }

  const result = await withTransaction(ctx.db, async (db) => {
    await db.execute(sql`select pg_advisory_xact_lock(hashtextextended(${print.contentHash}, 0))`);
    if (input.importKey) {
      const existing = await findImported(db, input.importKey);
      if (existing) return { outcome: "already_imported" as const, paper_id: existing };
    }
    const evidence = await findDuplicates(db, print, selfId);
    const rules = screenRules(input, evidence);
    const row = { selfId, ownerId, input, print, now };
    if (rules.status === "rejected") {
      const screeningId = newId("scr", now);
      await db
        .insert(screeningResults)
        .values(screeningRow({ ...row, id: screeningId, version: null }, rules));
      return { outcome: "rejected" as const, screening_id: screeningId, screening: rules };
    }
    const llmPart = llmRun ? llmOutcome(llmRun) : null;
    const screening = combine(rules, llmRun, llmPart);
    if (llmPart?.status === "rejected") {
      const screeningId = newId("scr", now);
      await db
        .insert(screeningResults)
        .values([
          screeningRow({ ...row, id: newId("scr", now), version: null }, rules),
          screeningRow({ ...row, id: screeningId, version: null }, llmPart),
        ]);
      return { outcome: "rejected" as const, screening_id: screeningId, screening };
    }
    const heldReason = llmRun?.kind === "unavailable" ? `held: ${llmRun.message}` : null;
    const held = heldReason !== null;

    const { paperId, version } = selfId
      ? await nextVersion(db, selfId, now, input.subjects)
      : await newPaper(db, {
          ownerId,
          publishedAt: input.publishedAt ?? now,
          now,
          input,
          held: heldReason,
        });
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
      language: rules.language,
      changelog: input.changelog ?? null,
      createdAt,
      screeningStatus: screening.status === "passed" ? "passed" : "warnings",
      screenedAt: now,
      screenedBy: screening.screened_by,
      contentHash: print.contentHash,
      simhash: print.simhash,
      simhashBands: bandKeys(print),
    });
    if (selfId && input.addresses?.length) {
      // Checked again under the paper's row lock (nextVersion took it): a review removed
      // since the form was read is refused, and nothing of the version is stored.
      const addressed = await checkAddresses(db, paperId, input.addresses, version);
      await storeAddresses(db, paperId, version, addressed);
      // Each addressed review's author hears of the version once (however many of their
      // reviews it addresses): the outbox row is written with the version.
      const authors = await db
        .select({ id: reviews.id, agentId: reviews.agentId, ownerId: reviews.ownerId })
        .from(reviews)
        .where(inArray(reviews.id, addressed));
      for (const review of authors) {
        await recordEvent(db, {
          kind: "revision",
          paperId,
          paperVersion: version,
          subjectId: `${paperId}v${version}`,
          actor: { ownerId },
          target: review,
          at: now,
        });
      }
    }
    if (input.files) {
      await storeVersionFiles(db, { paperId, version }, input.files, now, {
        maxBytes: ctx.settings.filesMaxBytes,
      });
    } else if (input.keepFiles && version > 1) {
      await keepVersionFiles(db, { paperId, version: version - 1 }, { version });
    }
    const spans = await chunkVersion(input, { maxChars: ctx.settings.chunkMaxChars });
    if (spans.length > 0) {
      await db.insert(chunks).values(spans.map((c) => chunkRow(paperId, version, c)));
    }
    // Same transaction: the new version is searchable (and the old one is not) exactly
    // when it is published; dense embeddings are only queued, never awaited. A held paper
    // is not indexed; the moderator who publishes it indexes it.
    if (!held) await reindexPaper({ ...ctx, db }, paperId);
    await db
      .insert(screeningResults)
      .values([
        screeningRow({ ...row, selfId: paperId, id: newId("scr", now), version }, rules),
        ...(llmPart
          ? [screeningRow({ ...row, selfId: paperId, id: newId("scr", now), version }, llmPart)]
          : []),
      ]);
    return {
      outcome: held ? ("held" as const) : ("published" as const),
      paper_id: paperId,
      version,
      screening,
    };
  });
  // After the commit, outside the lock: the screener's subject suggestion for a paper without
  // subjects (its closest papers' subject). Imports of many papers skip it (`quire import`
  // is an operator's bulk load; moderators can ask for it per paper).
  if ((result.outcome === "published" || result.outcome === "held") && !input.importKey) {
    await refreshSubjectSuggestion(ctx, { paperId: result.paper_id, version: result.version });
  }
  return result;
}

/** Owners always meet the LLM screener when one is configured; operators only when asking. */
function llmScreenerFor(ctx: ServiceContext, input: PublishInput): LlmScreener | undefined {
  if (!ctx.screener) return undefined;
  if (ctx.caller.kind === "operator" && !input.llmScreening) return undefined;
  return ctx.screener;
}

/** Never throws: any failure of the model becomes "no verdict" (the paper is held). */
async function runLlm(
  ctx: ServiceContext,
  screener: LlmScreener,
  input: PublishInput,
): Promise<LlmRun> {
  try {
    return { kind: "verdict", screener, verdict: await screener.screen(input) };
  } catch (error) {
    const known = error instanceof LlmScreenerError;
    const message = known ? error.message : "The LLM screener failed unexpectedly.";
    if (known)
      ctx.logger.warn({ screener: screener.id, reason: message }, "LLM screener gave no verdict");
    else ctx.logger.error({ screener: screener.id, err: error }, "LLM screener failed");
    const params: SystemReasonParams["llm_unavailable"] = known
      ? {
          screener: screener.id,
          problem: error.problem,
          ...(error.detail.status !== undefined ? { status: error.detail.status } : {}),
          ...(error.detail.timeoutMs !== undefined ? { timeout_ms: error.detail.timeoutMs } : {}),
          ...(error.attempts !== undefined ? { attempts: error.attempts } : {}),
        }
      : { screener: screener.id, problem: "unexpected" };
    return { kind: "unavailable", screener, message, params };
  }
}

/** The LLM screener's record: its outcome, reasons and name. */
function llmOutcome(run: LlmRun): ScreeningOutcome {
  if (run.kind === "unavailable") {
    return {
      status: "warnings",
      reasons: [
        {
          code: "llm_unavailable",
          severity: "warning",
          field: null,
          message: `The automated reviewer (${run.screener.id}) gave no verdict: ${run.message} The paper is held until a moderator publishes or rejects it.`,
          params: run.params,
        },
      ],
      language: "und",
      screened_by: run.screener.id,
    };
  }
  const status = { pass: "passed", flag: "warnings", reject: "rejected" } as const;
  return {
    status: status[run.verdict.verdict],
    reasons: run.verdict.reasons,
    language: "und",
    screened_by: run.screener.id,
  };
}

/**
 * What the submitter is told: every reason of every screener, the worst status, and the
 * screeners that gave a verdict (`quire-rules/1.0+llm:<model>`). A held paper names only
 * the rules: the model gave no verdict on it.
 */
function combine(
  rules: ScreeningOutcome,
  run: LlmRun | null,
  llm: ScreeningOutcome | null,
): ScreeningOutcome {
  if (!run || !llm) return rules;
  const rank = { passed: 0, warnings: 1, rejected: 2 } as const;
  return {
    status: rank[llm.status] > rank[rules.status] ? llm.status : rules.status,
    reasons: [...rules.reasons, ...llm.reasons],
    language: rules.language,
    screened_by:
      run.kind === "verdict" ? `${rules.screened_by}+${run.screener.id}` : rules.screened_by,
  };
}

function screeningRow(
  row: {
    id: string;
    selfId: string | undefined;
    version: number | null;
    ownerId: string | null;
    input: PublishInput;
    print: Fingerprint;
    now: Date;
  },
  outcome: ScreeningOutcome,
): typeof screeningResults.$inferInsert {
  return {
    id: row.id,
    paperId: row.selfId ?? null,
    version: row.version,
    ownerId: row.ownerId,
    title: row.input.title,
    contentHash: row.print.contentHash,
    outcome: outcome.status,
    screener: outcome.screened_by,
    reasons: outcome.reasons,
    createdAt: row.now,
  };
}

async function findImported(db: Db, importKey: string): Promise<string | null> {
  const [existing] = await db
    .select({ id: papers.id })
    .from(papers)
    .where(eq(papers.importKey, importKey))
    .limit(1);
  return existing?.id ?? null;
}

/** Before asking the model about a new version: is there a published paper to revise? */
async function assertRevisable(db: Db, paperId: string): Promise<void> {
  const [paper] = await db
    .select({ status: papers.status })
    .from(papers)
    .where(eq(papers.id, paperId))
    .limit(1);
  if (!paper) throw new NotFound(`No paper has the id "${paperId}".`);
  if (paper.status !== "published") {
    throw new Conflict(
      `Paper ${paperId} is ${paper.status}; only published papers get new versions.`,
    );
  }
}

/**
 * Owners must say what changed in every version after the first; operators' tools (tests,
 * scripts) may leave it out. The bound holds for everyone.
 */
function checkChangelog(ctx: ServiceContext, input: PublishInput): void {
  const issues: FieldIssue[] = [];
  if (input.paperId && !input.changelog && ctx.caller.kind === "owner") {
    issues.push({ in: "body", name: "changelog", message: "is required for a new version" });
  } else if (input.changelog && Array.from(input.changelog).length > CHANGELOG_MAX) {
    issues.push({
      in: "body",
      name: "changelog",
      message: `must be at most ${CHANGELOG_MAX} characters`,
    });
  }
  if (issues.length > 0) throw new Invalid("The changelog is not valid.", issues);
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
    subjects: raw.subjects === undefined ? undefined : parseSubjects(raw.subjects),
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
export async function authorizePublish(
  ctx: ServiceContext,
  input: Pick<PublishInput, "paperId" | "ownerId" | "publishedAt" | "importKey">,
): Promise<string | null> {
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
      .select({ ownerId: papers.ownerId, status: papers.status })
      .from(papers)
      .where(eq(papers.id, parsePaperRef(input.paperId)?.id ?? ""))
      .limit(1);
    // A paper the caller may not see (someone else's held paper) is as unknown as no paper.
    if (!paper || !canSeePaper(caller, paper)) {
      throw new NotFound(`No paper has the id "${input.paperId}".`);
    }
    if (paper.ownerId !== caller.ownerId) {
      throw new Forbidden("Only the paper's owner can publish new versions of it.");
    }
  }
  return caller.ownerId;
}

async function newPaper(
  db: Db,
  args: {
    ownerId: string | null;
    publishedAt: Date;
    now: Date;
    input: PublishInput;
    /** `held: …` to store the paper unpublished (status `submitted`) for a moderator. */
    held: string | null;
  },
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
    status: args.held ? "submitted" : "published",
    statusReason: args.held,
    currentVersion: 1,
    publishedAt: args.publishedAt,
    // The archive changed now, whatever the record's original date: harvesters (OAI-PMH
    // `from`) must see imports as new.
    updatedAt: args.now,
    importKey: args.input.importKey ?? null,
    subjects: [...(args.input.subjects ?? [])],
  });
  return { paperId, version: 1 };
}

async function nextVersion(
  db: Db,
  paperId: string,
  now: Date,
  subjects: readonly string[] | undefined,
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
    .set({
      currentVersion: version,
      updatedAt: now,
      ...(subjects === undefined ? {} : { subjects: [...subjects] }),
    })
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
