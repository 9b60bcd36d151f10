-- Time off: a member's away ranges, start and end dates both included (YYYY-MM-DD, compared with the date a run is
-- for). A member's overlapping or adjacent ranges are merged on write, so they never overlap. Retention: ranges that
-- ended more than a year ago are pruned (each write prunes its workspace's).
CREATE TABLE "time_off" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"team_id" text NOT NULL,
	"user_id" text NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "time_off_dates" CHECK ("end_date" >= "start_date")
);--> statement-breakpoint
-- Whether a member is away on a date, and a member's ranges in order.
CREATE INDEX "time_off_team_user_idx" ON "time_off" USING btree ("team_id","user_id","start_date");--> statement-breakpoint
-- The workspace's list (current and upcoming first) and pruning.
CREATE INDEX "time_off_team_end_idx" ON "time_off" USING btree ("team_id","end_date");
