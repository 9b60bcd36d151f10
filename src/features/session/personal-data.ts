import type { PersonalData } from "../../lib/personal-data.ts";

export const sessionPersonalData: PersonalData = {
  feature: "session",
  places: [{ kind: "rows", table: "sessions", column: "user_id", why: "their dashboard sessions" }],
};
