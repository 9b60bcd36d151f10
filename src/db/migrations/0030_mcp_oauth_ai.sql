-- Issue 26: MCP with OAuth 2.1, write tools, AI summaries.
--
-- OAuth clients: registered dynamically (RFC 7591, client_id `mcpc_…`) or known by their Client ID Metadata
-- Document (client_id is the document's https URL; the fetched document is cached here). Not workspace data: a
-- client registers before anyone signs in, and one client (Claude, ChatGPT) serves people of many workspaces.
CREATE TABLE "oauth_clients" (
	"client_id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"client_name" text NOT NULL,
	"redirect_uris" jsonb NOT NULL,
	"client_uri" text,
	"metadata" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"fetched_at" timestamp with time zone,
	"last_used_at" timestamp with time zone
);--> statement-breakpoint
-- An authorization request waiting for the person's consent in the dashboard (10 minutes). The id is random and
-- only its SHA-256 is stored; the consent page carries the id.
CREATE TABLE "oauth_requests" (
	"id_hash" text PRIMARY KEY NOT NULL,
	"client_id" text NOT NULL,
	"redirect_uri" text NOT NULL,
	"state" text,
	"code_challenge" text NOT NULL,
	"scopes" jsonb NOT NULL,
	"resource" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"decided_at" timestamp with time zone
);--> statement-breakpoint
-- A person's consent to one client: what the "Connected AI clients" page lists and revokes.
CREATE TABLE "oauth_grants" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"team_id" text NOT NULL,
	"user_id" text NOT NULL,
	"client_id" text NOT NULL,
	"scopes" jsonb NOT NULL,
	"resource" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone
);--> statement-breakpoint
CREATE INDEX "oauth_grants_team_user_idx" ON "oauth_grants" USING btree ("team_id","user_id");--> statement-breakpoint
-- Authorization codes (1 minute, single use), access tokens (1 hour) and refresh tokens (30 days, rotated on every
-- use; a used one presented again revokes the whole grant). Only SHA-256 hashes are stored.
CREATE TABLE "oauth_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"grant_id" bigint NOT NULL,
	"team_id" text NOT NULL,
	"code_challenge" text,
	"redirect_uri" text,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);--> statement-breakpoint
CREATE INDEX "oauth_tokens_grant_idx" ON "oauth_tokens" USING btree ("grant_id");--> statement-breakpoint
CREATE INDEX "oauth_tokens_expires_idx" ON "oauth_tokens" USING btree ("expires_at");--> statement-breakpoint
-- What a key may do: existing keys stay read-only. A key with standups:write acts as the admin who created it.
ALTER TABLE "mcp_keys" ADD COLUMN "scopes" jsonb DEFAULT '["standups:read"]'::jsonb NOT NULL;--> statement-breakpoint
-- Where an answer, time off or kudo came from when not from Slack ('mcp'); null: Slack or the dashboard as before.
ALTER TABLE "responses" ADD COLUMN "via" text;--> statement-breakpoint
ALTER TABLE "time_off" ADD COLUMN "via" text;--> statement-breakpoint
-- AI summaries: per standup, off by default (and off everywhere unless LLM_API_URL is set).
ALTER TABLE "schedules" ADD COLUMN "ai_summary" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- One AI summary per run, claimed before the model is called (two instances never both call it or post it).
CREATE TABLE "ai_summaries" (
	"run_id" bigint PRIMARY KEY NOT NULL,
	"team_id" text NOT NULL,
	"schedule_id" text NOT NULL,
	"standup_date" date NOT NULL,
	"status" text NOT NULL,
	"text" text,
	"model" text,
	"tokens" integer DEFAULT 0 NOT NULL,
	"error" text,
	"created_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone
);--> statement-breakpoint
CREATE INDEX "ai_summaries_team_date_idx" ON "ai_summaries" USING btree ("team_id","standup_date");--> statement-breakpoint
-- Tokens spent on the model per workspace and UTC day: the daily budget counts them.
CREATE TABLE "llm_usage" (
	"team_id" text NOT NULL,
	"day" date NOT NULL,
	"tokens" integer DEFAULT 0 NOT NULL,
	"calls" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "llm_usage_pk" PRIMARY KEY("team_id","day")
);
