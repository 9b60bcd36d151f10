-- Slack Web API pacing shared by every instance: one token bucket per workspace and Web API method (GCRA: `tat` is
-- the bucket's theoretical arrival time), paused until `paused_until` after a 429. `granted`/`wait_ms` are the outcome
-- of the last take, written by the take's own upsert so that it can return them.
CREATE TABLE "chat_rate_buckets" (
	"team_id" text NOT NULL,
	"bucket" text NOT NULL,
	"interval_ms" double precision NOT NULL,
	"burst" integer NOT NULL,
	"tat" timestamp with time zone NOT NULL,
	"paused_until" timestamp with time zone,
	"granted" boolean NOT NULL,
	"wait_ms" double precision NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "chat_rate_buckets_team_id_bucket_pk" PRIMARY KEY("team_id","bucket")
);--> statement-breakpoint
CREATE INDEX "chat_rate_buckets_updated_idx" ON "chat_rate_buckets" USING btree ("updated_at");
