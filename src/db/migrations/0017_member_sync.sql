-- The member sync of each workspace: whether one is queued or running, when the last one started and finished,
-- how it ended and what it changed, and which UTC day's daily resync has been claimed. One row per workspace
-- (bounded: never pruned; kept with the workspace's other data).
CREATE TABLE "member_syncs" (
	"team_id" text PRIMARY KEY NOT NULL,
	"state" text DEFAULT 'idle' NOT NULL,
	"reason" text,
	"queued_at" timestamp with time zone,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"outcome" text,
	"error" text,
	"listed" integer,
	"added" integer,
	"deactivated" integer,
	"reactivated" integer,
	"daily_date" date,
	CONSTRAINT "member_syncs_state" CHECK ("state" IN ('idle', 'queued', 'running')),
	CONSTRAINT "member_syncs_outcome" CHECK ("outcome" IS NULL OR "outcome" IN ('ok', 'failed'))
);
