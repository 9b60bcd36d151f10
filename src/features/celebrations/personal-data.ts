import { ANY_PART, postKeyLike } from "../../chat/post-keys.ts";
import type { PersonalData } from "../../lib/personal-data.ts";

export const celebrationsPersonalData: PersonalData = {
  feature: "celebrations",
  places: [
    { kind: "rows", table: "celebration_asks", column: "user_id", why: "when they were last asked for their dates" },
    {
      kind: "array",
      table: "celebration_settings",
      column: "admins",
      type: "jsonb",
      why: "Celebrations admins: they stop being one, the settings stay",
    },
    {
      kind: "array",
      table: "celebration_posts",
      column: "user_ids",
      type: "jsonb",
      // The row is the day's exactly-once claim: deleting it would let the day's post go out again.
      why: "the people a day's post celebrates: they are taken out, the claim stays",
    },
    {
      kind: "key",
      table: "chat_posts",
      column: "key",
      // The ask's key in celebrations.service.ts: celebrations:ask:<team>:<user>:<time>.
      patterns: (v) => [postKeyLike("celebrations", "ask", v.team, v.user, ANY_PART)],
      why: "the claims of the ask-for-dates DMs sent to them",
    },
  ],
  jobs: [{ queue: "celebrations.ask", field: "userId", why: "an ask-for-dates DM not yet sent to them" }],
};
