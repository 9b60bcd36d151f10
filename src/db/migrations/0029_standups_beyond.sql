-- Issue 25: blockers with a life, answers on your own time, typed questions, anonymous pulse.
--
-- Typed questions: one object per question ({text, type, options?, min?, max?, required, anonymous}), in the order of
-- `questions` (which keeps the texts). Null: every question is required free text, as before this migration.
ALTER TABLE "schedules" ADD COLUMN "question_details" jsonb;--> statement-breakpoint
-- The questions as the run asked them: later edits of the schedule never change what an old run meant.
ALTER TABLE "standup_runs" ADD COLUMN "question_details" jsonb;--> statement-breakpoint
-- From this many hours before a run a member may answer it ahead (0: not ahead).
ALTER TABLE "schedules" ADD COLUMN "answer_early_hours" integer DEFAULT 12 NOT NULL;--> statement-breakpoint
-- Each question's typed value (number, boolean, option text or list of option texts; null for text, unanswered and
-- anonymous questions). `answers` keeps every answer's text, so search, CSV and the spec's fields read as before.
ALTER TABLE "responses" ADD COLUMN "answer_values" jsonb;--> statement-breakpoint
-- Given after the member's window on the run closed (accepted until the standup's next run starts).
ALTER TABLE "responses" ADD COLUMN "late" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Answers given ahead of a run that has not started yet: turned into the run's response when it asks the member.
-- `questions` holds the questions as answered (one detail object per question, texts included): answers are stored
-- by position, so a run whose questions differ does not take them (the member is asked again instead).
CREATE TABLE "early_answers" (
	"team_id" text NOT NULL,
	"schedule_id" text NOT NULL,
	"user_id" text NOT NULL,
	"local_date" date NOT NULL,
	"answers" jsonb NOT NULL,
	"answer_values" jsonb,
	"mood" text,
	"questions" jsonb NOT NULL,
	"submitted_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "early_answers_pk" PRIMARY KEY("team_id","schedule_id","user_id","local_date")
);--> statement-breakpoint
CREATE INDEX "early_answers_team_user_idx" ON "early_answers" USING btree ("team_id","user_id");--> statement-breakpoint
-- Answers to anonymous questions, kept without the member (no user id, no time, a random key): shown only as
-- aggregates of at least five answers.
CREATE TABLE "anonymous_answers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"team_id" text NOT NULL,
	"schedule_id" text NOT NULL,
	"standup_date" date NOT NULL,
	"question_index" integer NOT NULL,
	"value" jsonb NOT NULL
);--> statement-breakpoint
CREATE INDEX "anonymous_answers_team_schedule_date_idx" ON "anonymous_answers" USING btree ("team_id","schedule_id","standup_date");--> statement-breakpoint
-- A blocker a member reported, tracked until resolved. One open item per member and standup: reporting a blocker
-- again while one is open is the same item (its text follows the latest answer).
CREATE TABLE "blockers" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"team_id" text NOT NULL,
	"schedule_id" text NOT NULL,
	"user_id" text NOT NULL,
	"text" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"opened_at" timestamp with time zone NOT NULL,
	"opened_date" date NOT NULL,
	"first_response_id" bigint,
	"last_response_id" bigint,
	"last_reported_at" timestamp with time zone NOT NULL,
	"last_date" date NOT NULL,
	"resolved_at" timestamp with time zone,
	"resolved_by" text,
	"resolution_note" text,
	"resolved_via" text,
	CONSTRAINT "blockers_status" CHECK ("status" IN ('open', 'resolved'))
);--> statement-breakpoint
CREATE UNIQUE INDEX "blockers_open_uq" ON "blockers" USING btree ("team_id","schedule_id","user_id") WHERE "status" = 'open';--> statement-breakpoint
CREATE INDEX "blockers_team_status_opened_idx" ON "blockers" USING btree ("team_id","status","opened_at");--> statement-breakpoint
CREATE INDEX "blockers_team_user_idx" ON "blockers" USING btree ("team_id","user_id");--> statement-breakpoint
-- Rules that fire on a blocker item (blocker_open_days): one firing per rule and blocker. Its run_id is the run that
-- last reported the blocker; the run key no longer covers these firings.
ALTER TABLE "rule_firings" ADD COLUMN "blocker_id" bigint;--> statement-breakpoint
DROP INDEX "rule_firings_run_uq";--> statement-breakpoint
CREATE UNIQUE INDEX "rule_firings_run_uq" ON "rule_firings" USING btree ("rule_id","run_id") WHERE "response_id" IS NULL AND "blocker_id" IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "rule_firings_blocker_uq" ON "rule_firings" USING btree ("rule_id","blocker_id") WHERE "blocker_id" IS NOT NULL;
--> statement-breakpoint
-- At the upgrade, the blockers counted active until now (a member's latest answer in a standup within 7 days
-- reports one) become open items, so "active blockers" reads the same the moment after as the moment before.
INSERT INTO "blockers" ("team_id", "schedule_id", "user_id", "text", "opened_at", "opened_date", "first_response_id",
	"last_response_id", "last_reported_at", "last_date")
SELECT "team_id", "schedule_id", "user_id", "blockers", "submitted_at", "standup_date", "id", "id", "submitted_at", "standup_date"
FROM (
	SELECT DISTINCT ON (r."team_id", r."schedule_id", r."user_id") r.*
	FROM "responses" r
	JOIN "schedules" s ON s."id" = r."schedule_id" AND s."team_id" = r."team_id" AND s."deleted_at" IS NULL
	WHERE r."standup_date" >= (now() - interval '7 days')::date
	ORDER BY r."team_id", r."schedule_id", r."user_id", r."standup_date" DESC, r."id" DESC
) latest
WHERE latest."has_blocker";
