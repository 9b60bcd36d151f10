-- Dashboard at size (issue 27): whether each asked participant answered, and with a blocker, kept on the
-- participant row itself, so the participation views (stats, reports, analytics, MCP) read a window's
-- participants by run and need no join to the answers (at 5,000 members × 30 days that join was ~90 of ~220 ms).
-- Exact by construction: triggers on responses keep the two columns in step with every insert, edit, move and
-- delete of an answer, whatever code path writes it, and a participant row added after its answer starts from it.
--
-- Locked first in the order the answer path takes them (responses, then run_participants): an older instance
-- answering during the upgrade waits for the migration instead of deadlocking with it.
LOCK TABLE "responses" IN SHARE ROW EXCLUSIVE MODE;--> statement-breakpoint
LOCK TABLE "run_participants" IN ACCESS EXCLUSIVE MODE;--> statement-breakpoint
ALTER TABLE "run_participants" ADD COLUMN IF NOT EXISTS "answered" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "run_participants" ADD COLUMN IF NOT EXISTS "has_blocker" boolean DEFAULT false NOT NULL;--> statement-breakpoint
UPDATE "run_participants" p SET "answered" = true, "has_blocker" = r."has_blocker"
  FROM "responses" r WHERE r."run_id" = p."run_id" AND r."user_id" = p."user_id";--> statement-breakpoint
-- Sets the participants of the given (run, member) keys from the answers they have now (a member answers a run at
-- most once; bool_or keeps it exact even if two rows shared a key); a row already right is not written.
CREATE OR REPLACE FUNCTION "upbeat_sync_participant_answers"(run_ids bigint[], user_ids text[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "run_participants" p SET "answered" = s.answered, "has_blocker" = s.has_blocker
    FROM (SELECT k.run_id, k.user_id, count(r."run_id") > 0 AS answered,
                 coalesce(bool_or(r."has_blocker"), false) AS has_blocker
            FROM (SELECT DISTINCT * FROM unnest(run_ids, user_ids) AS u(run_id, user_id)) k
            LEFT JOIN "responses" r ON r."run_id" = k.run_id AND r."user_id" = k.user_id
           GROUP BY k.run_id, k.user_id) s
    WHERE p."run_id" = s.run_id AND p."user_id" = s.user_id
      AND (p."answered", p."has_blocker") IS DISTINCT FROM (s.answered, s.has_blocker);
END $$;--> statement-breakpoint
-- Inserted and deleted answers: once per statement over the keys it touched (a statement importing or erasing a
-- million answers runs one update, not a million).
CREATE OR REPLACE FUNCTION "upbeat_participant_answers_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "upbeat_sync_participant_answers"(array(SELECT "run_id" FROM changed), array(SELECT "user_id" FROM changed));
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE OR REPLACE TRIGGER "responses_inserted_participant_answer"
  AFTER INSERT ON "responses" REFERENCING NEW TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION "upbeat_participant_answers_changed"();--> statement-breakpoint
CREATE OR REPLACE TRIGGER "responses_deleted_participant_answer"
  AFTER DELETE ON "responses" REFERENCING OLD TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION "upbeat_participant_answers_changed"();--> statement-breakpoint
-- An edit of the blocker, or an answer moved to another run or member (a column list allows no transition table,
-- so per row; an answer's edit is one row): both its old and its new key are set again.
CREATE OR REPLACE FUNCTION "upbeat_participant_answer_updated"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "upbeat_sync_participant_answers"(ARRAY[OLD."run_id", NEW."run_id"], ARRAY[OLD."user_id", NEW."user_id"]);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE OR REPLACE TRIGGER "responses_updated_participant_answer"
  AFTER UPDATE OF "run_id", "user_id", "has_blocker" ON "responses"
  FOR EACH ROW EXECUTE FUNCTION "upbeat_participant_answer_updated"();--> statement-breakpoint
-- A participant row inserted after its member's answer (or with the columns given by hand) starts from it.
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
