ALTER TABLE "chunks" DROP CONSTRAINT "chunks_field_check";--> statement-breakpoint
CREATE INDEX "chunks_captions_idx" ON "chunks" USING btree ("paper_id","version") WHERE "chunks"."field" = 'caption';--> statement-breakpoint
ALTER TABLE "chunks" ADD CONSTRAINT "chunks_field_check" CHECK ("chunks"."field" in ('title', 'abstract', 'body', 'caption'));--> statement-breakpoint
-- The text search analyses for a body chunk: its content with the spans [starts[i], ends[i])
-- (code points from the chunk's start) turned into as many spaces, so a caption the version
-- also holds as a caption chunk is indexed once, and offsets into the text stay those of the
-- content (docs/adr/0050-captions-are-chunks-indexed-once.md).
CREATE OR REPLACE FUNCTION quire_masked(content text, starts int[], ends int[]) RETURNS text AS $$
DECLARE
  masked text := content;
  i int;
BEGIN
  FOR i IN 1 .. coalesce(array_length(starts, 1), 0) LOOP
    IF ends[i] > starts[i] THEN
      masked := overlay(masked placing repeat(' ', ends[i] - starts[i])
                        from starts[i] + 1 for ends[i] - starts[i]);
    END IF;
  END LOOP;
  RETURN masked;
END;
$$ LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE;
