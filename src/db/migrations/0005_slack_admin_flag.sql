-- The Slack admin/owner flag as last seen (null: not seen since this column exists). A member is promoted to
-- admin only when it turns on, so a dashboard demotion of a Slack admin survives later syncs and user_change events.
ALTER TABLE "members" ADD COLUMN "slack_admin" boolean;
