-- First questions not asked yet: a run waiting for a member's DM conversation (its first question reserved for the
-- hand-over message). The scheduler looks for these every pass, to hand a DM over when the member's own window on the
-- run holding it closes; the index keeps that pass to the few waiting rows, not every question asked.
CREATE INDEX "dm_questions_unasked_idx" ON "dm_questions" USING btree ("team_id","user_id") WHERE "dm_questions"."ts" is null and "dm_questions"."question_index" = 0;
