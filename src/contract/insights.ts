import { z } from "zod";
import { isoDate, isoTimestamp } from "./common.ts";

export const stats = z
  .object({
    total_members: z.number().int(),
    submitted_today: z.number().int(),
    participation_7d_pct: z.number().int(),
    active_blockers: z.number().int(),
  })
  .meta({ id: "Stats" });

export const labelledAnswer = z
  .object({
    question: z.string().describe("The question as the run asked it (later edits of the standup do not change it)"),
    answer: z.string().describe("The member's answer, possibly empty; Slack mrkdwn and :emoji: shortcodes as typed"),
  })
  .meta({ id: "Answer" });

export const standupResponse = z
  .object({
    user_id: z.string(),
    real_name: z.string(),
    standup_date: isoDate,
    schedule_id: z.string().describe("The standup (schedule) this answers"),
    standup_name: z.string().describe('The standup\'s name, or "#<channel> standup" when it has none'),
    yesterday: z.string().describe("The answer to the first question"),
    today: z.string().describe("The answer to the second question"),
    blockers: z.string().describe("The answer to the standup's blocker question; empty when it has none"),
    mood: z.string().describe("An emoji, or empty"),
    has_blocker: z.boolean().describe("The blocker answer reports a real blocker (not empty, not a word like none)"),
    blocker_question: z
      .number()
      .int()
      .nullable()
      .describe("Which of `answers` (1-based) is the blocker question, as the run asked it; null: none"),
    answers: z.array(labelledAnswer).describe("Every answer in order, with its question"),
    submitted_at: isoTimestamp,
  })
  .meta({ id: "StandupResponse" });

export const participationRow = z
  .object({ date: isoDate, submitted: z.number().int(), total: z.number().int(), pct: z.number().int() })
  .meta({ id: "ParticipationRow" });

export const reports = z
  .object({
    standups: z.array(standupResponse),
    participation: z.array(participationRow),
    total_days: z.number().int(),
    from: isoDate,
    to: isoDate,
  })
  .meta({ id: "Reports" });

export const moodDay = z.object({
  date: isoDate,
  avg_score: z.number(),
  counts: z.record(z.string(), z.number().int()),
});

export const memberParticipation = z.object({
  user_id: z.string(),
  real_name: z.string(),
  asked: z.number().int(),
  submitted: z.number().int(),
  pct: z.number().int(),
  current_streak: z.number().int(),
  blockers: z.number().int(),
});

export const analytics = z
  .object({
    days: z.number().int(),
    from: isoDate,
    to: isoDate,
    mood: z.object({
      daily: z.array(moodDay),
      overall_avg: z.number(),
      trend: z.enum(["up", "down", "flat"]),
    }),
    participation: z.object({ daily: z.array(participationRow), overall_pct: z.number().int() }),
    members: z.array(memberParticipation),
    blockers: z.object({
      total: z.number().int(),
      by_day: z.array(z.object({ date: isoDate, count: z.number().int() })),
    }),
  })
  .meta({ id: "Analytics" });

/** Longest `days` a report or analytics window may count back. */
export const MAX_WINDOW_DAYS = 365;
const DAYS_MESSAGE = `days must be a whole number from 1 to ${MAX_WINDOW_DAYS}`;

/** A calendar date that exists (no 2026-02-30), without a date library so the browser can share it. */
export function isRealDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const time = Date.parse(`${value}T00:00:00Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().slice(0, 10) === value;
}

const dateParam = (name: string) =>
  z
    .string({ error: `${name} must be a real date as YYYY-MM-DD` })
    .regex(/^(\d{4}-\d{2}-\d{2})?$/, `${name} must be a real date as YYYY-MM-DD`)
    .refine((v) => v === "" || isRealDate(v), `${name} must be a real date as YYYY-MM-DD`)
    .transform((v) => (v === "" ? undefined : v))
    .optional()
    .describe(`${name === "from" ? "First" : "Last"} day of the window, YYYY-MM-DD (the workspace's calendar)`);

const daysParam = z
  .string({ error: DAYS_MESSAGE })
  .regex(/^(\d{1,6})?$/, DAYS_MESSAGE)
  .refine((v) => v === "" || (Number(v) >= 1 && Number(v) <= MAX_WINDOW_DAYS), DAYS_MESSAGE)
  .transform((v) => (v === "" ? undefined : Number(v)))
  .optional()
  .describe("Days back from today, today included (default 7); from/to override it");

/** `?days=&from=&to=` of reports and analytics; an empty value counts as absent. */
export const windowQuery = z.object({ days: daysParam, from: dateParam("from"), to: dateParam("to") });
/** `?from=&to=` of the CSV export (without them: the last 30 days). */
export const rangeQuery = z.object({ from: dateParam("from"), to: dateParam("to") });
