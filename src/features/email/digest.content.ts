import { DateTime } from "luxon";
import { findInstallation } from "../../chat/installations.repo.ts";
import type { Deps } from "../../deps.ts";
import { shiftDate } from "../calendar/index.ts";
import { listActiveBlockers, moodSummary, participationByDay } from "../insights/index.ts";
import { kudosGivenBetween } from "../kudos/index.ts";
import { displayName, listScheduleRows, standupChannelNames } from "../schedules/index.ts";

/** What the weekly digest reports: last week (Monday to Sunday in the workspace timezone), per standup. */

/** Standups listed one by one; the rest are counted ("and 3 more standups"). */
export const MAX_DIGEST_STANDUPS = 20;
/** Blockers quoted per standup (the newest); all are counted. */
export const BLOCKERS_QUOTED = 3;
/** A quoted blocker is cut to this many characters. */
export const BLOCKER_QUOTE_CHARS = 200;

export interface DigestBlocker {
  name: string;
  date: string;
  text: string;
}

export interface StandupDigest {
  scheduleId: string;
  name: string;
  /** Days of the week that had a run. */
  runDays: number;
  submitted: number;
  total: number;
  pct: number;
  /** Average mood score per day that had one (5 😀 … 1 😫), the week's average, and first half against second. */
  mood: { daily: { date: string; avg: number }[]; average: number | null; trend: "up" | "down" | "flat" };
  /** The open blocker items (active blockers) reported in the week: how many, and the newest few. */
  blockers: { count: number; latest: DigestBlocker[] };
  /** The week in a few sentences by the server's model, when the standup asks for AI summaries (escaped in HTML). */
  ai?: { text: string; model: string };
}

export interface WeeklyDigest {
  teamId: string;
  teamName: string;
  timezone: string;
  weekStart: string;
  weekEnd: string;
  standups: StandupDigest[];
  moreStandups: number;
  /** Kudos given during the week. */
  kudos: number;
}

type DigestDeps = Pick<Deps, "db" | "clock" | "chat">;

/** Collapses whitespace and cuts long text at a word, with an ellipsis. */
export function quote(text: string, max = BLOCKER_QUOTE_CHARS): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** The Monday that starts a week, as YYYY-MM-DD. */
export function weekEndOf(weekStart: string): string {
  return shiftDate(weekStart, 6);
}

/**
 * Last week's figures. `asOf` is when the e-mail was claimed: open runs count as the insights views count them at
 * that moment, so every attempt at sending the same e-mail says the same. Undefined when no standup ran that week.
 */
export async function buildDigest(
  deps: DigestDeps,
  teamId: string,
  opts: { weekStart: string; timezone: string; asOf: Date },
): Promise<WeeklyDigest | undefined> {
  const from = opts.weekStart;
  const to = weekEndOf(from);
  const days = await participationByDay(deps.db, teamId, from, to, {}, opts.asOf);
  const totals = new Map<string, { runDays: number; submitted: number; total: number }>();
  for (const day of days) {
    for (const s of day.standups) {
      const t = totals.get(s.schedule_id) ?? { runDays: 0, submitted: 0, total: 0 };
      t.runDays += 1;
      t.submitted += s.submitted;
      t.total += s.total - s.awaiting; // a run still open: who may still answer has not missed it
      totals.set(s.schedule_id, t);
    }
  }
  if (totals.size === 0) return undefined;

  const rows = new Map((await listScheduleRows(deps, teamId)).map((r) => [r.id, r]));
  const unnamed = [...totals.keys()].some((id) => (rows.get(id)?.name ?? "") === "");
  const channels = unnamed ? await standupChannelNames(deps, teamId) : new Map<string, string>();
  const named = [...totals.entries()]
    .map(([scheduleId, t]) => {
      const row = rows.get(scheduleId);
      return { scheduleId, t, name: row ? displayName(row, channels) : "A deleted standup" };
    })
    .sort((a, b) => a.name.localeCompare(b.name) || (a.scheduleId < b.scheduleId ? -1 : 1));

  const standups: StandupDigest[] = [];
  for (const { scheduleId, t, name } of named.slice(0, MAX_DIGEST_STANDUPS)) {
    const span = { from, to };
    const [mood, blocked] = await Promise.all([
      moodSummary(deps, teamId, span, { scheduleId }),
      listActiveBlockers(deps, teamId, span, { scheduleId }),
    ]);
    standups.push({
      scheduleId,
      name,
      runDays: t.runDays,
      submitted: t.submitted,
      total: t.total,
      pct: t.total === 0 ? 0 : Math.round((100 * t.submitted) / t.total),
      mood: {
        daily: mood.daily.map((d) => ({ date: d.date, avg: d.avg_score })),
        average: mood.daily.length === 0 ? null : mood.overall_avg,
        trend: mood.trend,
      },
      blockers: {
        count: blocked.length,
        latest: blocked.slice(0, BLOCKERS_QUOTED).map((b) => ({
          name: b.real_name,
          date: b.standup_date,
          text: quote(b.blockers),
        })),
      },
    });
  }

  // The week's instants in the workspace timezone: Monday 00:00 to the next Monday 00:00 (167 or 169 hours
  // when the clocks change that week).
  const start = DateTime.fromISO(from, { zone: opts.timezone }).startOf("day");
  const end = DateTime.fromISO(shiftDate(from, 7), { zone: opts.timezone }).startOf("day");
  const kudos = await kudosGivenBetween(deps, teamId, { start: start.toJSDate(), end: end.toJSDate() });
  const installation = await findInstallation(deps.db, teamId);
  return {
    teamId,
    teamName: installation?.teamName ?? teamId,
    timezone: opts.timezone,
    weekStart: from,
    weekEnd: to,
    standups,
    moreStandups: Math.max(0, named.length - MAX_DIGEST_STANDUPS),
    kudos,
  };
}
