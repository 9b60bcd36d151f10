import type { PersonalData } from "../../lib/personal-data.ts";

/** Slack deliveries not yet done (pending, or failed and kept for admins) hold their body, user ids included. */
export const intakePersonalData: PersonalData = {
  feature: "chat intake",
  places: [
    {
      kind: "json",
      table: "chat_events",
      column: "payload",
      type: "text",
      paths: ["$.**"],
      why: "deliveries from or about them still waiting to be processed, or failed (kept 30 days for admins)",
    },
    {
      kind: "mention",
      table: "chat_events",
      column: "payload",
      type: "text",
      why: "others' waiting or failed deliveries whose text mentions them",
    },
  ],
};
