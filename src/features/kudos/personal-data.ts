import type { PersonalData } from "../../lib/personal-data.ts";

export const kudosPersonalData: PersonalData = {
  feature: "kudos",
  places: [
    // A kudo names two people; keeping it with one side blanked would still tell who thanked whom for what.
    { kind: "rows", table: "kudos", column: "from_user", why: "kudos they gave (the whole kudo goes)" },
    { kind: "rows", table: "kudos", column: "to_user", why: "kudos they received (the whole kudo goes)" },
    {
      kind: "mention",
      table: "kudos",
      column: "message",
      type: "text",
      why: "others' kudo messages that mention them (`<@U…>` as Slack sends it)",
    },
  ],
  jobs: [{ queue: "kudos.notice", field: "userId", why: "a notice to them about a kudo message they wrote" }],
};
