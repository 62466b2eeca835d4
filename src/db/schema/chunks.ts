/** @module Verbatim text spans of every version, with full-text and vector columns. */
import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  check,
  foreignKey,
  index,
  integer,
  pgTable,
  text,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { paperVersions } from "./papers.ts";
import { timestamptz, tsvector, vector } from "./types.ts";

/**
 * Chunks partition each field of a version losslessly (see services/chunks/chunker.ts);
 * `start`/`end` are code point offsets into the field. Chunks of every version are kept
 * so older versions stay citable.
 */
export const chunks = pgTable(
  "chunks",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    paperId: text("paper_id").notNull(),
    version: integer("version").notNull(),
    chunkIndex: integer("chunk_index").notNull(),
    field: text("field", { enum: ["title", "abstract", "body"] }).notNull(),
    section: text("section"),
    start: integer("start").notNull(),
    end: integer("end").notNull(),
    content: text("content").notNull(),
    tsv: tsvector("tsv")
      .notNull()
      .generatedAlwaysAs(sql`to_tsvector('english'::regconfig, content)`),
  },
  (t) => [
    foreignKey({
      columns: [t.paperId, t.version],
      foreignColumns: [paperVersions.paperId, paperVersions.version],
    }),
    uniqueIndex("chunks_version_idx").on(t.paperId, t.version, t.chunkIndex),
    check("chunks_field_check", sql`${t.field} in ('title', 'abstract', 'body')`),
  ],
);

/** Dense vectors from a configured embedding model; model and dimension stored per row. */
export const chunkEmbeddings = pgTable(
  "chunk_embeddings",
  {
    chunkId: bigint("chunk_id", { mode: "number" })
      .primaryKey()
      .references(() => chunks.id, { onDelete: "cascade" }),
    model: text("model").notNull(),
    dims: integer("dims").notNull(),
    embedding: vector("embedding").notNull(),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
  },
  (t) => [index("chunk_embeddings_model_idx").on(t.model)],
);
