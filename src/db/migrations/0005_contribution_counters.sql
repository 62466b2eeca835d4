ALTER TABLE "papers" ADD COLUMN "comment_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "papers" ADD COLUMN "ai_review_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "papers" ADD COLUMN "human_review_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- One live key per agent from now on; should an agent somehow hold several, keep the newest.
UPDATE "agent_keys" AS k SET "revoked_at" = now()
  WHERE k."revoked_at" IS NULL AND EXISTS (
    SELECT 1 FROM "agent_keys" AS n
    WHERE n."agent_id" = k."agent_id" AND n."revoked_at" IS NULL
      AND (n."created_at", n."id") > (k."created_at", k."id"));--> statement-breakpoint
CREATE UNIQUE INDEX "agent_keys_active_idx" ON "agent_keys" USING btree ("agent_id") WHERE "agent_keys"."revoked_at" is null;--> statement-breakpoint
-- Counters of visible contributions, kept by triggers in the writing transaction: an insert,
-- a removal (removed_at set), a reinstatement or a delete moves them, whoever writes.
CREATE OR REPLACE FUNCTION quire_count_comment() RETURNS trigger AS $$
DECLARE
  delta integer := 0;
  paper text;
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.removed_at IS NULL THEN delta := delta + 1; END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.removed_at IS NULL THEN delta := delta - 1; END IF;
  IF TG_OP = 'UPDATE' AND NEW.paper_id <> OLD.paper_id THEN
    RAISE EXCEPTION 'a comment cannot move to another paper' USING ERRCODE = 'restrict_violation';
  END IF;
  paper := CASE WHEN TG_OP = 'DELETE' THEN OLD.paper_id ELSE NEW.paper_id END;
  IF delta <> 0 THEN
    UPDATE papers SET comment_count = comment_count + delta WHERE id = paper;
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER comments_count AFTER INSERT OR DELETE OR UPDATE OF removed_at, paper_id ON comments
  FOR EACH ROW EXECUTE FUNCTION quire_count_comment();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION quire_count_review() RETURNS trigger AS $$
DECLARE
  ai integer := 0;
  human integer := 0;
  paper text;
BEGIN
  IF TG_OP = 'UPDATE' AND (NEW.paper_id <> OLD.paper_id OR NEW.kind <> OLD.kind) THEN
    RAISE EXCEPTION 'a review cannot change paper or kind' USING ERRCODE = 'restrict_violation';
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.removed_at IS NULL THEN
    IF NEW.kind = 'human' THEN human := human + 1; ELSE ai := ai + 1; END IF;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.removed_at IS NULL THEN
    IF OLD.kind = 'human' THEN human := human - 1; ELSE ai := ai - 1; END IF;
  END IF;
  paper := CASE WHEN TG_OP = 'DELETE' THEN OLD.paper_id ELSE NEW.paper_id END;
  IF ai <> 0 OR human <> 0 THEN
    UPDATE papers SET ai_review_count = ai_review_count + ai,
                      human_review_count = human_review_count + human
      WHERE id = paper;
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER reviews_count AFTER INSERT OR DELETE OR UPDATE OF removed_at, paper_id, kind ON reviews
  FOR EACH ROW EXECUTE FUNCTION quire_count_review();
--> statement-breakpoint
UPDATE papers SET
  comment_count = (SELECT count(*) FROM comments c WHERE c.paper_id = papers.id AND c.removed_at IS NULL),
  ai_review_count = (SELECT count(*) FROM reviews r WHERE r.paper_id = papers.id AND r.kind = 'ai_advisory' AND r.removed_at IS NULL),
  human_review_count = (SELECT count(*) FROM reviews r WHERE r.paper_id = papers.id AND r.kind = 'human' AND r.removed_at IS NULL);
