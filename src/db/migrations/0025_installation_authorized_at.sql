-- When the installation's current bot token was stored (the first install or the latest reinstall). An
-- app_uninstalled or tokens_revoked delivery processed late (the intake re-runs failed deliveries for up to ~45
-- minutes) must not uninstall a reinstall that came after it: it applies only when the event is not older than this.
ALTER TABLE "installations" ADD COLUMN "authorized_at" timestamp with time zone;--> statement-breakpoint
UPDATE "installations" SET "authorized_at" = "installed_at";
