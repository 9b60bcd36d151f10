-- Whether a holiday skips standups as well as moving Celebrations. Only a workspace admin's holidays do; a
-- Celebrations admin's apply to Celebrations alone. Every holiday saved so far was a workspace-wide one: they keep
-- skipping standups.
ALTER TABLE "holidays" ADD COLUMN "skips_standups" boolean DEFAULT true NOT NULL;
