CREATE TABLE "files" (
	"sha256" text PRIMARY KEY NOT NULL,
	"media_type" text NOT NULL,
	"size" integer NOT NULL,
	"content" "bytea" NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "files_sha256_check" CHECK ("files"."sha256" ~ '^[0-9a-f]{64}$'),
	CONSTRAINT "files_size_check" CHECK ("files"."size" = octet_length("files"."content"))
);
--> statement-breakpoint
CREATE TABLE "version_files" (
	"paper_id" text NOT NULL,
	"version" integer NOT NULL,
	"name" text NOT NULL,
	"role" text NOT NULL,
	"sha256" text NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "version_files_paper_id_version_name_pk" PRIMARY KEY("paper_id","version","name"),
	CONSTRAINT "version_files_role_check" CHECK ("version_files"."role" in ('figure', 'supplementary', 'source'))
);
--> statement-breakpoint
ALTER TABLE "version_files" ADD CONSTRAINT "version_files_sha256_files_sha256_fk" FOREIGN KEY ("sha256") REFERENCES "public"."files"("sha256") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "version_files" ADD CONSTRAINT "version_files_paper_id_version_paper_versions_paper_id_version_fk" FOREIGN KEY ("paper_id","version") REFERENCES "public"."paper_versions"("paper_id","version") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "version_files_sha256_idx" ON "version_files" USING btree ("sha256");