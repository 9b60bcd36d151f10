-- Durable intake (DESIGN.md §11): every verified Slack delivery is stored before it is acknowledged, processed after,
-- and marked done; what is not done by `retry_at` is taken again by any instance's sweep. Rows from before this
-- migration were event-id claims only: they stay valid as `done` (the column default), with nothing to re-run.
ALTER TABLE "chat_events" ADD COLUMN "kind" text DEFAULT 'event' NOT NULL;--> statement-breakpoint
ALTER TABLE "chat_events" ADD COLUMN "type" text;--> statement-breakpoint
ALTER TABLE "chat_events" ADD COLUMN "payload" text;--> statement-breakpoint
ALTER TABLE "chat_events" ADD COLUMN "state" text DEFAULT 'done' NOT NULL;--> statement-breakpoint
ALTER TABLE "chat_events" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "chat_events" ADD COLUMN "retry_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "chat_events" ADD COLUMN "last_error" text;--> statement-breakpoint
ALTER TABLE "chat_events" ADD COLUMN "updated_at" timestamp with time zone;--> statement-breakpoint
-- The sweep reads only what is due; the admin list only what failed, per workspace.
CREATE INDEX "chat_events_due_idx" ON "chat_events" USING btree ("retry_at") WHERE "state" = 'pending';--> statement-breakpoint
CREATE INDEX "chat_events_failed_idx" ON "chat_events" USING btree ("team_id","received_at") WHERE "state" = 'failed';
