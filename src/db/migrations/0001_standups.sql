CREATE TABLE "chat_posts" (
	"key" text PRIMARY KEY NOT NULL,
	"team_id" text NOT NULL,
	"channel" text NOT NULL,
	"state" text NOT NULL,
	"ts" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "holidays" (
	"team_id" text NOT NULL,
	"date" date NOT NULL,
	"name" text NOT NULL,
	CONSTRAINT "holidays_team_id_date_pk" PRIMARY KEY("team_id","date")
);
--> statement-breakpoint
CREATE TABLE "responses" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"team_id" text NOT NULL,
	"schedule_id" text NOT NULL,
	"run_id" bigint NOT NULL,
	"user_id" text NOT NULL,
	"standup_date" date NOT NULL,
	"answers" jsonb NOT NULL,
	"yesterday" text DEFAULT '' NOT NULL,
	"today" text DEFAULT '' NOT NULL,
	"blockers" text DEFAULT '' NOT NULL,
	"mood" text,
	"has_blocker" boolean DEFAULT false NOT NULL,
	"submitted_at" timestamp with time zone NOT NULL,
	"edited_at" timestamp with time zone,
	"version" integer DEFAULT 1 NOT NULL,
	"reply_ts" text
);
--> statement-breakpoint
CREATE TABLE "run_participants" (
	"run_id" bigint NOT NULL,
	"user_id" text NOT NULL,
	"team_id" text NOT NULL,
	"status" text DEFAULT 'asked' NOT NULL,
	"dm_channel" text,
	"draft" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "run_participants_run_id_user_id_pk" PRIMARY KEY("run_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "schedules" (
	"id" text PRIMARY KEY NOT NULL,
	"team_id" text NOT NULL,
	"channel_id" text NOT NULL,
	"schedule_time" text NOT NULL,
	"schedule_tz" text NOT NULL,
	"schedule_days" text NOT NULL,
	"questions" jsonb NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "standup_runs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"team_id" text NOT NULL,
	"schedule_id" text NOT NULL,
	"local_date" date NOT NULL,
	"channel_id" text NOT NULL,
	"questions" jsonb NOT NULL,
	"schedule_tz" text NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"remind_at" timestamp with time zone NOT NULL,
	"closes_at" timestamp with time zone NOT NULL,
	"status" text NOT NULL,
	"parent_ts" text,
	"reminded_at" timestamp with time zone,
	"closed_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "workspace_calendars" (
	"team_id" text PRIMARY KEY NOT NULL,
	"timezone" text DEFAULT 'UTC' NOT NULL,
	"working_days" text DEFAULT 'mon,tue,wed,thu,fri' NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "responses_member_day_uq" ON "responses" USING btree ("team_id","schedule_id","user_id","standup_date");--> statement-breakpoint
CREATE INDEX "responses_team_date_idx" ON "responses" USING btree ("team_id","standup_date");--> statement-breakpoint
CREATE INDEX "responses_run_idx" ON "responses" USING btree ("run_id");--> statement-breakpoint
CREATE INDEX "run_participants_team_user_idx" ON "run_participants" USING btree ("team_id","user_id");--> statement-breakpoint
CREATE INDEX "schedules_team_idx" ON "schedules" USING btree ("team_id");--> statement-breakpoint
CREATE UNIQUE INDEX "standup_runs_schedule_date_uq" ON "standup_runs" USING btree ("schedule_id","local_date");--> statement-breakpoint
CREATE INDEX "standup_runs_team_date_idx" ON "standup_runs" USING btree ("team_id","local_date");--> statement-breakpoint
CREATE INDEX "standup_runs_open_idx" ON "standup_runs" USING btree ("status","closes_at");