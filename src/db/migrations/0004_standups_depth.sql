ALTER TABLE "standup_runs" ALTER COLUMN "remind_at" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "run_participants" ADD COLUMN "ask_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "run_participants" ADD COLUMN "remind_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "run_participants" ADD COLUMN "closes_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "run_participants" ADD COLUMN "local_date" date;--> statement-breakpoint
ALTER TABLE "run_participants" ADD COLUMN "reminded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "schedules" ADD COLUMN "name" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "schedules" ADD COLUMN "blocker_question" integer DEFAULT 3;--> statement-breakpoint
ALTER TABLE "schedules" ADD COLUMN "reminder_minutes" integer DEFAULT 120;--> statement-breakpoint
ALTER TABLE "schedules" ADD COLUMN "ask_in_member_timezone" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "schedules" ADD COLUMN "timing_changed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "standup_runs" ADD COLUMN "blocker_question" integer DEFAULT 3;--> statement-breakpoint
ALTER TABLE "standup_runs" ADD COLUMN "trigger" text DEFAULT 'schedule' NOT NULL;--> statement-breakpoint
ALTER TABLE "standup_runs" ADD COLUMN "member_timezone" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "run_participants_ask_idx" ON "run_participants" USING btree ("status","ask_at");--> statement-breakpoint
CREATE INDEX "run_participants_remind_idx" ON "run_participants" USING btree ("remind_at");