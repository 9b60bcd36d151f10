-- Dashboard at size (issue 27): whether each asked participant answered, and with a blocker, kept on the
-- participant row itself, so the participation views (stats, reports, analytics, MCP) read a window's
-- participants by run and need no join to the answers (at 5,000 members × 30 days that join was ~90 of ~220 ms).
-- Exact by construction: triggers on responses keep the two columns in step with every insert, edit and delete of
-- an answer, whatever code path writes it, and a participant row added after its member's answer starts from it.
ALTER TABLE "run_participants" ADD COLUMN IF NOT EXISTS "answered" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "run_participants" ADD COLUMN IF NOT EXISTS "has_blocker" boolean DEFAULT false NOT NULL;--> statement-breakpoint
UPDATE "run_participants" p SET "answered" = true, "has_blocker" = r."has_blocker"
  FROM "responses" r WHERE r."run_id" = p."run_id" AND r."user_id" = p."user_id";--> statement-breakpoint
-- The (run, member) keys an answer change touches are set from what answers they have now (a member answers a run
-- at most once; `bool_or` keeps it exact even if two rows ever shared a key). A row already right is not written.
CREATE OR REPLACE FUNCTION "upbeat_sync_participant_answer"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE "run_participants" p SET "answered" = s.answered, "has_blocker" = s.has_blocker
      FROM (SELECT count(*) > 0 AS answered, coalesce(bool_or(r."has_blocker"), false) AS has_blocker
              FROM "responses" r WHERE r."run_id" = OLD."run_id" AND r."user_id" = OLD."user_id") s
      WHERE p."run_id" = OLD."run_id" AND p."user_id" = OLD."user_id"
        AND (p."answered", p."has_blocker") IS DISTINCT FROM (s.answered, s.has_blocker);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    UPDATE "run_participants" p SET "answered" = true, "has_blocker" = s.has_blocker
      FROM (SELECT coalesce(bool_or(r."has_blocker"), false) AS has_blocker
              FROM "responses" r WHERE r."run_id" = NEW."run_id" AND r."user_id" = NEW."user_id") s
      WHERE p."run_id" = NEW."run_id" AND p."user_id" = NEW."user_id"
        AND (p."answered", p."has_blocker") IS DISTINCT FROM (true, s.has_blocker);
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE OR REPLACE TRIGGER "responses_sync_participant_answer"
  AFTER INSERT OR DELETE OR UPDATE OF "run_id", "user_id", "has_blocker" ON "responses"
  FOR EACH ROW EXECUTE FUNCTION "upbeat_sync_participant_answer"();--> statement-breakpoint
-- A participant row inserted after its member's answer (or with the columns left at their default) starts from it.
CREATE OR REPLACE FUNCTION "upbeat_participant_answer_on_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT count(*) > 0, coalesce(bool_or(r."has_blocker"), false) INTO NEW."answered", NEW."has_blocker"
    FROM "responses" r WHERE r."run_id" = NEW."run_id" AND r."user_id" = NEW."user_id";
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE OR REPLACE TRIGGER "run_participants_answer_on_insert"
  BEFORE INSERT ON "run_participants"
  FOR EACH ROW EXECUTE FUNCTION "upbeat_participant_answer_on_insert"();--> statement-breakpoint
-- The window read by run covers the two new columns, so it stays index-only.
DROP INDEX IF EXISTS "run_participants_run_cover_idx";--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "run_participants_run_cover_idx" ON "run_participants" USING btree ("run_id")
  INCLUDE ("user_id","status","ask_at","closes_at","answered","has_blocker");
