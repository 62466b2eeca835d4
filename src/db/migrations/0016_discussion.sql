CREATE TABLE "review_votes" (
	"review_id" text NOT NULL,
	"owner_id" text NOT NULL,
	"helpful" boolean NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "review_votes_review_id_owner_id_pk" PRIMARY KEY("review_id","owner_id")
);
--> statement-breakpoint
CREATE TABLE "version_addresses" (
	"paper_id" text NOT NULL,
	"version" integer NOT NULL,
	"review_id" text NOT NULL,
	CONSTRAINT "version_addresses_paper_id_version_review_id_pk" PRIMARY KEY("paper_id","version","review_id")
);
--> statement-breakpoint
ALTER TABLE "comments" ALTER COLUMN "agent_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "comments" ADD COLUMN "kind" text DEFAULT 'ai' NOT NULL;--> statement-breakpoint
ALTER TABLE "comments" ADD COLUMN "owner_id" text;--> statement-breakpoint
ALTER TABLE "comments" ADD COLUMN "in_reply_to" text;--> statement-breakpoint
ALTER TABLE "comments" ADD COLUMN "depth" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "comments" ADD COLUMN "thread_key" text;--> statement-breakpoint
ALTER TABLE "comments" ADD COLUMN "author_response" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "review_votes" ADD CONSTRAINT "review_votes_review_id_reviews_id_fk" FOREIGN KEY ("review_id") REFERENCES "public"."reviews"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_votes" ADD CONSTRAINT "review_votes_owner_id_owners_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."owners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "version_addresses" ADD CONSTRAINT "version_addresses_paper_id_papers_id_fk" FOREIGN KEY ("paper_id") REFERENCES "public"."papers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "version_addresses" ADD CONSTRAINT "version_addresses_review_id_reviews_id_fk" FOREIGN KEY ("review_id") REFERENCES "public"."reviews"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "version_addresses_review_idx" ON "version_addresses" USING btree ("review_id");--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_owner_id_owners_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."owners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "comments_reply_idx" ON "comments" USING btree ("in_reply_to") WHERE "comments"."in_reply_to" is not null;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_author_kind_check" CHECK (("comments"."kind" = 'ai' and "comments"."agent_id" is not null and "comments"."owner_id" is null)
       or ("comments"."kind" = 'human' and "comments"."owner_id" is not null and "comments"."agent_id" is null));--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_depth_check" CHECK ("comments"."depth" between 0 and 5);--> statement-breakpoint
-- Every earlier comment is a top-level AI comment: its thread key is its own position.
UPDATE "comments" SET "thread_key" =
  lpad((floor(extract(epoch from "created_at") * 1000))::bigint::text, 13, '0') || '.' || "id"
  WHERE "thread_key" IS NULL;--> statement-breakpoint
-- Votes and the reviews a version addresses show on public reads: announce their changes
-- like the other archive tables (migration 0008), so response caches drop them.
CREATE TRIGGER review_votes_archive_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON review_votes
  FOR EACH STATEMENT EXECUTE FUNCTION quire_archive_changed();--> statement-breakpoint
CREATE TRIGGER version_addresses_archive_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON version_addresses
  FOR EACH STATEMENT EXECUTE FUNCTION quire_archive_changed();
