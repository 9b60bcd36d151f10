import { sql } from "drizzle-orm";
import type { PersonalData } from "../../lib/personal-data.ts";

export const rulesPersonalData: PersonalData = {
  feature: "rules",
  places: [
    {
      kind: "rows",
      table: "rules",
      column: "action_target",
      where: sql`action = 'dm_admin'`,
      why: "a rule whose action is to DM them: it can reach no one any more, so it goes (as a deleted rule does; its firings end as rule_deleted)",
    },
    {
      kind: "redact",
      table: "rules",
      column: "created_by",
      why: "who created a rule: the rule is the workspace's and stays, its creator's id goes",
    },
  ],
};
