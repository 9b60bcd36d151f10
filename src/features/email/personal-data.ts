import { ANY_PART, postKeyLike } from "../../chat/post-keys.ts";
import type { PersonalData } from "../../lib/personal-data.ts";

export const emailPersonalData: PersonalData = {
  feature: "email",
  places: [
    { kind: "rows", table: "email_preferences", column: "user_id", why: "their digest switch" },
    {
      kind: "rows",
      table: "email_sends",
      column: "user_id",
      why: "e-mails sent to them (the claim holds the recipient; its key embeds their id too)",
    },
  ],
  jobs: [
    {
      queue: "email.send",
      field: "key",
      // digestKey(week, user) in digest.scheduler.ts; the welcome's key names no one.
      patterns: (v) => [postKeyLike("digest", ANY_PART, v.user)],
      why: "a digest not yet sent to them",
    },
  ],
};
