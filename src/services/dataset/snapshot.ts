/** @module Dataset snapshots: the hashes the Croissant publishes, kept in step with the corpus. */
import { createHash } from "node:crypto";
import { desc, eq, lt, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { type DatasetFacets, datasetSnapshots, owners, papers } from "../../db/schema/index.ts";
import { publicReadDb, type ServiceContext } from "../context.ts";
import { Unavailable } from "../errors.ts";
import {
  EXPORT_FORMAT_VERSION,
  type ExportDigest,
  type ExportKind,
  exportBatches,
  verifiedExport,
} from "./export.ts";

export type DatasetSnapshot = typeof datasetSnapshots.$inferSelect;

/** What the exports are a function of, summarised by one SQL aggregate over visible papers. */
export interface CorpusState {
  fingerprint: string;
  paperCount: number;
  firstPublishedAt: Date | null;
  modifiedAt: Date | null;
}

/** Snapshot rows kept; older ones describe states no export can reproduce any more. */
const KEEP_SNAPSHOTS = 20;
/** How many times a recomputation is retried when the corpus moves while it runs. */
const MAX_ATTEMPTS = 3;
/** Distinct values kept per facet; the Croissant lists them, so they stay small. */
const FACET_LIMIT = 50;

/**
 * The corpus state in one query: count, earliest publication, latest update, greatest id
 * and an order-independent sum of a 60-bit hash of every visible paper's (id, current
 * version, published_at, updated_at, owner handle). Those are all the mutable inputs of the
 * exports (versions, their chunks and their files are immutable rows; the caption chunks an
 * upgrade adds to older versions come with a new EXPORT_FORMAT_VERSION, and a drift is caught
 * by `verifiedExport` anyway), so equal states give equal bytes. The
 * sum keeps PostgreSQL's memory flat (no string_agg of the whole corpus). The export format
 * version and the base URL (in every `url`) are mixed into the fingerprint.
 */
export async function readCorpusState(ctx: ServiceContext): Promise<CorpusState> {
  const rowHash = sql`('x' || substr(md5(concat_ws('|', ${papers.id}, ${papers.currentVersion},
    extract(epoch from ${papers.publishedAt}), extract(epoch from ${papers.updatedAt}),
    coalesce(${owners.handle}, ''))), 1, 15))::bit(60)::bigint`;
  const [row] = await publicReadDb(ctx)
    .select({
      count: sql<number>`count(*)`.mapWith(Number),
      firstMs: sql<
        string | null
      >`(extract(epoch from min(${papers.publishedAt})) * 1000)::bigint::text`,
      modifiedMs: sql<
        string | null
      >`(extract(epoch from max(${papers.updatedAt})) * 1000)::bigint::text`,
      maxId: sql<string | null>`max(${papers.id})`,
      digest: sql<string>`coalesce(sum(${rowHash}), 0)::text`,
    })
    .from(papers)
    .leftJoin(owners, eq(owners.id, papers.ownerId))
    .where(eq(papers.status, "published"));
  const count = row?.count ?? 0;
  const firstMs = row?.firstMs ?? null;
  const modifiedMs = row?.modifiedMs ?? null;
  const fingerprint = createHash("sha256")
    .update(
      JSON.stringify([
        EXPORT_FORMAT_VERSION,
        ctx.settings.baseUrl,
        count,
        firstMs,
        modifiedMs,
        row?.maxId ?? null,
        row?.digest ?? "0",
      ]),
    )
    .digest("hex");
  return {
    fingerprint,
    paperCount: count,
    firstPublishedAt: firstMs === null ? null : new Date(Number(firstMs)),
    modifiedAt: modifiedMs === null ? null : new Date(Number(modifiedMs)),
  };
}

/** Concurrent callers in this process share one computation per (database read, corpus state). */
const inflight = new WeakMap<Db, Map<string, Promise<DatasetSnapshot | null>>>();

/**
 * The snapshot of the current corpus, computed if none is stored for its state. Reading is
 * one aggregate and one indexed lookup; computing streams both exports through SHA-256 a
 * batch at a time (memory flat). A computation is shared by concurrent requests of this
 * process, and its row is shared by every instance through the database (instances that
 * race each compute once; the unique fingerprint keeps one row). A computation during
 * which the corpus moved is discarded and retried on the new state, because its hash would
 * describe no state at all. The state, the lookup and the export are read where public reads
 * go (a replica, perhaps a moment behind: its snapshot describes exactly the bytes it
 * serves); the row is written on the primary.
 */
export async function currentSnapshot(ctx: ServiceContext): Promise<DatasetSnapshot> {
  for (let attempt = 1; ; attempt++) {
    const state = await readCorpusState(ctx);
    const stored = await findSnapshot(publicReadDb(ctx), state.fingerprint);
    if (stored) return stored;
    const computed = await computeShared(ctx, state);
    if (computed) return computed;
    if (attempt >= MAX_ATTEMPTS) {
      throw new Unavailable(
        "The corpus changed while its snapshot was being computed, several times in a row; retry shortly.",
        2,
      );
    }
  }
}

async function findSnapshot(db: Db, fingerprint: string): Promise<DatasetSnapshot | undefined> {
  const [row] = await db
    .select()
    .from(datasetSnapshots)
    .where(eq(datasetSnapshots.fingerprint, fingerprint))
    .limit(1);
  return row;
}

function computeShared(ctx: ServiceContext, state: CorpusState): Promise<DatasetSnapshot | null> {
  const source = publicReadDb(ctx);
  let running = inflight.get(source);
  if (!running) {
    running = new Map();
    inflight.set(source, running);
  }
  const existing = running.get(state.fingerprint);
  if (existing) return existing;
  const job = computeSnapshot(ctx, state).finally(() => running.delete(state.fingerprint));
  running.set(state.fingerprint, job);
  return job;
}

async function computeSnapshot(
  ctx: ServiceContext,
  state: CorpusState,
): Promise<DatasetSnapshot | null> {
  const started = performance.now();
  const facets = facetCollector();
  const options = { baseUrl: ctx.settings.baseUrl };
  const source = publicReadDb(ctx);
  const paperDigest = await digestOf(exportBatches(source, "papers", options), facets.add);
  const chunkDigest = await digestOf(exportBatches(source, "chunks", options));
  const after = await readCorpusState(ctx);
  if (after.fingerprint !== state.fingerprint || paperDigest.records !== state.paperCount) {
    ctx.logger.info(
      { fingerprint: state.fingerprint },
      "corpus changed during snapshot computation; retrying",
    );
    return null;
  }
  const computeMs = Math.round(performance.now() - started);
  await ctx.db
    .insert(datasetSnapshots)
    .values({
      fingerprint: state.fingerprint,
      paperCount: paperDigest.records,
      chunkCount: chunkDigest.records,
      papersSha256: paperDigest.sha256,
      papersBytes: paperDigest.bytes,
      chunksSha256: chunkDigest.sha256,
      chunksBytes: chunkDigest.bytes,
      facets: facets.result(),
      corpusFirstPublishedAt: state.firstPublishedAt,
      corpusModifiedAt: state.modifiedAt,
      computedAt: ctx.clock.now(),
      computeMs,
    })
    .onConflictDoNothing({ target: datasetSnapshots.fingerprint });
  await pruneSnapshots(ctx.db);
  const row = await findSnapshot(ctx.db, state.fingerprint);
  ctx.logger.info(
    { fingerprint: state.fingerprint, papers: paperDigest.records, ms: computeMs },
    "dataset snapshot computed",
  );
  return row ?? null;
}

async function digestOf<R>(
  batches: AsyncIterable<{ records: R[]; bytes: Uint8Array }>,
  onRecord?: (record: R) => void,
): Promise<ExportDigest & { records: number }> {
  const hash = createHash("sha256");
  let bytes = 0;
  let records = 0;
  for await (const batch of batches) {
    hash.update(batch.bytes);
    bytes += batch.bytes.byteLength;
    records += batch.records.length;
    if (onRecord) for (const record of batch.records) onRecord(record);
  }
  return { sha256: hash.digest("hex"), bytes, records };
}

function facetCollector() {
  const licenses = new Set<string>();
  const languages = new Set<string>();
  const screeners = new Set<string>();
  const models = new Set<string>();
  const capped = (set: Set<string>, value: string, limit: number) => {
    if (set.size < limit) set.add(value);
  };
  return {
    add: (record: {
      license: string;
      language: string;
      ai_model: string;
      verification: { screened_by: string };
    }) => {
      capped(licenses, record.license, FACET_LIMIT);
      capped(languages, record.language, FACET_LIMIT);
      capped(screeners, record.verification.screened_by, FACET_LIMIT);
      capped(models, record.ai_model, 100_000);
    },
    result: (): DatasetFacets => ({
      licenses: [...licenses].sort(),
      languages: [...languages].sort(),
      screeners: [...screeners].sort(),
      aiModels: models.size,
    }),
  };
}

async function pruneSnapshots(db: Db): Promise<void> {
  const [oldestKept] = await db
    .select({ id: datasetSnapshots.id })
    .from(datasetSnapshots)
    .orderBy(desc(datasetSnapshots.id))
    .offset(KEEP_SNAPSHOTS - 1)
    .limit(1);
  if (oldestKept) await db.delete(datasetSnapshots).where(lt(datasetSnapshots.id, oldestKept.id));
}

export function snapshotDigest(snapshot: DatasetSnapshot, kind: ExportKind): ExportDigest {
  return kind === "papers"
    ? { sha256: snapshot.papersSha256, bytes: snapshot.papersBytes }
    : { sha256: snapshot.chunksSha256, bytes: snapshot.chunksBytes };
}

export interface OpenedExport {
  snapshot: DatasetSnapshot;
  digest: ExportDigest;
  body: ReadableStream<Uint8Array>;
}

/**
 * Opens an export for download: the current snapshot's digest (the caller sends it as ETag,
 * Repr-Digest and Content-Length) and a body that can only complete with exactly those
 * bytes. If the corpus moves while the body streams, the transfer is aborted rather than
 * finished with bytes nobody published; the next request gets the new snapshot. If the
 * corpus did *not* move and the bytes still differ, the stored snapshot is wrong (e.g. a
 * change reverted mid-computation), so it is deleted and the next request recomputes it.
 */
export async function openExport(ctx: ServiceContext, kind: ExportKind): Promise<OpenedExport> {
  const snapshot = await currentSnapshot(ctx);
  const digest = snapshotDigest(snapshot, kind);
  const body = verifiedExport(publicReadDb(ctx), kind, {
    baseUrl: ctx.settings.baseUrl,
    expected: digest,
    onDrift: (actual) => handleDrift(ctx, snapshot, kind, actual),
  });
  return { snapshot, digest, body };
}

async function handleDrift(
  ctx: ServiceContext,
  snapshot: DatasetSnapshot,
  kind: ExportKind,
  actual: ExportDigest,
): Promise<void> {
  try {
    const state = await readCorpusState(ctx);
    if (state.fingerprint === snapshot.fingerprint) {
      await ctx.db.delete(datasetSnapshots).where(eq(datasetSnapshots.id, snapshot.id));
      ctx.logger.error(
        {
          kind,
          fingerprint: snapshot.fingerprint,
          expected: snapshotDigest(snapshot, kind),
          actual,
        },
        "dataset snapshot did not reproduce on an unchanged corpus; discarded",
      );
    } else {
      ctx.logger.info({ kind }, "corpus changed during an export download; transfer aborted");
    }
  } catch (error) {
    ctx.logger.error({ err: error }, "could not check a drifted export");
  }
}
