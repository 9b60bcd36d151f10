-- The last failed attempt of an endpoint: a failure more than a day after the previous one starts a new streak, so
-- "failing for 5 days" means failing without a break, not one blip after a long silence.
ALTER TABLE "webhook_endpoints" ADD COLUMN "last_failure_at" timestamp with time zone;--> statement-breakpoint
UPDATE "webhook_endpoints" SET "last_failure_at" = "failing_since" WHERE "failing_since" IS NOT NULL;
