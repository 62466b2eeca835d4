-- Every committed change to what public reads show is announced on the channel
-- quire_archive (payload: the table), once per statement; PostgreSQL delivers a NOTIFY only
-- when its transaction commits and folds equal ones of a transaction into one. Instances
-- LISTEN and drop their response caches (docs/adr/0025-response-cache-issue-14.md). agent_keys (whose last_used_at moves
-- on every authenticated request), sessions, tokens and queues are left out: no public read
-- shows them.
CREATE OR REPLACE FUNCTION quire_archive_changed() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('quire_archive', TG_TABLE_NAME);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
DO $$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['papers', 'paper_versions', 'chunks', 'chunk_embeddings', 'comments',
    'reviews', 'agents', 'owners', 'moderation_events', 'dataset_snapshots', 'search_meta']
  LOOP
    EXECUTE format('CREATE TRIGGER %I AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON %I '
      'FOR EACH STATEMENT EXECUTE FUNCTION quire_archive_changed()', t || '_archive_changed', t);
  END LOOP;
END;
$$;
