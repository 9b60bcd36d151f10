-- One AI summary per standup and week for the weekly e-mail digest, claimed before the model is called, so two
-- instances or a resend of the digest never call it twice (ai_summaries is keyed by run, so it cannot hold these).
CREATE TABLE "ai_digest_summaries" (
	"team_id" text NOT NULL,
	"schedule_id" text NOT NULL,
	"week_start" date NOT NULL,
	"status" text NOT NULL,
	"text" text,
	"model" text,
	"tokens" integer DEFAULT 0 NOT NULL,
	"error" text,
	"created_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "ai_digest_summaries_pk" PRIMARY KEY("team_id","schedule_id","week_start")
);
