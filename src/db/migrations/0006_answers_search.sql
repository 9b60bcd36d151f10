-- Full-text search over every answer, not only the first three: the generated column is rebuilt from the
-- answers array (a generated column's expression cannot be altered before PostgreSQL 17).
DROP INDEX IF EXISTS "responses_search_idx";--> statement-breakpoint
ALTER TABLE "responses" DROP COLUMN "search";--> statement-breakpoint
ALTER TABLE "responses" ADD COLUMN "search" tsvector GENERATED ALWAYS AS (jsonb_to_tsvector('english', "answers", '["string"]')) STORED;--> statement-breakpoint
CREATE INDEX "responses_search_idx" ON "responses" USING gin ("search");
