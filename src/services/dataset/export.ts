/** @module The corpus exports (papers.jsonl, chunks.jsonl): deterministic, batched, streamed. */
import { createHash } from "node:crypto";
import { and, asc, eq, gt, gte, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { chunks, owners, papers, paperVersions } from "../../db/schema/index.ts";
import { listFilesOfVersions } from "../files/index.ts";
import { AI_LABEL, isCurrentVersion } from "../papers/index.ts";
import type { ChunkExportRecord, PaperExportRecord } from "./schemas.ts";

export type ExportKind = "papers" | "chunks";

/**
 * Bump when the bytes of an export change for the same corpus (a field added, renamed or
 * reordered, a URL form changed): it is part of the snapshot fingerprint, so every stored
 * hash is recomputed after a deploy that changes the serialization. 2: papers carry `files`,
 * chunks include captions.
 */
export const EXPORT_FORMAT_VERSION = 2;

/** Rows per query. Papers carry whole bodies, so their batches are smaller. */
const EXPORT_BATCH_ROWS: Record<ExportKind, number> = { papers: 100, chunks: 500 };

export const EXPORT_FILE_NAMES: Record<ExportKind, string> = {
  papers: "papers.jsonl",
  chunks: "chunks.jsonl",
};

/** The media type the exports are served as (one JSON object per line, LF-terminated). */
export const EXPORT_MEDIA_TYPE = "application/x-ndjson; charset=utf-8";

export function exportPath(kind: ExportKind): string {
  return `/api/v1/dataset/${EXPORT_FILE_NAMES[kind]}`;
}

export function exportUrl(baseUrl: string, kind: ExportKind): string {
  return `${baseUrl}${exportPath(kind)}`;
}

/** Where a paper lives in the API; the export's `url` column. */
function paperUrl(baseUrl: string, id: string): string {
  return `${baseUrl}/api/v1/papers/${id}`;
}

export interface ExportBatch<R> {
  records: R[];
  /** The UTF-8 bytes of these records, one line each, every line ending in "\n". */
  bytes: Uint8Array;
}

export interface ExportOptions {
  baseUrl: string;
  /** Overrides EXPORT_BATCH_ROWS (tests use tiny batches to cross many boundaries). */
  batchRows?: number;
}

const encoder = new TextEncoder();

/**
 * The records of one export, a batch at a time, in a total order (papers by id, chunks by
 * paper id and chunk index) so the bytes are a pure function of the corpus state. Each batch
 * is one keyset-paginated query with no transaction held between batches: memory stays at
 * one batch, and a slow reader never pins a connection (PGlite has only one). Consistency
 * across batches is checked by the caller against the snapshot hash, see `verifiedExport`.
 */
export function exportBatches(
  db: Db,
  kind: "papers",
  options: ExportOptions,
): AsyncGenerator<ExportBatch<PaperExportRecord>>;
export function exportBatches(
  db: Db,
  kind: "chunks",
  options: ExportOptions,
): AsyncGenerator<ExportBatch<ChunkExportRecord>>;
export function exportBatches(
  db: Db,
  kind: ExportKind,
  options: ExportOptions,
): AsyncGenerator<ExportBatch<PaperExportRecord | ChunkExportRecord>>;
export function exportBatches(
  db: Db,
  kind: ExportKind,
  options: ExportOptions,
): AsyncGenerator<ExportBatch<PaperExportRecord | ChunkExportRecord>> {
  const rows = options.batchRows ?? EXPORT_BATCH_ROWS[kind];
  return kind === "papers" ? paperBatches(db, options.baseUrl, rows) : chunkBatches(db, rows);
}

async function* paperBatches(
  db: Db,
  baseUrl: string,
  batchRows: number,
): AsyncGenerator<ExportBatch<PaperExportRecord>> {
  let after: string | null = null;
  for (;;) {
    const rows = await db
      .select({
        id: papers.id,
        version: papers.currentVersion,
        publishedAt: papers.publishedAt,
        updatedAt: papers.updatedAt,
        ownerHandle: owners.handle,
        title: paperVersions.title,
        abstract: paperVersions.abstract,
        body: paperVersions.body,
        aiModel: paperVersions.aiModel,
        license: paperVersions.license,
        keywords: paperVersions.keywords,
        language: paperVersions.language,
        screeningStatus: paperVersions.screeningStatus,
        screenedAt: paperVersions.screenedAt,
        screenedBy: paperVersions.screenedBy,
      })
      .from(papers)
      .innerJoin(paperVersions, isCurrentVersion)
      .leftJoin(owners, eq(owners.id, papers.ownerId))
      // The bound on both join sides lets each index scan start at the cursor (a merge join
      // would otherwise read paper_versions from the start for every batch).
      .where(
        and(
          eq(papers.status, "published"),
          after === null ? undefined : gt(papers.id, after),
          after === null ? undefined : gt(paperVersions.paperId, after),
        ),
      )
      .orderBy(asc(papers.id))
      .limit(batchRows);
    if (rows.length === 0) return;
    // Files of a version are immutable rows written with it, so they follow from (id, version).
    const files = await listFilesOfVersions(
      db,
      rows.map((r) => ({ paperId: r.id, version: r.version })),
      baseUrl,
    );
    const records = rows.map(
      (r): PaperExportRecord => ({
        id: r.id,
        version: r.version,
        title: r.title,
        abstract: r.abstract,
        body: r.body,
        ai_model: r.aiModel,
        ai_label: AI_LABEL,
        license: r.license,
        keywords: r.keywords,
        language: r.language,
        published_at: r.publishedAt.toISOString(),
        updated_at: r.updatedAt.toISOString(),
        owner_handle: r.ownerHandle ?? null,
        url: paperUrl(baseUrl, r.id),
        verification: {
          status: r.screeningStatus,
          screened_at: r.screenedAt.toISOString(),
          screened_by: r.screenedBy,
        },
        files: files.get(`${r.id}v${r.version}`) ?? [],
      }),
    );
    yield { records, bytes: encodeLines(records) };
    if (rows.length < batchRows) return;
    after = rows[rows.length - 1]?.id ?? null;
  }
}

async function* chunkBatches(
  db: Db,
  batchRows: number,
): AsyncGenerator<ExportBatch<ChunkExportRecord>> {
  const cursor: { after: ChunkPosition | null } = { after: null };
  for (;;) {
    const rows = await db
      .select({
        paperId: chunks.paperId,
        version: chunks.version,
        chunkIndex: chunks.chunkIndex,
        field: chunks.field,
        section: chunks.section,
        start: chunks.start,
        end: chunks.end,
        content: chunks.content,
      })
      .from(chunks)
      .innerJoin(
        papers,
        and(eq(papers.id, chunks.paperId), eq(papers.currentVersion, chunks.version)),
      )
      .where(and(eq(papers.status, "published"), chunksAfter(cursor.after)))
      .orderBy(asc(chunks.paperId), asc(chunks.version), asc(chunks.chunkIndex))
      .limit(batchRows);
    if (rows.length === 0) return;
    const records = rows.map(
      (r): ChunkExportRecord => ({
        paper_id: r.paperId,
        version: r.version,
        chunk_index: r.chunkIndex,
        field: r.field,
        section: r.section,
        start: r.start,
        end: r.end,
        content: r.content,
      }),
    );
    yield { records, bytes: encodeLines(records) };
    if (rows.length < batchRows) return;
    const last = rows[rows.length - 1];
    cursor.after = last
      ? { paperId: last.paperId, version: last.version, chunkIndex: last.chunkIndex }
      : null;
  }
}

interface ChunkPosition {
  paperId: string;
  version: number;
  chunkIndex: number;
}

/**
 * Keyset on (paper_id, version, chunk_index), the order of the unique index on chunks, so a
 * batch is an index range scan from the cursor. Only current versions are joined, so this is
 * also (paper_id, chunk_index) order.
 */
function chunksAfter(position: ChunkPosition | null) {
  if (position === null) return undefined;
  return and(
    sql`(${chunks.paperId}, ${chunks.version}, ${chunks.chunkIndex}) > (${position.paperId}, ${position.version}, ${position.chunkIndex})`,
    // Redundant, but lets the papers side of the join start at the cursor too.
    gte(papers.id, position.paperId),
  );
}

/** JSON.stringify escapes U+2028/2029 and never emits a raw newline, so a line is a record. */
function encodeLines(records: readonly object[]): Uint8Array {
  let text = "";
  for (const record of records) text += `${JSON.stringify(record)}\n`;
  return encoder.encode(text);
}

/** What a snapshot promises about one export: these bytes, this many of them. */
export interface ExportDigest {
  sha256: string;
  bytes: number;
}

/** Raised inside the body stream when the bytes drift from the published hash. */
export class ExportDrifted extends Error {
  constructor(readonly kind: ExportKind) {
    super(`The ${kind} export changed while it was being sent; retry the download.`);
    this.name = "ExportDrifted";
  }
}

/**
 * A byte stream of the export that can only complete if it equals `expected`. The bytes are
 * hashed as they go; the last batch is held back until the hash is known, and the stream is
 * errored instead (the client sees an aborted transfer, never a complete wrong file) when
 * the corpus moved between batches or since the snapshot. It also errors as soon as more
 * bytes than promised were produced, so a declared Content-Length is never exceeded.
 * Pull-based: a batch is queried only when the client has taken the one before, so at most
 * two batches (the one being sent and the one held back) are in memory.
 */
export function verifiedExport(
  db: Db,
  kind: ExportKind,
  options: ExportOptions & {
    expected: ExportDigest;
    /**
     * Called once on drift, e.g. to log and to drop a snapshot that can't be reproduced. The
     * stream errors only after it settles, so a client that retries at once meets its outcome.
     */
    onDrift?: (actual: ExportDigest) => Promise<void> | void;
  },
): ReadableStream<Uint8Array> {
  const iterator = exportBatches(db, kind, options);
  const hash = createHash("sha256");
  let produced = 0;
  let pending: Uint8Array | null = null;
  const drift = async (controller: ReadableStreamDefaultController<Uint8Array>, sha256: string) => {
    try {
      await options.onDrift?.({ sha256, bytes: produced });
    } finally {
      // Whatever onDrift did, the transfer ends as drifted, never as complete.
      controller.error(new ExportDrifted(kind));
      void iterator.return(undefined);
    }
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        // Each pull must enqueue, close or error: a pull that enqueues nothing is not called
        // again. The first batch is only held back, so read on until one can be released.
        for (;;) {
          const next = await iterator.next();
          if (next.done) {
            const sha256 = hash.digest("hex");
            if (sha256 !== options.expected.sha256 || produced !== options.expected.bytes) {
              await drift(controller, sha256);
              return;
            }
            if (pending) controller.enqueue(pending);
            controller.close();
            return;
          }
          const bytes = next.value.bytes;
          hash.update(bytes);
          produced += bytes.byteLength;
          if (produced > options.expected.bytes) {
            await drift(controller, "(incomplete)");
            return;
          }
          const release = pending;
          pending = bytes;
          if (release) {
            controller.enqueue(release);
            return;
          }
        }
      },
      async cancel() {
        await iterator.return(undefined);
      },
    },
    { highWaterMark: 0 },
  );
}
