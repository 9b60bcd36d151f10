-- The picture Slack shows for a person (profile.image_72, an https address on Slack's image hosts), so the
-- dashboard's people picker can show a face beside a name. Empty until the next member sync or user_change event.
ALTER TABLE "members" ADD COLUMN IF NOT EXISTS "avatar_url" text DEFAULT '' NOT NULL;
