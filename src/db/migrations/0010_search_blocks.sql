-- Search index format quire-search/7 (issue 16, ADR 0032): BM25 postings packed per lexeme in
-- blocks of up to 128 (chunk ids, tfs, lengths as parallel arrays); search_postings keeps the
-- postings publication adds until they are packed. The format bump rebuilds the index.
CREATE TABLE "search_blocks" (
	"term" text NOT NULL,
	"first_chunk" bigint NOT NULL,
	"last_chunk" bigint NOT NULL,
	"chunk_ids" int8[] NOT NULL,
	"tfs" int2[] NOT NULL,
	"lengths" int4[] NOT NULL,
	CONSTRAINT "search_blocks_term_first_chunk_pk" PRIMARY KEY("term","first_chunk")
);
--> statement-breakpoint
-- pgvector stores sparsevec uncompressed (STORAGE EXTERNAL); a chunk's vector of ~1,200
-- features has one repeated weight for most of them, so pglz takes it from ~9.7 KB to ~6 KB.
ALTER TABLE "search_chunks" ALTER COLUMN "grams" SET STORAGE EXTENDED;
