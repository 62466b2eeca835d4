CREATE TABLE "dataset_snapshots" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"fingerprint" text NOT NULL,
	"paper_count" integer NOT NULL,
	"chunk_count" integer NOT NULL,
	"papers_sha256" text NOT NULL,
	"papers_bytes" bigint NOT NULL,
	"chunks_sha256" text NOT NULL,
	"chunks_bytes" bigint NOT NULL,
	"facets" jsonb NOT NULL,
	"corpus_first_published_at" timestamp with time zone,
	"corpus_modified_at" timestamp with time zone,
	"computed_at" timestamp with time zone NOT NULL,
	"compute_ms" integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "dataset_snapshots_fingerprint_idx" ON "dataset_snapshots" USING btree ("fingerprint");