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

/** What a chunk is a span of: a field of the version, or a caption inside its body. */
export const CHUNK_FIELDS = ["title", "abstract", "body", "caption"] as const;

/**
 * Chunks partition each field of a version losslessly (see services/chunks/chunker.ts);
 * `start`/`end` are code point offsets into the field. `caption` chunks come after them:
 * the figure and table captions of the body, each a span of the body (offsets into it), not a
 * partition of anything (services/chunks/captions.ts). Chunks of every version are kept so
 * older versions stay citable.
 */
export const chunks = pgTable(
  "chunks",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    paperId: text("paper_id").notNull(),
    version: integer("version").notNull(),
    chunkIndex: integer("chunk_index").notNull(),
    field: text("field", { enum: CHUNK_FIELDS }).notNull(),
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
    check("chunks_field_check", sql`${t.field} in ('title', 'abstract', 'body', 'caption')`),
    // Search masks the captions out of the body chunks that hold them (a caption is indexed
    // once, as itself): each body chunk looks its version's captions up here.
    index("chunks_captions_idx").on(t.paperId, t.version).where(sql`${t.field} = 'caption'`),
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
