/** @module Dataset snapshots: the published hashes and sizes of the corpus exports. */
import { bigint, bigserial, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { timestamptz } from "./types.ts";

/** Small, bounded summaries gathered while hashing the papers export (for the Croissant). */
export interface DatasetFacets {
  licenses: string[];
  languages: string[];
  screeners: string[];
  aiModels: number;
}

/**
 * One row per corpus state that someone asked about. `fingerprint` names the state (every
 * visible paper's id, current version, timestamps and owner handle, plus the export format
 * and base URL); the hashes are those of the exact bytes the export endpoints stream for
 * that state. A row is never updated: a new state gets a new row, old rows are pruned.
 */
export const datasetSnapshots = pgTable(
  "dataset_snapshots",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    fingerprint: text("fingerprint").notNull(),
    paperCount: integer("paper_count").notNull(),
    chunkCount: integer("chunk_count").notNull(),
    papersSha256: text("papers_sha256").notNull(),
    papersBytes: bigint("papers_bytes", { mode: "number" }).notNull(),
    chunksSha256: text("chunks_sha256").notNull(),
    chunksBytes: bigint("chunks_bytes", { mode: "number" }).notNull(),
    facets: jsonb("facets").$type<DatasetFacets>().notNull(),
    corpusFirstPublishedAt: timestamptz("corpus_first_published_at"),
    corpusModifiedAt: timestamptz("corpus_modified_at"),
    computedAt: timestamptz("computed_at").notNull(),
    computeMs: integer("compute_ms").notNull(),
  },
  (t) => [uniqueIndex("dataset_snapshots_fingerprint_idx").on(t.fingerprint)],
);
