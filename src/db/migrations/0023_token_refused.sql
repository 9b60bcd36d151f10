-- Slack refused the workspace's token (invalid_auth, account_inactive, token_revoked, token_expired): when, and the
-- code it answered. Set together with uninstalled_at (the same stop of work and access); a reinstall clears both.
ALTER TABLE "installations" ADD COLUMN "token_refused_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "installations" ADD COLUMN "token_refused_error" text;--> statement-breakpoint
-- The daily auth.test of every installed workspace: one row per UTC day, inserted before its jobs are queued (the
-- claim that makes one instance queue them).
CREATE TABLE "token_check_runs" (
	"day" date PRIMARY KEY NOT NULL,
	"claimed_at" timestamp with time zone NOT NULL,
	"workspaces" integer NOT NULL
);
