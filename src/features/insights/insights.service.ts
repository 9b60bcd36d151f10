import type { StandupResponse } from "../../contract/index.ts";
import type { Deps } from "../../deps.ts";
import { type DateWindow, resolveWindow, shiftDate, workspaceToday } from "../calendar/index.ts";
import { MOODS } from "../standups/index.ts";
import {
  activeBlockers,
  blockersByDay,
  memberParticipation,
  moodCounts,
  type ParticipationRow,
  participationByDay,
  searchResponses,
  standupsBetween,
  statsFor,
} from "./insights.repo.ts";
import { presentResponse } from "./responses.presenter.ts";

type InsightDeps = Pick<Deps, "db" | "clock">;
type ReadDeps = Pick<Deps, "db">;
type Span = { from: string; to: string };
export type WindowQuery = { days?: unknown; from?: unknown; to?: unknown };

/** Mood scored 5 (😀) to 1 (😫). */
export const MOOD_SCORE: Record<string, number> = Object.fromEntries(MOODS.map((m, i) => [m, 5 - i]));

export function overallPct(rows: Pick<ParticipationRow, "submitted" | "total">[]): number {
  const total = rows.reduce((n, r) => n + r.total, 0);
  const submitted = rows.reduce((n, r) => n + r.submitted, 0);
  return total === 0 ? 0 : Math.round((100 * submitted) / total);
}

export async function getStats(deps: InsightDeps, teamId: string) {
  const today = await workspaceToday(deps, teamId);
  const s = await statsFor(deps.db, teamId, today, shiftDate(today, -6));
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

export async function getReports(deps: InsightDeps, teamId: string, query: WindowQuery) {
  const w = await windowFor(deps, teamId, query);
  const [standups, participation] = await Promise.all([
    standupsBetween(deps.db, teamId, w.from, w.to),
    participationByDay(deps.db, teamId, w.from, w.to),
  ]);
  return { standups: standups.map(presentResponse), participation, total_days: w.totalDays, from: w.from, to: w.to };
}

/** Second half of the window against the first: a change of more than 0.2 points is a trend. */
export function moodTrend(daily: { avg_score: number }[]): "up" | "down" | "flat" {
  if (daily.length < 2) return "flat";
  const half = Math.floor(daily.length / 2);
  const avg = (xs: { avg_score: number }[]) => xs.reduce((n, d) => n + d.avg_score, 0) / xs.length;
  const delta = avg(daily.slice(daily.length - half)) - avg(daily.slice(0, half));
  return delta > 0.2 ? "up" : delta < -0.2 ? "down" : "flat";
}

export async function moodSummary(deps: InsightDeps, teamId: string, w: { from: string; to: string }) {
  const counts = await moodCounts(deps.db, teamId, w.from, w.to);
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

export async function getAnalytics(deps: InsightDeps, teamId: string, query: WindowQuery) {
  const w = await windowFor(deps, teamId, query);
  const [mood, participation, members, blockerDays] = await Promise.all([
    moodSummary(deps, teamId, w),
    participationByDay(deps.db, teamId, w.from, w.to),
    memberParticipation(deps.db, teamId, w.from, w.to),
    blockersByDay(deps.db, teamId, w.from, w.to),
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
  opts: { userId?: string; limit?: number } = {},
): Promise<StandupResponse[]> {
  return (await standupsBetween(deps.db, teamId, w.from, w.to, opts)).map(presentResponse);
}

/** One row per day that had a run: members asked, how many answered, and the percentage. */
export function participationDaily(deps: ReadDeps, teamId: string, w: Span): Promise<ParticipationRow[]> {
  return participationByDay(deps.db, teamId, w.from, w.to);
}

/** Per member: runs asked and answered, the current streak and blockers reported. */
export function participationByMember(deps: ReadDeps, teamId: string, w: Span) {
  return memberParticipation(deps.db, teamId, w.from, w.to);
}

/** Members whose latest response in the window reports a blocker. */
export function listActiveBlockers(deps: ReadDeps, teamId: string, w: Span) {
  return activeBlockers(deps.db, teamId, w.from, w.to);
}

/** Full-text search over every answer, best matches first: the response, its rank and a highlighted snippet. */
export async function searchAnswers(deps: ReadDeps, teamId: string, query: string, w: Span, limit: number) {
  const found = await searchResponses(deps.db, teamId, query, w.from, w.to, limit);
  return found.map((r) => ({ ...presentResponse(r), rank: r.rank, snippet: r.snippet }));
}
