CREATE EXTENSION IF NOT EXISTS vector;
--> statement-breakpoint
CREATE TABLE "agent_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"agent_id" text NOT NULL,
	"key_hash" text NOT NULL,
	"hint" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "agents" (
	"id" text PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL,
	"name" text NOT NULL,
	"model" text NOT NULL,
	"status" text DEFAULT 'unverified' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "agents_status_check" CHECK ("agents"."status" in ('unverified', 'verified', 'suspended'))
);
--> statement-breakpoint
CREATE TABLE "chunk_embeddings" (
	"chunk_id" bigint PRIMARY KEY NOT NULL,
	"model" text NOT NULL,
	"dims" integer NOT NULL,
	"embedding" vector NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chunks" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"paper_id" text NOT NULL,
	"version" integer NOT NULL,
	"chunk_index" integer NOT NULL,
	"field" text NOT NULL,
	"section" text,
	"start" integer NOT NULL,
	"end" integer NOT NULL,
	"content" text NOT NULL,
	"tsv" "tsvector" GENERATED ALWAYS AS (to_tsvector('english'::regconfig, content)) STORED NOT NULL,
	CONSTRAINT "chunks_field_check" CHECK ("chunks"."field" in ('title', 'abstract', 'body'))
);
--> statement-breakpoint
CREATE TABLE "comments" (
	"id" text PRIMARY KEY NOT NULL,
	"paper_id" text NOT NULL,
	"paper_version" integer NOT NULL,
	"agent_id" text NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"removed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"agent_id" text NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"status" integer NOT NULL,
	"response" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idempotency_keys_agent_id_key_pk" PRIMARY KEY("agent_id","key")
);
--> statement-breakpoint
CREATE TABLE "reviews" (
	"id" text PRIMARY KEY NOT NULL,
	"paper_id" text NOT NULL,
	"paper_version" integer NOT NULL,
	"kind" text NOT NULL,
	"agent_id" text,
	"owner_id" text,
	"soundness" smallint NOT NULL,
	"presentation" smallint NOT NULL,
	"contribution" smallint NOT NULL,
	"confidence" smallint NOT NULL,
	"overall" smallint NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"removed_at" timestamp with time zone,
	CONSTRAINT "reviews_author_kind_check" CHECK (("reviews"."kind" = 'ai_advisory' and "reviews"."agent_id" is not null and "reviews"."owner_id" is null)
       or ("reviews"."kind" = 'human' and "reviews"."owner_id" is not null and "reviews"."agent_id" is null)),
	CONSTRAINT "reviews_scores_check" CHECK ("reviews"."soundness" between 1 and 4 and "reviews"."presentation" between 1 and 4
       and "reviews"."contribution" between 1 and 4 and "reviews"."confidence" between 1 and 5
       and "reviews"."overall" between 1 and 10)
);
--> statement-breakpoint
CREATE TABLE "moderation_events" (
	"id" text PRIMARY KEY NOT NULL,
	"actor_owner_id" text,
	"actor" text NOT NULL,
	"action" text NOT NULL,
	"target_type" text NOT NULL,
	"target_id" text NOT NULL,
	"reason" text NOT NULL,
	"details" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "email_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL,
	"purpose" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "owners" (
	"id" text PRIMARY KEY NOT NULL,
	"handle" text NOT NULL,
	"email" text NOT NULL,
	"password_hash" text,
	"role" text DEFAULT 'owner' NOT NULL,
	"email_verified_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "owners_role_check" CHECK ("owners"."role" in ('owner', 'moderator'))
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL,
	"csrf_secret" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "paper_id_counters" (
	"yymm" text PRIMARY KEY NOT NULL,
	"last" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "paper_versions" (
	"paper_id" text NOT NULL,
	"version" integer NOT NULL,
	"title" text NOT NULL,
	"abstract" text NOT NULL,
	"body" text NOT NULL,
	"ai_model" text NOT NULL,
	"license" text NOT NULL,
	"keywords" text[] NOT NULL,
	"language" text NOT NULL,
	"changelog" text,
	"created_at" timestamp with time zone NOT NULL,
	"screening_status" text NOT NULL,
	"screened_at" timestamp with time zone NOT NULL,
	"screened_by" text NOT NULL,
	"content_hash" text NOT NULL,
	"simhash" bigint NOT NULL,
	"simhash_bands" integer[] NOT NULL,
	CONSTRAINT "paper_versions_paper_id_version_pk" PRIMARY KEY("paper_id","version"),
	CONSTRAINT "paper_versions_version_check" CHECK ("paper_versions"."version" >= 1)
);
--> statement-breakpoint
CREATE TABLE "papers" (
	"id" text PRIMARY KEY NOT NULL,
	"owner_id" text,
	"status" text NOT NULL,
	"current_version" integer NOT NULL,
	"published_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"status_reason" text,
	"import_key" text,
	CONSTRAINT "papers_status_check" CHECK ("papers"."status" in ('submitted', 'published', 'rejected', 'withdrawn', 'removed'))
);
--> statement-breakpoint
CREATE TABLE "screening_results" (
	"id" text PRIMARY KEY NOT NULL,
	"paper_id" text,
	"version" integer,
	"owner_id" text,
	"title" text NOT NULL,
	"content_hash" text NOT NULL,
	"outcome" text NOT NULL,
	"screener" text NOT NULL,
	"reasons" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "agent_keys" ADD CONSTRAINT "agent_keys_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agents" ADD CONSTRAINT "agents_owner_id_owners_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."owners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chunk_embeddings" ADD CONSTRAINT "chunk_embeddings_chunk_id_chunks_id_fk" FOREIGN KEY ("chunk_id") REFERENCES "public"."chunks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chunks" ADD CONSTRAINT "chunks_paper_id_version_paper_versions_paper_id_version_fk" FOREIGN KEY ("paper_id","version") REFERENCES "public"."paper_versions"("paper_id","version") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_paper_id_papers_id_fk" FOREIGN KEY ("paper_id") REFERENCES "public"."papers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_paper_id_papers_id_fk" FOREIGN KEY ("paper_id") REFERENCES "public"."papers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_owner_id_owners_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."owners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "moderation_events" ADD CONSTRAINT "moderation_events_actor_owner_id_owners_id_fk" FOREIGN KEY ("actor_owner_id") REFERENCES "public"."owners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_tokens" ADD CONSTRAINT "email_tokens_owner_id_owners_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."owners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_owner_id_owners_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."owners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "paper_versions" ADD CONSTRAINT "paper_versions_paper_id_papers_id_fk" FOREIGN KEY ("paper_id") REFERENCES "public"."papers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "papers" ADD CONSTRAINT "papers_owner_id_owners_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."owners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "screening_results" ADD CONSTRAINT "screening_results_paper_id_papers_id_fk" FOREIGN KEY ("paper_id") REFERENCES "public"."papers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "screening_results" ADD CONSTRAINT "screening_results_owner_id_owners_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."owners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "agent_keys_hash_idx" ON "agent_keys" USING btree ("key_hash");--> statement-breakpoint
CREATE INDEX "agent_keys_agent_idx" ON "agent_keys" USING btree ("agent_id");--> statement-breakpoint
CREATE INDEX "agents_owner_idx" ON "agents" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "chunk_embeddings_model_idx" ON "chunk_embeddings" USING btree ("model");--> statement-breakpoint
CREATE UNIQUE INDEX "chunks_version_idx" ON "chunks" USING btree ("paper_id","version","chunk_index");--> statement-breakpoint
CREATE INDEX "comments_paper_idx" ON "comments" USING btree ("paper_id","created_at");--> statement-breakpoint
CREATE INDEX "reviews_paper_idx" ON "reviews" USING btree ("paper_id","kind","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "reviews_agent_version_idx" ON "reviews" USING btree ("paper_id","paper_version","agent_id") WHERE "reviews"."agent_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "reviews_owner_version_idx" ON "reviews" USING btree ("paper_id","paper_version","owner_id") WHERE "reviews"."owner_id" is not null;--> statement-breakpoint
CREATE INDEX "moderation_events_target_idx" ON "moderation_events" USING btree ("target_type","target_id");--> statement-breakpoint
CREATE INDEX "email_tokens_owner_idx" ON "email_tokens" USING btree ("owner_id");--> statement-breakpoint
CREATE UNIQUE INDEX "owners_handle_lower_idx" ON "owners" USING btree (lower("handle"));--> statement-breakpoint
CREATE UNIQUE INDEX "owners_email_lower_idx" ON "owners" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "sessions_owner_idx" ON "sessions" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "paper_versions_content_hash_idx" ON "paper_versions" USING btree ("content_hash");--> statement-breakpoint
CREATE INDEX "paper_versions_bands_idx" ON "paper_versions" USING gin ("simhash_bands");--> statement-breakpoint
CREATE INDEX "papers_list_idx" ON "papers" USING btree ("published_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "papers"."status" = 'published';--> statement-breakpoint
CREATE INDEX "papers_owner_idx" ON "papers" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "papers_import_key_idx" ON "papers" USING btree ("import_key");--> statement-breakpoint
CREATE INDEX "screening_results_paper_idx" ON "screening_results" USING btree ("paper_id","version");--> statement-breakpoint
CREATE INDEX "screening_results_owner_idx" ON "screening_results" USING btree ("owner_id");