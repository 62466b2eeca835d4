-- Published versions are immutable: what was read once is what is read forever.
CREATE OR REPLACE FUNCTION quire_reject_version_update() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION 'paper_versions rows are immutable (paper %, version %)', OLD.paper_id, OLD.version
    USING ERRCODE = 'restrict_violation';
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER paper_versions_immutable BEFORE UPDATE ON paper_versions
  FOR EACH ROW EXECUTE FUNCTION quire_reject_version_update();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION quire_reject_chunk_update() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION 'chunks are immutable (paper %, version %)', OLD.paper_id, OLD.version
    USING ERRCODE = 'restrict_violation';
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER chunks_immutable BEFORE UPDATE ON chunks
  FOR EACH ROW EXECUTE FUNCTION quire_reject_chunk_update();
