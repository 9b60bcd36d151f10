import type { PersonalData } from "../../lib/personal-data.ts";

export const profilesPersonalData: PersonalData = {
  feature: "profiles",
  places: [
    { kind: "rows", table: "profiles", column: "user_id", why: "their birthday, start date and free-text fields" },
  ],
};
