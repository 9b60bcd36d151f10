import { z } from "zod";
import { isoTimestamp } from "./common.ts";

/** Every trigger a rule can have, in the order the dashboard offers them. */
export const RULE_TRIGGERS = ["blocker_reported", "participation_below", "mood_below", "blocker_open_days"] as const;
/** Every action a rule can take. */
export const RULE_ACTIONS = ["post_to_channel", "dm_admin"] as const;

export const rule = z
  .object({
    id: z.number().int(),
    trigger: z
      .enum(RULE_TRIGGERS)
      .describe(
        "blocker_reported: a response reports a blocker; participation_below / mood_below: checked when a run closes; " +
          "blocker_open_days: a blocker item still open N days after it was reported (once per blocker)",
      ),
    trigger_threshold: z
      .number()
      .nullable()
      .describe(
        "participation_below: percent 0–100; mood_below: average mood 1 (😫) to 5 (😀); blocker_open_days: whole days 1–90; " +
          "null for blocker_reported",
      ),
    action: z.enum(RULE_ACTIONS),
    action_target: z.string().describe("A channel id (post_to_channel) or the user id of an admin (dm_admin)"),
    schedule_id: z.string().nullable().describe("Only this standup's events; null: every standup"),
    active: z.boolean(),
    created_at: isoTimestamp,
    last_fired_at: isoTimestamp
      .nullable()
      .describe("When the rule last acted (posted its alert or DM); null when it has not in the last 90 days"),
    fired_count: z
      .number()
      .int()
      .describe("How many times the rule acted in the last 90 days (older firings are pruned)"),
  })
  .meta({ id: "Rule" });
