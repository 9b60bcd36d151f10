-- When an uninstall last ended every way into the workspace (sessions, MCP keys, the feed token). It stays set
-- after a reinstall: a login token issued before it is refused, so a link from the old installation never opens
-- the new one. Workspaces already uninstalled count as ended at their uninstall.
ALTER TABLE "installations" ADD COLUMN "access_ended_at" timestamp with time zone;--> statement-breakpoint
UPDATE "installations" SET "access_ended_at" = "uninstalled_at" WHERE "uninstalled_at" IS NOT NULL;
