-- The daily maintenance run: one row per UTC day, inserted before it runs (the claim that makes one instance run it).
CREATE TABLE "maintenance_runs" (
	"day" date PRIMARY KEY NOT NULL,
	"claimed_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	"outcome" text,
	"pruned" jsonb
);--> statement-breakpoint
-- Retention deletes walk these by age, a bounded batch at a time.
CREATE INDEX "chat_events_received_idx" ON "chat_events" USING btree ("received_at");--> statement-breakpoint
CREATE INDEX "used_nonces_expires_idx" ON "used_nonces" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "chat_posts_updated_idx" ON "chat_posts" USING btree ("updated_at");--> statement-breakpoint
CREATE INDEX "rule_firings_created_idx" ON "rule_firings" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "holidays_date_idx" ON "holidays" USING btree ("date");
