-- blocker.reported fires once per response: the first time it carries a blocker, also when an edit adds one.
ALTER TABLE "responses" ADD COLUMN "blocker_reported_at" timestamp with time zone;
