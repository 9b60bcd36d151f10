import type { PersonalData } from "../../lib/personal-data.ts";

export const membersPersonalData: PersonalData = {
  feature: "members",
  places: [
    { kind: "rows", table: "members", column: "user_id", why: "their member entry: name, e-mail, timezone, role" },
  ],
};
