-- Kudos: one row per person a kudo went to. Kept for good: they are the product's data (the dashboard, the
-- leaderboard and the MCP tool read them), a few per person per day at most (10 a giver a day).
CREATE TABLE "kudos" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"team_id" text NOT NULL,
	"from_user" text NOT NULL,
	"to_user" text NOT NULL,
	"message" text NOT NULL,
	"channel_id" text NOT NULL,
	"source" text NOT NULL,
	"source_key" text NOT NULL,
	"given_on" date NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);--> statement-breakpoint
-- One kudo per receiver per message: Slack retries, edits and a message seen twice never count again.
CREATE UNIQUE INDEX "kudos_source_receiver_uq" ON "kudos" USING btree ("team_id","source_key","to_user");--> statement-breakpoint
-- The newest kudos and the leaderboard's window.
CREATE INDEX "kudos_team_created_idx" ON "kudos" USING btree ("team_id","created_at","id");--> statement-breakpoint
-- The daily limit: what a giver gave on one workspace date.
CREATE INDEX "kudos_team_giver_day_idx" ON "kudos" USING btree ("team_id","from_user","given_on");--> statement-breakpoint
-- The standup modal's optional shout-out field, per schedule.
ALTER TABLE "schedules" ADD COLUMN "kudos_field" boolean DEFAULT false NOT NULL;
