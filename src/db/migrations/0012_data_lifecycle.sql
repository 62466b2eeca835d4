ALTER TABLE "oauth_clients" ADD COLUMN "refreshed_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
CREATE INDEX "idempotency_keys_created_idx" ON "idempotency_keys" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "oauth_clients_refreshed_idx" ON "oauth_clients" USING btree ("refreshed_at");--> statement-breakpoint
CREATE INDEX "oauth_grants_client_idx" ON "oauth_grants" USING btree ("client_id");--> statement-breakpoint
CREATE INDEX "oauth_requests_expires_idx" ON "oauth_requests" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "oauth_requests_client_idx" ON "oauth_requests" USING btree ("client_id");--> statement-breakpoint
CREATE INDEX "oauth_tokens_expires_idx" ON "oauth_tokens" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "email_tokens_expires_idx" ON "email_tokens" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "owners_unverified_idx" ON "owners" USING btree ("created_at") WHERE "owners"."email_verified_at" is null;--> statement-breakpoint
CREATE INDEX "sessions_expires_idx" ON "sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "reports_resolved_idx" ON "reports" USING btree ("resolved_at") WHERE "reports"."status" = 'resolved';--> statement-breakpoint
-- oauth_clients.refreshed_at is when a client's row was last written: its registration (the
-- service's clock, as created_at) or the latest fetch of its Client ID Metadata Document
-- (whose upsert updates the row). A trigger keeps it so that every writer does, and the
-- prune (services/lifecycle) never removes a client whose document an instance may still
-- hold in its cache. Existing rows start at the migration's time, for the same reason.
CREATE OR REPLACE FUNCTION quire_oauth_client_refreshed() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    NEW.refreshed_at := NEW.created_at;
  ELSE
    NEW.refreshed_at := greatest(OLD.refreshed_at, now());
  END IF;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER oauth_clients_refreshed BEFORE INSERT OR UPDATE ON oauth_clients
  FOR EACH ROW EXECUTE FUNCTION quire_oauth_client_refreshed();
