-- Search index format quire-search/5 (issue 16, ADR 0028): the per-chunk copy of its lexemes
-- goes; removal recomputes them from the chunk's text, coverage reads them from the postings.
ALTER TABLE "search_chunks" DROP COLUMN "terms";
