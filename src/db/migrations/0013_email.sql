-- E-mail (welcome and weekly digest). Who switched the digest off; absent means on.
CREATE TABLE "email_preferences" (
	"team_id" text NOT NULL,
	"user_id" text NOT NULL,
	"digest" boolean NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "email_preferences_team_id_user_id_pk" PRIMARY KEY("team_id","user_id")
);
--> statement-breakpoint
-- Every e-mail is claimed here under its key before it is sent: 'welcome' (once per workspace, kept for good) or
-- 'digest:<week start>:<user id>' (once per workspace, week and recipient; pruned after 90 days).
CREATE TABLE "email_sends" (
	"team_id" text NOT NULL,
	"key" text NOT NULL,
	"kind" text NOT NULL,
	"user_id" text NOT NULL,
	"week_start" date,
	"state" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"provider_id" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "email_sends_team_id_key_pk" PRIMARY KEY("team_id","key")
);
--> statement-breakpoint
CREATE INDEX "email_sends_team_kind_created_idx" ON "email_sends" USING btree ("team_id","kind","created_at");
--> statement-breakpoint
-- The weekly digest of a workspace is claimed once per week (the Monday of the week it reports); pruned after 90 days.
CREATE TABLE "email_digest_weeks" (
	"team_id" text NOT NULL,
	"week_start" date NOT NULL,
	"recipients" integer DEFAULT 0 NOT NULL,
	"claimed_at" timestamp with time zone NOT NULL,
	CONSTRAINT "email_digest_weeks_team_id_week_start_pk" PRIMARY KEY("team_id","week_start")
);
