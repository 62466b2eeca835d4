CREATE TABLE "reports" (
	"id" text PRIMARY KEY NOT NULL,
	"target_type" text NOT NULL,
	"target_id" text NOT NULL,
	"paper_id" text NOT NULL,
	"reason" text NOT NULL,
	"note" text,
	"reporter_owner_id" text,
	"status" text DEFAULT 'open' NOT NULL,
	"outcome" text,
	"resolved_by_owner_id" text,
	"resolved_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reports_resolution_check" CHECK (("reports"."status" = 'open' and "reports"."outcome" is null and "reports"."resolved_at" is null)
       or ("reports"."status" = 'resolved' and "reports"."outcome" is not null and "reports"."resolved_at" is not null))
);
--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_paper_id_papers_id_fk" FOREIGN KEY ("paper_id") REFERENCES "public"."papers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_reporter_owner_id_owners_id_fk" FOREIGN KEY ("reporter_owner_id") REFERENCES "public"."owners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_resolved_by_owner_id_owners_id_fk" FOREIGN KEY ("resolved_by_owner_id") REFERENCES "public"."owners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reports_open_idx" ON "reports" USING btree ("created_at","id") WHERE "reports"."status" = 'open';--> statement-breakpoint
CREATE INDEX "reports_target_idx" ON "reports" USING btree ("target_type","target_id");