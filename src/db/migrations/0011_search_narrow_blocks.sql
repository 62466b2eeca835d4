-- Search index format quire-search/8 (issue 16, ADR 0038): a block's chunk ids as int4 and its
-- chunk lengths as int2 (chunk ids stay far below 2^31; a chunk of at most CHUNK_MAX_CHARS
-- 20,000 characters and its title hold far fewer than 32,767 lexemes): 8 bytes a posting
-- instead of 14. The format bump rebuilds the index anyway; the casts keep it readable until then.
ALTER TABLE "search_blocks" ALTER COLUMN "chunk_ids" SET DATA TYPE int4[] USING "chunk_ids"::int4[];--> statement-breakpoint
ALTER TABLE "search_blocks" ALTER COLUMN "lengths" SET DATA TYPE int2[] USING "lengths"::int2[];
