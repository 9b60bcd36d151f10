CREATE TABLE "feed_tokens" (
	"team_id" text PRIMARY KEY NOT NULL,
	"token_hash" text NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mcp_keys" (
	"id" serial PRIMARY KEY NOT NULL,
	"team_id" text NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"key_hash" text NOT NULL,
	"key_prefix" text NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "responses" ADD COLUMN "search" tsvector GENERATED ALWAYS AS (to_tsvector('english', coalesce(yesterday, '') || ' ' || coalesce(today, '') || ' ' || coalesce(blockers, ''))) STORED;--> statement-breakpoint
CREATE UNIQUE INDEX "feed_tokens_hash_uq" ON "feed_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "mcp_keys_hash_uq" ON "mcp_keys" USING btree ("key_hash");--> statement-breakpoint
CREATE INDEX "mcp_keys_team_idx" ON "mcp_keys" USING btree ("team_id");--> statement-breakpoint
CREATE INDEX "responses_team_user_date_idx" ON "responses" USING btree ("team_id","user_id","standup_date");--> statement-breakpoint
CREATE INDEX "responses_search_idx" ON "responses" USING gin ("search");