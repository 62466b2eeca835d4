ALTER TABLE "papers" ADD COLUMN "subjects" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
CREATE INDEX "comments_agent_idx" ON "comments" USING btree ("agent_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "reviews_agent_idx" ON "reviews" USING btree ("agent_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "reviews"."agent_id" is not null;--> statement-breakpoint
CREATE INDEX "papers_updated_idx" ON "papers" USING btree ("updated_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "papers"."status" = 'published';--> statement-breakpoint
CREATE INDEX "papers_discussed_idx" ON "papers" USING btree (("comment_count" + "ai_review_count" + "human_review_count") desc,"id" DESC NULLS LAST) WHERE "papers"."status" = 'published';--> statement-breakpoint
CREATE INDEX "papers_subjects_idx" ON "papers" USING gin ("subjects") WHERE "papers"."status" = 'published';--> statement-breakpoint
ALTER TABLE "papers" ADD CONSTRAINT "papers_subjects_check" CHECK (cardinality("papers"."subjects") <= 5);