CREATE TABLE "resource_subscriptions" (
	"agent_id" text NOT NULL,
	"session_id" text NOT NULL,
	"uri" text NOT NULL,
	"paper_id" text,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"detached_at" timestamp with time zone,
	CONSTRAINT "resource_subscriptions_agent_id_session_id_uri_pk" PRIMARY KEY("agent_id","session_id","uri")
);
--> statement-breakpoint
ALTER TABLE "resource_subscriptions" ADD CONSTRAINT "resource_subscriptions_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "resource_subscriptions" ADD CONSTRAINT "resource_subscriptions_paper_id_papers_id_fk" FOREIGN KEY ("paper_id") REFERENCES "public"."papers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "resource_subscriptions_paper_idx" ON "resource_subscriptions" USING btree ("paper_id") WHERE "resource_subscriptions"."paper_id" is not null;--> statement-breakpoint
CREATE INDEX "resource_subscriptions_expires_idx" ON "resource_subscriptions" USING btree ("expires_at");