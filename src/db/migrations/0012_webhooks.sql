-- Outbound webhooks (Standard Webhooks). Endpoints live until an admin deletes them (at most 20 a workspace); the
-- signing secret is stored encrypted (AES-256-GCM) because every delivery is signed with it.
CREATE TABLE "webhook_endpoints" (
	"id" serial PRIMARY KEY NOT NULL,
	"team_id" text NOT NULL,
	"url" text NOT NULL,
	"events" text[] NOT NULL,
	"secret_enc" text NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"last_success_at" timestamp with time zone,
	"failing_since" timestamp with time zone,
	"disabled_at" timestamp with time zone,
	"disabled_reason" text
);--> statement-breakpoint
CREATE INDEX "webhook_endpoints_team_idx" ON "webhook_endpoints" USING btree ("team_id","id");--> statement-breakpoint
-- One row per message per endpoint; retried in place. Retention: 30 days, and at most the newest 100 finished
-- ones per endpoint (what the dashboard lists); the body is dropped once a delivery is finished.
CREATE TABLE "webhook_deliveries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"team_id" text NOT NULL,
	"endpoint_id" integer NOT NULL,
	"message_id" text NOT NULL,
	"type" text NOT NULL,
	"payload" text,
	"status" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"last_attempt_at" timestamp with time zone,
	"last_status_code" integer,
	"last_error" text,
	"created_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone
);--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_deliveries_endpoint_message_uq" ON "webhook_deliveries" USING btree ("endpoint_id","message_id");--> statement-breakpoint
-- The deliveries log of an endpoint, newest first.
CREATE INDEX "webhook_deliveries_endpoint_created_idx" ON "webhook_deliveries" USING btree ("endpoint_id","created_at","id");--> statement-breakpoint
-- The sweeper's pass over attempts that are due.
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("next_attempt_at") WHERE "status" = 'pending';--> statement-breakpoint
-- Pruning by age.
CREATE INDEX "webhook_deliveries_created_idx" ON "webhook_deliveries" USING btree ("created_at");
