-- Dashboard at size (issue 27): the participation views (stats, analytics, reports) look up each asked
-- participant's answer by (run, member), and read a window's participants by run. Covering, so both are
-- index-only scans: 5,000 members × 7 days are 25,000 lookups, each one index page. Only the columns those two
-- read are included, so the indexes do not become a cheaper full scan for other questions about answers.
CREATE INDEX IF NOT EXISTS "responses_run_user_idx" ON "responses" USING btree ("run_id","user_id") INCLUDE ("id","has_blocker");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "run_participants_run_cover_idx" ON "run_participants" USING btree ("run_id") INCLUDE ("user_id","status","ask_at","closes_at");
