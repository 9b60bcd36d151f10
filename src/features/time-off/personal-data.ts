import type { PersonalData } from "../../lib/personal-data.ts";

export const timeOffPersonalData: PersonalData = {
  feature: "time-off",
  places: [
    { kind: "rows", table: "time_off", column: "user_id", why: "their away ranges and reasons" },
    {
      kind: "redact",
      table: "time_off",
      column: "created_by",
      why: "an admin who entered someone else's time off: the range is that person's and stays, the admin's id goes",
    },
  ],
};
