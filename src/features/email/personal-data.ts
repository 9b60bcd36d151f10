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
      // digestKey and the reinstall notice's key (reinstall.service.ts) end with the recipient's id.
      patterns: (v) => [postKeyLike("digest", ANY_PART, v.user), postKeyLike("reinstall", ANY_PART, v.user)],
      why: "a digest or reinstall notice not yet sent to them",
    },
  ],
};
