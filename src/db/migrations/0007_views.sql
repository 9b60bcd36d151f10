-- Reports, stats and the export filtered by standup: an index range per (team, standup) in date order, so a
-- small standup in a big workspace never reads every answer of the window (responses_member_day_uq leads with
-- user_id after schedule_id, which cannot give dates in order).
CREATE INDEX "responses_team_schedule_date_idx" ON "responses" USING btree ("team_id","schedule_id","standup_date","id");