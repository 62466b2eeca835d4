/** @module The search index: BM25 postings, character-gram vectors, statistics, embedding queue. */
import {
  bigint,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
} from "drizzle-orm/pg-core";
import { chunks } from "./chunks.ts";
import { timestamptz } from "./types.ts";

/** pgvector `sparsevec` in its text form (`{i:v,…}/dims`); only ever read inside SQL. */
const sparsevec = customType<{ data: string }>({ dataType: () => "sparsevec" });

/**
 * One row per searchable chunk: a chunk of the current version of a published paper. Rows
 * come and go with publication, new versions and withdrawal, so every statistic computed
 * from this table and the postings describes exactly what search can return.
 */
export const searchChunks = pgTable(
  "search_chunks",
  {
    chunkId: bigint("chunk_id", { mode: "number" })
      .primaryKey()
      .references(() => chunks.id, { onDelete: "cascade" }),
    paperId: text("paper_id").notNull(),
    version: integer("version").notNull(),
    /** BM25 document length: lexeme occurrences in the chunk plus its paper's title. */
    length: integer("length").notNull(),
    /**
     * Unit-length log-TF vector of the chunk's hashed words, bigrams and character 4-grams
     * (the sparse channel). Its lexemes are not stored: removal recomputes them from the text.
     * Compressed (STORAGE EXTENDED, migration 0010): most features share one weight.
     */
    grams: sparsevec("grams").notNull(),
  },
  (t) => [index("search_chunks_paper_idx").on(t.paperId)],
);

/**
 * BM25 postings not yet packed into `search_blocks`: one row per (lexeme, chunk), written by
 * publication (cheap, row-level) and moved into blocks by `packPostings`. The primary key
 * index carries tf and length (INCLUDE, added in migration 0004), so a term's unpacked
 * postings are read by an index-only scan.
 */
export const searchPostings = pgTable(
  "search_postings",
  {
    term: text("term").notNull(),
    chunkId: bigint("chunk_id", { mode: "number" }).notNull(),
    tf: smallint("tf").notNull(),
    length: integer("length").notNull(),
  },
  (t) => [primaryKey({ columns: [t.term, t.chunkId] })],
);

const int4Array = customType<{ data: number[] }>({ dataType: () => "int4[]" });
const int2Array = customType<{ data: number[] }>({ dataType: () => "int2[]" });

/**
 * BM25 postings packed per lexeme: blocks of up to 128 postings in chunk order, three
 * parallel arrays (8 bytes a posting: chunk ids as int4, term frequencies and chunk lengths
 * as int2, migration 0011; a row per posting with its covering key took about 100). A lexeme's blocks cover disjoint chunk id ranges [first_chunk,
 * last_chunk], so one (term, chunk) lookup is one probe of the primary key (the block with the
 * greatest first_chunk ≤ chunk) and `array_position` inside it.
 */
export const searchBlocks = pgTable(
  "search_blocks",
  {
    term: text("term").notNull(),
    firstChunk: bigint("first_chunk", { mode: "number" }).notNull(),
    lastChunk: bigint("last_chunk", { mode: "number" }).notNull(),
    chunkIds: int4Array("chunk_ids").notNull(),
    tfs: int2Array("tfs").notNull(),
    lengths: int2Array("lengths").notNull(),
  },
  (t) => [primaryKey({ columns: [t.term, t.firstChunk] })],
);

/**
 * Collection statistics kept as counters in a few slots (chosen by paper id), so concurrent
 * publications rarely wait on one hot row; readers sum the slots.
 */
export const searchStats = pgTable("search_stats", {
  slot: smallint("slot").primaryKey(),
  chunks: bigint("chunks", { mode: "number" }).notNull(),
  length: bigint("length", { mode: "number" }).notNull(),
});

/**
 * Document frequency of each lexeme over the searchable chunks, kept as counters so a query
 * knows at once which of its terms are rare (scanned) and which are common (only looked up
 * for the candidates the rare ones found).
 */
export const searchTerms = pgTable("search_terms", {
  term: text("term").primaryKey(),
  df: integer("df").notNull(),
});

/** Document frequency of each hashed character 4-gram over the searchable chunks. */
export const searchGrams = pgTable("search_grams", {
  gram: integer("gram").primaryKey(),
  df: integer("df").notNull(),
});

/** Small facts about the index: its format version, the embedding model in use. */
export const searchMeta = pgTable("search_meta", {
  key: text("key").primaryKey(),
  value: jsonb("value").notNull(),
  updatedAt: timestamptz("updated_at").notNull().defaultNow(),
});

/**
 * Chunks waiting for a dense embedding. Publication only inserts here; a worker drains the
 * queue with retries and backoff, so a slow or failing embedder never blocks publishing.
 */
export const embeddingQueue = pgTable(
  "embedding_queue",
  {
    chunkId: bigint("chunk_id", { mode: "number" })
      .primaryKey()
      .references(() => chunks.id, { onDelete: "cascade" }),
    attempts: integer("attempts").notNull().default(0),
    notBefore: timestamptz("not_before").notNull().defaultNow(),
    lastError: text("last_error"),
    enqueuedAt: timestamptz("enqueued_at").notNull().defaultNow(),
  },
  (t) => [index("embedding_queue_due_idx").on(t.notBefore)],
);
