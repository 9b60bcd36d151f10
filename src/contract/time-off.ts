import { z } from "zod";
import { isoDate, isoTimestamp } from "./common.ts";

/** Time off: a member's away ranges (beyond the spec). */

export const TIME_OFF_REASON_MAX = 200;
/** A range set at once covers at most this many days (a year, leap day included). */
export const TIME_OFF_MAX_DAYS = 366;
export const TIME_OFF_LIST_DEFAULT = 100;
export const TIME_OFF_LIST_MAX = 500;
/** Current and upcoming ranges a member may have at once. */
export const TIME_OFF_MAX_UPCOMING = 50;

export const timeOffRange = z
  .object({
    id: z.number().int(),
    user_id: z.string(),
    real_name: z.string().describe("The member's name (real name, else display name, else the id)"),
    start_date: isoDate.describe("First day away (YYYY-MM-DD), included"),
    end_date: isoDate.describe("Last day away (YYYY-MM-DD), included"),
    reason: z.string(),
    current: z.boolean().describe("Today (workspace timezone) is inside the range"),
    created_by: z.string(),
    created_at: isoTimestamp,
    updated_at: isoTimestamp,
    via: z.enum(["mcp"]).nullable().describe('"mcp": set (or last merged) from an AI client; null: Slack or dashboard'),
  })
  .meta({ id: "TimeOffRange" });

export const timeOffList = z
  .object({
    items: z.array(timeOffRange),
    truncated: z.boolean().describe("More ranges matched than `limit`"),
  })
  .meta({ id: "TimeOffList" });

const DATE_FORMAT = /^\d{4}-\d{2}-\d{2}$/;
const LIMIT_MESSAGE = `limit must be a whole number from 1 to ${TIME_OFF_LIST_MAX}`;

export const timeOffQuery = z.object({
  user_id: z.string({ error: "user_id must be a Slack user id" }).min(1, "user_id must be a Slack user id").optional(),
  include_past: z
    .enum(["true", "false"], { error: "include_past must be one of true, false" })
    .transform((v) => v === "true")
    .optional()
    .describe("Also ranges that already ended (kept a year); default false: current and upcoming only"),
  limit: z
    .string({ error: LIMIT_MESSAGE })
    .regex(/^\d{1,4}$/, LIMIT_MESSAGE)
    .refine((v) => Number(v) >= 1 && Number(v) <= TIME_OFF_LIST_MAX, LIMIT_MESSAGE)
    .transform(Number)
    .optional()
    .describe(`At most this many ranges (1 to ${TIME_OFF_LIST_MAX}, default ${TIME_OFF_LIST_DEFAULT})`),
});

export const timeOffInput = z
  .object({
    user_id: z
      .string({ error: "user_id must be a Slack user id" })
      .min(1, "user_id must be a Slack user id")
      .optional()
      .describe("Whose time off (admins only; default: the caller)"),
    start_date: z
      .string({ error: "start_date must be a date as YYYY-MM-DD" })
      .regex(DATE_FORMAT, "start_date must be a date as YYYY-MM-DD"),
    end_date: z
      .string({ error: "end_date must be a date as YYYY-MM-DD" })
      .regex(DATE_FORMAT, "end_date must be a date as YYYY-MM-DD"),
    reason: z
      .string({ error: "reason must be a string" })
      .max(TIME_OFF_REASON_MAX, `reason must be at most ${TIME_OFF_REASON_MAX} characters`)
      .optional(),
  })
  .meta({ id: "TimeOffInput" });
