-- Workflow rules: when something happens in a standup (a blocker, low participation or mood at a run's close),
-- post to a channel or DM an admin. At most 100 a workspace (the service checks); deleting one removes its row.
CREATE TABLE "rules" (
	"id" serial PRIMARY KEY NOT NULL,
	"team_id" text NOT NULL,
	"trigger" text NOT NULL,
	"trigger_threshold" double precision,
	"action" text NOT NULL,
	"action_target" text NOT NULL,
	"schedule_id" text,
	"active" boolean DEFAULT true NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"version" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE INDEX "rules_team_trigger_idx" ON "rules" USING btree ("team_id","trigger");
--> statement-breakpoint
-- One row per rule and subject (a response for blocker_reported, a run for the close triggers), inserted in the
-- transaction of the event: the unique keys make a firing exactly-once, whatever retries and second instances do.
-- Pruned after 90 days by the firing job.
CREATE TABLE "rule_firings" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"team_id" text NOT NULL,
	"rule_id" integer NOT NULL,
	"run_id" bigint NOT NULL,
	"response_id" bigint,
	"outcome" text,
	"created_at" timestamp with time zone NOT NULL,
	"done_at" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX "rule_firings_response_uq" ON "rule_firings" USING btree ("rule_id","response_id") WHERE "response_id" IS NOT NULL;
--> statement-breakpoint
CREATE UNIQUE INDEX "rule_firings_run_uq" ON "rule_firings" USING btree ("rule_id","run_id") WHERE "response_id" IS NULL;
--> statement-breakpoint
CREATE INDEX "rule_firings_team_created_idx" ON "rule_firings" USING btree ("team_id","created_at");
