-- Keywords match case-insensitively (feeds, ?keyword=). An index expression must be
-- IMMUTABLE and lower(text[]) does not exist, so lower-case the array in a SQL function.
CREATE OR REPLACE FUNCTION quire_lower_keywords(keywords text[]) RETURNS text[]
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$ SELECT coalesce(array_agg(lower(k)), '{}'::text[]) FROM unnest(keywords) AS k $$;
--> statement-breakpoint
CREATE INDEX "paper_versions_keywords_idx" ON "paper_versions" USING gin (quire_lower_keywords("keywords"));
