import type { PersonalData } from "../../lib/personal-data.ts";

export const feedPersonalData: PersonalData = {
  feature: "feed",
  places: [
    {
      kind: "redact",
      table: "feed_tokens",
      column: "created_by",
      why: "who made the feed link: the link is the workspace's and keeps working, its creator's id goes",
    },
  ],
};
