-- Search index (issue 4). Hand edit: the postings key INCLUDEs tf and length, so a term's
-- postings are read by an index-only scan (drizzle-kit cannot express INCLUDE).
CREATE TABLE "embedding_queue" (
	"chunk_id" bigint PRIMARY KEY NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"not_before" timestamp with time zone DEFAULT now() NOT NULL,
	"last_error" text,
	"enqueued_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "search_chunks" (
	"chunk_id" bigint PRIMARY KEY NOT NULL,
	"paper_id" text NOT NULL,
	"version" integer NOT NULL,
	"length" integer NOT NULL,
	"terms" text[] NOT NULL,
	"grams" sparsevec NOT NULL
);
--> statement-breakpoint
CREATE TABLE "search_grams" (
	"gram" integer PRIMARY KEY NOT NULL,
	"df" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "search_meta" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "search_postings" (
	"term" text NOT NULL,
	"chunk_id" bigint NOT NULL,
	"tf" smallint NOT NULL,
	"length" integer NOT NULL,
	CONSTRAINT "search_postings_term_chunk_id_pk" PRIMARY KEY("term","chunk_id") INCLUDE ("tf","length")
);
--> statement-breakpoint
CREATE TABLE "search_stats" (
	"slot" smallint PRIMARY KEY NOT NULL,
	"chunks" bigint NOT NULL,
	"length" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "search_terms" (
	"term" text PRIMARY KEY NOT NULL,
	"df" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "embedding_queue" ADD CONSTRAINT "embedding_queue_chunk_id_chunks_id_fk" FOREIGN KEY ("chunk_id") REFERENCES "public"."chunks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "search_chunks" ADD CONSTRAINT "search_chunks_chunk_id_chunks_id_fk" FOREIGN KEY ("chunk_id") REFERENCES "public"."chunks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "embedding_queue_due_idx" ON "embedding_queue" USING btree ("not_before");--> statement-breakpoint
CREATE INDEX "search_chunks_paper_idx" ON "search_chunks" USING btree ("paper_id");