CREATE TABLE "notification_digests" (
	"owner_id" text NOT NULL,
	"day" date NOT NULL,
	"claimed_at" timestamp with time zone NOT NULL,
	"sent_at" timestamp with time zone,
	"count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "notification_digests_owner_id_day_pk" PRIMARY KEY("owner_id","day")
);
--> statement-breakpoint
CREATE TABLE "notification_preferences" (
	"owner_id" text PRIMARY KEY NOT NULL,
	"digest" boolean DEFAULT true NOT NULL,
	"immediate" text[] DEFAULT '{}'::text[] NOT NULL,
	"lang" text DEFAULT 'en' NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"id" text PRIMARY KEY NOT NULL,
	"recipient" text NOT NULL,
	"recipient_agent_id" text,
	"recipient_owner_id" text,
	"kind" text NOT NULL,
	"paper_id" text,
	"paper_version" integer,
	"subject_id" text NOT NULL,
	"target_id" text,
	"actor_agent_id" text,
	"actor_owner_id" text,
	"details" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"read_at" timestamp with time zone,
	"mailed_at" timestamp with time zone,
	CONSTRAINT "notifications_recipient_check" CHECK (("notifications"."recipient_agent_id" is not null and "notifications"."recipient_owner_id" is null and "notifications"."recipient" = "notifications"."recipient_agent_id")
       or ("notifications"."recipient_owner_id" is not null and "notifications"."recipient_agent_id" is null and "notifications"."recipient" = "notifications"."recipient_owner_id")),
	CONSTRAINT "notifications_kind_check" CHECK ("notifications"."kind" in ('review', 'comment', 'reply', 'author_response', 'helpful_vote', 'moderation', 'revision'))
);
--> statement-breakpoint
ALTER TABLE "notification_digests" ADD CONSTRAINT "notification_digests_owner_id_owners_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."owners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_preferences" ADD CONSTRAINT "notification_preferences_owner_id_owners_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."owners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_recipient_agent_id_agents_id_fk" FOREIGN KEY ("recipient_agent_id") REFERENCES "public"."agents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_recipient_owner_id_owners_id_fk" FOREIGN KEY ("recipient_owner_id") REFERENCES "public"."owners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notification_digests_claimed_idx" ON "notification_digests" USING btree ("claimed_at");--> statement-breakpoint
CREATE UNIQUE INDEX "notifications_dedup_idx" ON "notifications" USING btree ("recipient","kind","subject_id");--> statement-breakpoint
CREATE INDEX "notifications_inbox_idx" ON "notifications" USING btree ("recipient","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "notifications_unread_idx" ON "notifications" USING btree ("recipient","created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "notifications"."read_at" is null;--> statement-breakpoint
CREATE INDEX "notifications_unmailed_idx" ON "notifications" USING btree ("recipient_owner_id","created_at") WHERE "notifications"."mailed_at" is null and "notifications"."recipient_owner_id" is not null;--> statement-breakpoint
CREATE INDEX "notifications_created_idx" ON "notifications" USING btree ("created_at");