import { z } from "zod";
import { RULE_ACTIONS, RULE_TRIGGERS } from "../../contract/index.ts";
import type { RuleAction, RuleTrigger } from "../../db/schema.ts";
import { CHANNEL_ID } from "../schedules/index.ts";

/**
 * The request bodies of POST and PUT. Each field's message names the field and what it may be; the checks that
 * need two fields (a threshold for its trigger, a target for its action) are `ruleProblem`'s, run on the rule as
 * it would be stored, so a PUT is checked with the fields it leaves alone.
 */

/** Rules a workspace may have: the list is one short page, and an event fans out to at most this many jobs. */
export const MAX_RULES = 100;

export const PARTICIPATION_RANGE = { min: 0, max: 100 } as const;
/** The mood score: 😫 1 to 😀 5, as insights scores moods. */
export const MOOD_RANGE = { min: 1, max: 5 } as const;
/** blocker_open_days: whole days a blocker item has been open. */
export const BLOCKER_DAYS_RANGE = { min: 1, max: 90 } as const;

/** Slack user ids: U… for people, W… for Enterprise Grid users. */
export const USER_ID = /^[UW][A-Z0-9]{2,}$/;

const TRIGGERS = RULE_TRIGGERS.join(", ");
const ACTIONS = RULE_ACTIONS.join(", ");
const THRESHOLDS = `participation_below: a percentage from ${PARTICIPATION_RANGE.min} to ${PARTICIPATION_RANGE.max}; mood_below: an average mood from ${MOOD_RANGE.min} to ${MOOD_RANGE.max}; blocker_open_days: whole days from ${BLOCKER_DAYS_RANGE.min} to ${BLOCKER_DAYS_RANGE.max}; blocker_reported: null`;
const TARGETS = "a channel id for post_to_channel, the user id of an active admin for dm_admin";

const required = (field: string, what: string) => (iss: { input?: unknown }) =>
  iss.input === undefined ? `${field} is required: ${what}` : `${field} must be ${what}`;

const trigger = z.enum(RULE_TRIGGERS, { error: required("trigger", `one of ${TRIGGERS}`) });
const action = z.enum(RULE_ACTIONS, { error: required("action", `one of ${ACTIONS}`) });

const triggerThreshold = z.union([z.number(), z.null()], {
  error: `trigger_threshold must be a number or null (${THRESHOLDS})`,
});

const actionTarget = z
  .string({ error: required("action_target", `a string: ${TARGETS}`) })
  .trim()
  .min(1, `action_target must not be empty: ${TARGETS}`)
  .max(40, `action_target must be ${TARGETS}`);

const scheduleId = z.union([z.string().trim().min(1).max(40), z.null()], {
  error: "schedule_id must be the id of one of this workspace's standups, or null for every standup",
});

const active = z.boolean({ error: "active must be true or false" });

/** PUT body: every field optional, omitted ones unchanged; unknown (and read-only) fields are dropped. */
export const ruleUpdateInput = z.object(
  {
    trigger: trigger.optional(),
    trigger_threshold: triggerThreshold.optional().describe(THRESHOLDS),
    action: action.optional(),
    action_target: actionTarget.optional().describe(TARGETS),
    schedule_id: scheduleId.optional().describe("Only this standup's events; null or absent: every standup"),
    active: active.optional(),
  },
  { error: "Request body must be a JSON object" },
);

/** POST body: trigger, action and action_target are required; trigger_threshold as the trigger needs it. */
export const ruleCreateInput = ruleUpdateInput.extend({ trigger, action, action_target: actionTarget });

export type RuleUpdate = z.output<typeof ruleUpdateInput>;
export type RuleCreate = z.output<typeof ruleCreateInput>;

/** The fields whose combination `ruleProblem` checks. */
export interface RuleShape {
  trigger: RuleTrigger;
  triggerThreshold: number | null;
  action: RuleAction;
  actionTarget: string;
}

function thresholdProblem(trigger: RuleTrigger, threshold: number | null): string | undefined {
  if (trigger === "blocker_reported") {
    return threshold === null
      ? undefined
      : "trigger_threshold must be null or left out for blocker_reported, which has no threshold";
  }
  if (trigger === "blocker_open_days") {
    const allowed = `a whole number of days from ${BLOCKER_DAYS_RANGE.min} to ${BLOCKER_DAYS_RANGE.max}`;
    if (threshold === null) return `trigger_threshold is required for blocker_open_days: ${allowed}`;
    if (!Number.isInteger(threshold) || threshold < BLOCKER_DAYS_RANGE.min || threshold > BLOCKER_DAYS_RANGE.max)
      return `trigger_threshold must be ${allowed} for blocker_open_days`;
    return undefined;
  }
  const [range, what] =
    trigger === "participation_below"
      ? [PARTICIPATION_RANGE, "a percentage"]
      : [MOOD_RANGE, "an average mood score, 😫 1 to 😀 5"];
  const allowed = `a number from ${range.min} to ${range.max} (${what})`;
  if (threshold === null) return `trigger_threshold is required for ${trigger}: ${allowed}`;
  if (threshold < range.min || threshold > range.max) return `trigger_threshold must be ${allowed} for ${trigger}`;
  return undefined;
}

function targetProblem(action: RuleAction, target: string): string | undefined {
  if (action === "post_to_channel") {
    return CHANNEL_ID.test(target)
      ? undefined
      : "action_target must be a channel id such as C0123ABCD for post_to_channel";
  }
  return USER_ID.test(target)
    ? undefined
    : "action_target must be the user id of an active admin, such as U0123ABCD, for dm_admin";
}

/** Why this combination of trigger, threshold, action and target cannot be a rule, or undefined when it can. */
export function ruleProblem(r: RuleShape): string | undefined {
  return thresholdProblem(r.trigger, r.triggerThreshold) ?? targetProblem(r.action, r.actionTarget);
}
