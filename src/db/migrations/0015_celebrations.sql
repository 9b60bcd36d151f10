-- Celebrations: the settings of a workspace (its timezone and working days are the workspace calendar's, in
-- workspace_calendars), one claim per workspace, kind and posting day (the exactly-once key of the daily post;
-- pruned after 400 days by the scheduler), and when each member was last asked for their dates (one row per
-- member, overwritten at most every 30 days).
CREATE TABLE "celebration_settings" (
	"team_id" text PRIMARY KEY NOT NULL,
	"channel_id" text,
	"post_time" text DEFAULT '09:00' NOT NULL,
	"birthdays" boolean DEFAULT true NOT NULL,
	"anniversaries" boolean DEFAULT true NOT NULL,
	"admins" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "celebration_posts" (
	"team_id" text NOT NULL,
	"kind" text NOT NULL,
	"post_date" date NOT NULL,
	"user_ids" jsonb NOT NULL,
	"claimed_at" timestamp with time zone NOT NULL,
	CONSTRAINT "celebration_posts_team_id_kind_post_date_pk" PRIMARY KEY("team_id","kind","post_date")
);
--> statement-breakpoint
CREATE TABLE "celebration_asks" (
	"team_id" text NOT NULL,
	"user_id" text NOT NULL,
	"asked_at" timestamp with time zone NOT NULL,
	CONSTRAINT "celebration_asks_team_id_user_id_pk" PRIMARY KEY("team_id","user_id")
);
