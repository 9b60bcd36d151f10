import type { StandupResponse } from "../../contract/index.ts";
import type { Deps } from "../../deps.ts";
import { notFound } from "../../http/errors.ts";
import { type DateWindow, resolveWindow, shiftDate, workspaceToday } from "../calendar/index.ts";
import { MOODS } from "../standups/index.ts";
import type { Filters } from "./filters.repo.ts";
import { blockersByDay, moodCounts, searchResponses, standupsBetween } from "./insights.repo.ts";
import { openBlockersIn } from "./open-blockers.repo.ts";
import {
  memberParticipation,
  type ParticipationRow,
  participationAndMembers,
  participationByDay,
  statsFor,
} from "./participation.repo.ts";
import { namesFor, presentResponse } from "./responses.presenter.ts";
import { scheduleInTeam } from "./today.repo.ts";

type InsightDeps = Pick<Deps, "db" | "clock">;
type ReadDeps = Pick<Deps, "db"> & Partial<Pick<Deps, "chat" | "clock">>;
type Span = { from: string; to: string };
export type WindowQuery = { days?: unknown; from?: unknown; to?: unknown };
export type FilterQuery = { schedule_id?: string | undefined; user_id?: string | undefined };

/**
 * The standup and member filters of every view. A standup of another workspace (or none) is a 404, so
 * existence does not leak; an unknown member simply has no answers.
 */
export async function resolveFilters(deps: ReadDeps, teamId: string, query: FilterQuery): Promise<Filters> {
  if (query.schedule_id && !(await scheduleInTeam(deps.db, teamId, query.schedule_id))) {
    throw notFound("Schedule not found");
  }
  return { scheduleId: query.schedule_id, userId: query.user_id };
}

/** Mood scored 5 (😀) to 1 (😫). */
export const MOOD_SCORE: Record<string, number> = Object.fromEntries(MOODS.map((m, i) => [m, 5 - i]));

/**
 * Answered / asked over many days, leaving out who is still awaiting an open run: they have not missed it (yet),
 * so an open day neither lowers nor (with its answers so far) skews the window's figure.
 */
export function overallPct(rows: Pick<ParticipationRow, "submitted" | "total" | "awaiting">[]): number {
  const counted = rows.reduce((n, r) => n + r.total - r.awaiting, 0);
  const submitted = rows.reduce((n, r) => n + r.submitted, 0);
  return counted === 0 ? 0 : Math.round((100 * submitted) / counted);
}

export async function getStats(deps: InsightDeps, teamId: string, query: FilterQuery = {}) {
  const [today, f] = await Promise.all([workspaceToday(deps, teamId), resolveFilters(deps, teamId, query)]);
  const s = await statsFor(deps.db, teamId, today, shiftDate(today, -6), f, deps.clock.now());
  return {
    total_members: s.total_members,
    submitted_today: s.submitted_today,
    participation_7d_pct: s.asked === 0 ? 0 : Math.round((100 * s.answered) / s.asked),
    active_blockers: s.active_blockers,
  };
}

export async function windowFor(
  deps: InsightDeps,
  teamId: string,
  query: WindowQuery,
  defaultDays = 7,
): Promise<DateWindow> {
  return resolveWindow(query, await workspaceToday(deps, teamId), { defaultDays });
}

/** Second half of the window against the first: a change of more than 0.2 points is a trend. */
export function moodTrend(daily: { avg_score: number }[]): "up" | "down" | "flat" {
  if (daily.length < 2) return "flat";
  const half = Math.floor(daily.length / 2);
  const avg = (xs: { avg_score: number }[]) => xs.reduce((n, d) => n + d.avg_score, 0) / xs.length;
  const delta = avg(daily.slice(daily.length - half)) - avg(daily.slice(0, half));
  return delta > 0.2 ? "up" : delta < -0.2 ? "down" : "flat";
}

export async function moodSummary(deps: ReadDeps, teamId: string, w: Span, f: Filters = {}) {
  const counts = await moodCounts(deps.db, teamId, w.from, w.to, f);
  const byDate = new Map<string, Record<string, number>>();
  for (const c of counts) {
    const day = byDate.get(c.date) ?? {};
    day[c.mood] = c.n;
    byDate.set(c.date, day);
  }
  let sum = 0;
  let n = 0;
  const daily = [...byDate.entries()].map(([date, dayCounts]) => {
    let daySum = 0;
    let dayN = 0;
    for (const [mood, k] of Object.entries(dayCounts)) {
      const score = MOOD_SCORE[mood];
      if (score === undefined) continue;
      daySum += score * k;
      dayN += k;
    }
    sum += daySum;
    n += dayN;
    return { date, avg_score: dayN === 0 ? 0 : Math.round((daySum / dayN) * 100) / 100, counts: dayCounts };
  });
  return { daily, overall_avg: n === 0 ? 0 : Math.round((sum / n) * 100) / 100, trend: moodTrend(daily) };
}

export async function getAnalytics(deps: InsightDeps, teamId: string, query: WindowQuery & FilterQuery) {
  const [w, f] = await Promise.all([windowFor(deps, teamId, query), resolveFilters(deps, teamId, query)]);
  const now = deps.clock.now();
  const [mood, { daily: participation, members }, blockerDays] = await Promise.all([
    moodSummary(deps, teamId, w, f),
    participationAndMembers(deps.db, teamId, w.from, w.to, f, now),
    blockersByDay(deps.db, teamId, w.from, w.to, f),
  ]);
  return {
    days: w.totalDays,
    from: w.from,
    to: w.to,
    mood,
    participation: { daily: participation, overall_pct: overallPct(participation) },
    members,
    blockers: { total: blockerDays.reduce((n, d) => n + d.count, 0), by_day: blockerDays },
  };
}

// ---- Window queries for other callers (the MCP tools): the dashboard's SQL, scoped by the workspace ----

/** Responses in the window, newest day first, each with every labelled answer; `limit` caps the rows. */
export async function listStandups(
  deps: ReadDeps,
  teamId: string,
  w: Span,
  opts: Filters & { limit?: number } = {},
): Promise<StandupResponse[]> {
  const [found, channels] = await Promise.all([
    standupsBetween(deps.db, teamId, w.from, w.to, opts),
    namesFor(deps, teamId),
  ]);
  return found.map((r) => presentResponse(r, channels));
}

/** One row per day that had a run: members asked, how many answered, the percentage, and whether still open. */
export function participationDaily(
  deps: InsightDeps,
  teamId: string,
  w: Span,
  f: Filters = {},
): Promise<ParticipationRow[]> {
  return participationByDay(deps.db, teamId, w.from, w.to, f, deps.clock.now());
}

/** Per member: runs asked and answered, the current streak and blockers reported. */
export function participationByMember(deps: InsightDeps, teamId: string, w: Span, f: Filters = {}) {
  return memberParticipation(deps.db, teamId, w.from, w.to, f, deps.clock.now());
}

/** participationDaily and participationByMember of one window, in one statement. */
export function participationBoth(deps: InsightDeps, teamId: string, w: Span, f: Filters = {}) {
  return participationAndMembers(deps.db, teamId, w.from, w.to, f, deps.clock.now());
}

/** The open blocker items reported in the window (active blockers, issue 25), newest report first. */
export function listActiveBlockers(deps: ReadDeps, teamId: string, w: Span, f: Filters = {}) {
  return openBlockersIn(deps.db, teamId, w.from, w.to, f);
}

/** Full-text search over every answer, best matches first: the response, its rank and a highlighted snippet. */
export async function searchAnswers(
  deps: ReadDeps,
  teamId: string,
  query: string,
  w: Span,
  limit: number,
  f: Filters = {},
) {
  const [found, channels] = await Promise.all([
    searchResponses(deps.db, teamId, query, w.from, w.to, limit, f),
    namesFor(deps, teamId),
  ]);
  return found.map((r) => ({ ...presentResponse(r, channels), rank: r.rank, snippet: r.snippet }));
}
