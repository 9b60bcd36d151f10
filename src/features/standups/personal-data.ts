import type { PersonalData } from "../../lib/personal-data.ts";
import { memberPostKeyPatterns } from "./post-keys.ts";

export const standupsPersonalData: PersonalData = {
  feature: "standups",
  places: [
    {
      kind: "rows",
      table: "run_participants",
      column: "user_id",
      why: "their participation in each run, with their DM channel and unfinished answers (the run itself stays)",
    },
    { kind: "rows", table: "responses", column: "user_id", why: "their answers and mood" },
    { kind: "rows", table: "dm_turns", column: "user_id", why: "which standup holds their DM conversation" },
    {
      kind: "rows",
      table: "early_answers",
      column: "user_id",
      why: "answers they gave ahead of a run not started yet",
    },
    { kind: "rows", table: "blockers", column: "user_id", why: "the blockers they reported" },
    {
      kind: "redact",
      table: "blockers",
      column: "resolved_by",
      why: "who resolved someone else's blocker (the blocker stays its reporter's)",
    },
    { kind: "mention", table: "blockers", column: "text", type: "text", why: "others' blockers that mention them" },
    {
      kind: "mention",
      table: "blockers",
      column: "resolution_note",
      type: "text",
      why: "notes on others' blockers that mention them",
    },
    {
      kind: "rows",
      table: "dm_questions",
      column: "user_id",
      why: "the questions asked in their DM, with Slack timestamps (routes their DM answers)",
    },
    {
      kind: "mention",
      table: "early_answers",
      column: "answers",
      type: "jsonb",
      why: "others' answers given ahead that mention them",
    },
    ...(["answers", "yesterday", "today", "blockers"] as const).map((column) => ({
      kind: "mention" as const,
      table: "responses",
      column,
      type: column === "answers" ? ("jsonb" as const) : ("text" as const),
      why: "others' answers that mention them (`<@U…>`, as answers given in the DM conversation arrive)",
    })),
    {
      kind: "mention",
      table: "run_participants",
      column: "draft",
      type: "jsonb",
      why: "others' unfinished DM answers that mention them",
    },
    {
      kind: "key",
      table: "chat_posts",
      column: "key",
      patterns: (v) => memberPostKeyPatterns(v.user),
      why: "the claims of the ask, reminder and hand-over DMs sent to them",
    },
  ],
  jobs: [
    { queue: "standup.ask", field: "userId", why: "an ask DM not yet sent to them" },
    {
      queue: "standup.asks",
      field: "userIds",
      inList: true,
      why: "a chunk of ask DMs not yet sent, them among others",
    },
    { queue: "standup.remind", field: "userId", why: "a reminder not yet sent to them" },
    { queue: "standup.turn", field: "userId", why: "handing their DM conversation to the next standup" },
  ],
};
