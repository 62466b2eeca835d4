-- Search index format quire-search/5 (issue 16, ADR 0028): the per-chunk copy of its lexemes
-- goes (removal recomputes them from the chunk's text), character 4-grams are no longer
-- stored (counted at query time), and the norm they need is.
ALTER TABLE "search_chunks" DROP COLUMN "terms";--> statement-breakpoint
ALTER TABLE "search_chunks" ADD COLUMN "norm" double precision DEFAULT 0 NOT NULL;
