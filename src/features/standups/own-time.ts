import { and, desc, eq, gte, lt, ne } from "drizzle-orm";
import { DateTime } from "luxon";
import type { Executor } from "../../db/client.ts";
import { responses, timeOff } from "../../db/schema.ts";
import type { Deps } from "../../deps.ts";
import { holidaysBetween, shiftDate } from "../calendar/index.ts";
import { memberTimezone } from "../members/index.ts";
import { findSchedule, nextRunAfter, parseDays, type ScheduleRow } from "../schedules/index.ts";
import { DEFAULT_QUESTIONS } from "../templates/index.ts";
import { memberZone } from "./member-timezone.ts";
import type { ParticipantRow } from "./participants.repo.ts";
import type { RunRow } from "./runs.repo.ts";

/**
 * Answering on one's own time (issue 25): ahead of a run (`answer_early_hours` before the member is asked) and late
 * (after their window on a run closed, until the standup asks them again). Both follow the scheduler's own timing:
 * the schedule's days, time and zone (the member's zone for member-timezone standups), skipping workspace holidays.
 */

/** How far ahead the next ask is looked for: the scheduler's horizon for "next run". */
const HORIZON_DAYS = 14;

type Timing = Pick<
  ScheduleRow,
  "active" | "scheduleTime" | "scheduleTz" | "scheduleDays" | "timingChangedAt" | "askInMemberTimezone"
>;

/** The zone a member is asked in by this standup: theirs for member-timezone standups, else the schedule's. */
export function askZone(s: Pick<Timing, "askInMemberTimezone" | "scheduleTz">, memberTz: string | null): string {
  return s.askInMemberTimezone ? memberZone(memberTz, s.scheduleTz) : s.scheduleTz;
}

/**
 * The member's next ask by this standup strictly after `after`: the first listed day, not skipped, whose schedule
 * time in `zone` comes after both `after` and the last timing change (the scheduler never runs a date whose start
 * is before the change). Null: a paused standup, or nothing within the horizon.
 */
export function nextAsk(
  s: Timing,
  zone: string,
  after: Date,
  skip: (localDate: string) => boolean,
): { localDate: string; askAt: Date } | null {
  const days = parseDays(s.scheduleDays);
  if (!s.active || !days) return null;
  const from = s.timingChangedAt && s.timingChangedAt > after ? s.timingChangedAt : after;
  const next = nextRunAfter(
    { time: s.scheduleTime, tz: zone, days },
    DateTime.fromJSDate(from, { zone: "utc" }),
    skip,
    HORIZON_DAYS,
  );
  return next ? { localDate: next.localDate, askAt: next.startsAt.toJSDate() } : null;
}

/** Workspace holidays that skip standups, from a day before `from` to past the horizon. */
export async function standupHolidays(deps: Pick<Deps, "db">, teamId: string, from: Date): Promise<Set<string>> {
  const start = shiftDate(DateTime.fromJSDate(from, { zone: "utc" }).toISODate()!, -1);
  const map = await holidaysBetween(deps, [teamId], start, shiftDate(start, HORIZON_DAYS + 2), "standups");
  return map.get(teamId) ?? new Set();
}

/** The member's time off from `fromDate` on, as a test for one local date. */
export async function awayDates(ex: Executor, teamId: string, userId: string, fromDate: string) {
  const ranges = await ex
    .select({ start: timeOff.startDate, end: timeOff.endDate })
    .from(timeOff)
    .where(and(eq(timeOff.teamId, teamId), eq(timeOff.userId, userId), gte(timeOff.endDate, fromDate)));
  return (localDate: string) => ranges.some((r) => r.start <= localDate && localDate <= r.end);
}

export type AnswerWindow = "open" | "late" | "closed";

/**
 * Whether a run takes this participant's answer now: `open` in their window; `late` once the run closed or their own
 * window ended, until the standup's next ask of them starts; `closed` after that (and for stopped or skipped runs).
 */
export async function answerWindow(
  deps: Pick<Deps, "db" | "clock">,
  run: Pick<RunRow, "teamId" | "scheduleId" | "status" | "localDate">,
  participant: Pick<ParticipantRow, "closesAt" | "userId">,
): Promise<AnswerWindow> {
  const now = deps.clock.now();
  if (run.status !== "open" && run.status !== "closed") return "closed";
  const ownClosed = participant.closesAt !== null && participant.closesAt.getTime() <= now.getTime();
  if (run.status === "open" && !ownClosed) return "open";
  // A deleted standup has no next run: its closed runs take no more answers.
  const s = await findSchedule(deps, run.teamId, run.scheduleId).catch(() => undefined);
  if (!s) return "closed";
  const zone = askZone(s, s.askInMemberTimezone ? await memberTimezone(deps, run.teamId, participant.userId) : null);
  // Counted from the run's own date, so a date the scheduler skipped (downtime) does not end the window early.
  const holidays = await standupHolidays(deps, run.teamId, now);
  const dayStart = DateTime.fromISO(run.localDate, { zone }).startOf("day").toJSDate();
  const next = nextAsk(s, zone, dayStart, (d) => d <= run.localDate || holidays.has(d));
  return next && now.getTime() < next.askAt.getTime() ? "late" : "closed";
}

/**
 * The yesterday question: the built-in default's first question, or a first question that starts with "What did
 * you" or mentions "yesterday" (any case). Only the first question is ever pre-filled.
 */
export function isYesterdayQuestion(text: string | undefined): boolean {
  if (!text) return false;
  const t = text.trim().toLowerCase();
  return t === DEFAULT_QUESTIONS[0]!.toLowerCase() || t.startsWith("what did you") || t.includes("yesterday");
}

/**
 * The member's previous "today" answer of this standup (before `beforeDate`), to pre-fill the yesterday question;
 * undefined when the first question is not the yesterday question or there is none.
 */
export async function yesterdayPrefill(
  ex: Executor,
  q: { teamId: string; scheduleId: string; userId: string; beforeDate: string; questions: readonly string[] },
): Promise<string | undefined> {
  if (q.questions.length < 2 || !isYesterdayQuestion(q.questions[0])) return undefined;
  const [row] = await ex
    .select({ today: responses.today })
    .from(responses)
    .where(
      and(
        eq(responses.teamId, q.teamId),
        eq(responses.scheduleId, q.scheduleId),
        eq(responses.userId, q.userId),
        lt(responses.standupDate, q.beforeDate),
        ne(responses.today, ""),
      ),
    )
    .orderBy(desc(responses.standupDate))
    .limit(1);
  return row?.today || undefined;
}
