import { z } from "zod";
import { holiday } from "./celebrations.ts";
import { isoDate, isoTimestamp } from "./common.ts";

/**
 * The one meaning of "active blockers" everywhere (stats, reports, the MCP tools, the Blockers page; issue 25): open
 * blocker items. A blocker reported on Monday and again on Tuesday is one item; answering "none" on Wednesday, or
 * resolving it, closes it.
 */
export const ACTIVE_BLOCKERS =
  "Active blockers: open blocker items (reported and not resolved yet) of active members in standups that exist";

export const stats = z
  .object({
    total_members: z.number().int(),
    submitted_today: z.number().int(),
    participation_7d_pct: z.number().int(),
    active_blockers: z.number().int().describe(`${ACTIVE_BLOCKERS}, however long ago they were first reported`),
  })
  .meta({ id: "Stats" });

export const labelledAnswer = z
  .object({
    question: z.string().describe("The question as the run asked it (later edits of the standup do not change it)"),
    answer: z.string().describe("The member's answer, possibly empty; Slack mrkdwn and :emoji: shortcodes as typed"),
    anonymous: z
      .literal(true)
      .optional()
      .describe("Present on an anonymous question: its answer is never shown by person (answer is empty)"),
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
    answer_values: z
      .array(z.union([z.number(), z.boolean(), z.string(), z.array(z.string()), z.null()]))
      .nullable()
      .describe(
        "Beside answers, one per question: the typed value of a number (number), yes_no (boolean), single_choice " +
          "(the option) or multiple_choice (the options) question; null for text, unanswered and anonymous " +
          "questions. null when the run asked only text questions. Anonymous answers are never in a response",
      ),
    submitted_at: isoTimestamp,
    late: z.boolean().describe("Given after the member's window on the run closed (counted as answered, not on time)"),
    via: z.enum(["mcp"]).nullable().describe('"mcp": given or last edited from an AI client (MCP); null: from Slack'),
  })
  .meta({ id: "StandupResponse" });

const OPEN_RULE =
  "A member counts as asked once their run has closed, or as soon as they answered: while a run is still open, " +
  "only the answers so far count (nobody is missing yet); members not asked yet never count.";

const participationCounts = {
  submitted: z.number().int().describe("Members who answered"),
  total: z
    .number()
    .int()
    .describe("Members asked (open run or not; members not asked yet and members away are not in it)"),
  pct: z
    .number()
    .int()
    .describe("round(100 × submitted / total), 0 when total is 0; while open is true, answered so far"),
  open: z.boolean().describe("A run is still open: pct is answered so far, not a final figure"),
  awaiting: z
    .number()
    .int()
    .describe(
      "Members asked whose run (or own window) is still open and who have not answered yet: in total, but nobody " +
        "counts them as missed (window figures, streaks and rules leave them out)",
    ),
};

export const standupParticipation = z
  .object({ schedule_id: z.string(), ...participationCounts })
  .meta({ id: "StandupParticipation" });

export const participationRow = z
  .object({
    date: isoDate,
    ...participationCounts,
    standups: z.array(standupParticipation).describe("The same numbers for each standup that ran that day"),
  })
  .meta({ id: "ParticipationRow" });

export const reportSummary = z
  .object({
    responses: z.number().int().describe("Answers in the window matching every filter (q included), on all pages"),
    members_answered: z.number().int().describe("Distinct members with at least one of those answers"),
    asked: z.number().int().describe(`Member-runs asked in the window (schedule_id and user_id apply). ${OPEN_RULE}`),
    answered: z.number().int().describe("Member-runs answered in the window (schedule_id and user_id apply)"),
    pct: z.number().int().describe("round(100 × answered / asked), 0 when asked is 0"),
    awaiting: z.number().int().describe("Members asked in runs still open who have not answered yet"),
    active_blockers: z
      .number()
      .int()
      .describe(
        `${ACTIVE_BLOCKERS}, of those open during the window (first reported by its end, last reported in or after it); schedule_id and user_id apply`,
      ),
  })
  .meta({ id: "ReportSummary", description: "The whole window, whatever page this is" });

export const reports = z
  .object({
    standups: z
      .array(standupResponse)
      .describe("One page, newest day first, then in the order given (submitted_at), then by id"),
    next_cursor: z.string().nullable().describe("Pass as cursor for the next page; null on the last page"),
    summary: reportSummary,
    participation: z.array(participationRow).describe("Every day of the window that had a run, not only this page"),
    total_days: z.number().int(),
    holidays: z
      .array(holiday)
      .describe("The workspace holidays in the window: no standup runs on them, and reports show them as holiday"),
    from: isoDate,
    to: isoDate,
  })
  .meta({ id: "Reports" });

export const todayParticipant = z
  .object({
    user_id: z.string(),
    real_name: z.string(),
    status: z
      .enum(["waiting", "skipped", "missed", "not_asked_yet", "not_asked", "away"])
      .describe(
        "waiting: asked, the run is still open; skipped: said they skip this one; missed: the run closed without " +
          "an answer; not_asked_yet: asked later, at their own time; not_asked: their own time passed before the " +
          "standup existed or while the service was down, or their ask was stopped by a pause, a deletion or an " +
          "uninstall, so they are not asked on this date (counted nowhere); away: on time off on the run's date " +
          "(not asked, counted nowhere)",
      ),
    ask_at: isoTimestamp
      .nullable()
      .describe(
        "When this member is (or was) asked in a standup that asks each member at its time in their own timezone; " +
          "null when the run asks everyone at once",
      ),
    timezone: z.string().describe("The member's timezone (IANA name, as Slack reports it)"),
    away_until: isoDate
      .nullable()
      .describe("away: the last day of the time off that covers the run's date; null for every other status"),
  })
  .meta({ id: "TodayParticipant" });

export const todayStandup = z
  .object({
    schedule_id: z.string(),
    standup_name: z.string().describe("The standup's name; empty when it has none (shown as its channel's standup)"),
    channel_id: z.string().describe("The standup's channel"),
    date: isoDate.describe("The run's date"),
    open: z.boolean().describe("Still collecting answers: the counts are answered so far"),
    closes_at: isoTimestamp,
    member_timezone: z
      .boolean()
      .describe("The run asks each member at ask_time in their own timezone (ask_at per member), not all at once"),
    ask_time: z
      .string()
      .describe("HH:MM the standup asks at: in its own timezone, or in each member's when member_timezone is true"),
    asked: z.number().int().describe("Members asked so far"),
    answered: z.number().int(),
    asked_later: z
      .number()
      .int()
      .describe("Members still to be asked later, at their own time (not_answered with status not_asked_yet)"),
    away: z.number().int().describe("Members away on the run's date: not asked, counted nowhere"),
    responses: z.array(standupResponse).describe("The answers, in the order they came"),
    not_answered: z.array(todayParticipant).describe("Everyone in the run without an answer, by name"),
  })
  .meta({ id: "TodayStandup" });

export const today = z
  .object({
    date: isoDate.describe("Today in the workspace calendar"),
    standups: z
      .array(todayStandup)
      .describe("Runs dated today and runs still open (a standup in a zone ahead of the workspace), by standup"),
  })
  .meta({ id: "Today" });

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
  blockers: z.number().int().describe("This member's answers in the window that reported a blocker (not active)"),
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
    participation: z.object({
      daily: z.array(participationRow),
      overall_pct: z
        .number()
        .int()
        .describe("round(100 × Σ submitted / Σ (total − awaiting)): nobody still awaiting an open run is missed"),
    }),
    members: z.array(memberParticipation),
    blockers: z
      .object({
        total: z.number().int().describe("Answers in the window that reported a blocker (not active blockers)"),
        by_day: z
          .array(z.object({ date: isoDate, count: z.number().int().describe("Answers that day reporting a blocker") }))
          .describe("Days with at least one answer reporting a blocker"),
      })
      .describe("Blocker reports: every answer that named a blocker, counted per answer"),
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

const idParam = (name: string, what: string) =>
  z
    .string({ error: `${name} must be one id (letters, digits, _ or -)` })
    .trim()
    .regex(/^([A-Za-z0-9_-]{1,64})?$/, `${name} must be one id (letters, digits, _ or -)`)
    .transform((v) => (v === "" ? undefined : v))
    .optional()
    .describe(what);

/** `?schedule_id=&user_id=`: one standup, one member. */
export const filterQuery = z.object({
  schedule_id: idParam(
    "schedule_id",
    "Only this standup (a schedule id of the workspace, deleted ones included; another id answers 404)",
  ),
  user_id: idParam("user_id", "Only this member's answers and participation (an unknown id gives empty results)"),
});

export const REPORTS_PAGE_DEFAULT = 200;
export const REPORTS_PAGE_MAX = 1000;
const LIMIT_MESSAGE = `limit must be a whole number from 1 to ${REPORTS_PAGE_MAX}`;
export const SEARCH_MAX_LENGTH = 200;

/** `/reports`: the window, the filters, a full-text search and the keyset page. */
export const reportsQuery = windowQuery.extend(filterQuery.shape).extend({
  q: z
    .string({ error: "q must be one search text" })
    .trim()
    .max(SEARCH_MAX_LENGTH, `q must be at most ${SEARCH_MAX_LENGTH} characters`)
    .transform((v) => (v === "" ? undefined : v))
    .optional()
    .describe(
      'Full-text search over the answers (as the MCP tool search_standups: English stemming, "phrases", OR, -word)',
    ),
  limit: z
    .string({ error: LIMIT_MESSAGE })
    .regex(/^(\d{1,7})?$/, LIMIT_MESSAGE)
    .refine((v) => v === "" || (Number(v) >= 1 && Number(v) <= REPORTS_PAGE_MAX), LIMIT_MESSAGE)
    .transform((v) => (v === "" ? REPORTS_PAGE_DEFAULT : Number(v)))
    .optional()
    .describe(`Answers per page (default ${REPORTS_PAGE_DEFAULT}, at most ${REPORTS_PAGE_MAX})`),
  cursor: z
    .string({ error: "cursor must be the next_cursor of a previous page" })
    .regex(/^[A-Za-z0-9_-]{0,200}$/, "cursor must be the next_cursor of a previous page")
    .transform((v) => (v === "" ? undefined : v))
    .optional()
    .describe("next_cursor of the previous page; absent for the first page"),
});
