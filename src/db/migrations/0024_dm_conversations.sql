-- When each participant's ask DM actually went out: their reminder counts from it (remind_at is set then), so a run
-- started late after downtime never reminds before, or moments after, the ask.
ALTER TABLE "run_participants" ADD COLUMN "asked_at" timestamp with time zone;--> statement-breakpoint
-- Participants of runs open at the upgrade were asked by the old rules: whole-run participants keep their run's
-- reminder time (none if the run already reminded), member-timezone ones their planned one.
UPDATE "run_participants" p SET "asked_at" = p."created_at",
	"remind_at" = CASE WHEN run."reminded_at" IS NULL THEN run."remind_at" END
	FROM "standup_runs" run
	WHERE run."id" = p."run_id" AND run."status" = 'open' AND NOT run."member_timezone"
	AND p."status" IN ('asked', 'answered', 'skipped');--> statement-breakpoint
UPDATE "run_participants" p SET "asked_at" = p."ask_at"
	FROM "standup_runs" run
	WHERE run."id" = p."run_id" AND run."status" = 'open' AND run."member_timezone"
	AND p."status" IN ('asked', 'answered', 'skipped');--> statement-breakpoint
-- Whose DM conversation a member is in: the run whose questions the bot is asking in their DM, one at a time. Another
-- run's questions wait until that run is answered, skipped or closed for them.
CREATE TABLE "dm_turns" (
	"team_id" text NOT NULL,
	"user_id" text NOT NULL,
	"run_id" bigint NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "dm_turns_team_id_user_id_pk" PRIMARY KEY("team_id","user_id")
);--> statement-breakpoint
CREATE INDEX "dm_turns_run_idx" ON "dm_turns" USING btree ("run_id");--> statement-breakpoint
-- Every standup question the bot asked in a member's DM, with its Slack ts: a DM answer belongs to the run whose
-- question came last before it. `post_key` names the message that asks it (the ask DM, or the one that hands the DM
-- over to this run); null for the follow-up questions posted in reply to an answer.
CREATE TABLE "dm_questions" (
	"run_id" bigint NOT NULL,
	"user_id" text NOT NULL,
	"question_index" integer NOT NULL,
	"team_id" text NOT NULL,
	"post_key" text,
	"ts" text,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "dm_questions_run_id_user_id_question_index_pk" PRIMARY KEY("run_id","user_id","question_index")
);--> statement-breakpoint
CREATE INDEX "dm_questions_team_user_idx" ON "dm_questions" USING btree ("team_id","user_id");
