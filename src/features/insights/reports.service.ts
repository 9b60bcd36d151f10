import { REPORTS_PAGE_DEFAULT, type StandupResponse } from "../../contract/index.ts";
import type { Deps } from "../../deps.ts";
import { badRequest } from "../../http/errors.ts";
import { isRealDate, shiftDate, standupHolidaysIn, workspaceToday } from "../calendar/index.ts";
import { displayName } from "../schedules/index.ts";
import { type PageKey, responseTotals, type StandupRow, standupsBetween } from "./insights.repo.ts";
import { type FilterQuery, overallPct, resolveFilters, type WindowQuery, windowFor } from "./insights.service.ts";
import { participationByDay } from "./participation.repo.ts";
import { namesFor, presentResponse } from "./responses.presenter.ts";
import { todayRuns } from "./today.repo.ts";

type InsightDeps = Pick<Deps, "db" | "clock"> & Partial<Pick<Deps, "chat">>;

export type ReportsQuery = WindowQuery &
  FilterQuery & { q?: string | undefined; limit?: number | undefined; cursor?: string | undefined };

const KEY = /^(\d{4}-\d{2}-\d{2})\|(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z)\|([1-9]\d{0,17})$/;
const BAD_CURSOR = "cursor is not valid: pass the next_cursor of the previous page as it is";

/** A cursor is the last row's position, base64url: opaque to clients, no state on the server. */
export function encodeCursor(pageKey: string): string {
  return Buffer.from(pageKey, "utf8").toString("base64url");
}

export function decodeCursor(cursor: string): PageKey {
  const m = KEY.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  // Date.parse takes 2026-02-30T… as 2 March; the database would refuse it: both parts must be real dates.
  if (!m || !isRealDate(m[1]!) || !isRealDate(m[2]!.slice(0, 10)) || Number.isNaN(Date.parse(m[2]!))) {
    throw badRequest(BAD_CURSOR);
  }
  return { date: m[1]!, at: m[2]!, id: m[3]! };
}

/**
 * A page of answers (keyset: stable while answers keep coming in) with the whole window's summary and daily
 * participation, each one SQL statement. The standup and member filters apply to everything; `q` to the answers.
 */
export async function getReports(deps: InsightDeps, teamId: string, query: ReportsQuery) {
  const after = query.cursor ? decodeCursor(query.cursor) : undefined;
  const limit = query.limit ?? REPORTS_PAGE_DEFAULT;
  const [w, f] = await Promise.all([windowFor(deps, teamId, query), resolveFilters(deps, teamId, query)]);
  const [page, participation, totals, channels, holidays] = await Promise.all([
    standupsBetween(deps.db, teamId, w.from, w.to, { ...f, q: query.q, after, limit: limit + 1 }),
    participationByDay(deps.db, teamId, w.from, w.to, f, deps.clock.now()),
    responseTotals(deps.db, teamId, w.from, w.to, { ...f, q: query.q }),
    namesFor(deps, teamId),
    // Reports mark the days no standup ran: a Celebrations-only holiday is a working day for standups.
    standupHolidaysIn(deps.db, teamId, w.from, w.to),
  ]);
  const more = page.length > limit;
  const rows = more ? page.slice(0, limit) : page;
  // The window's figure, as the 7-day stats: who still awaits an open run has not missed it (rows' total has them).
  const asked = participation.reduce((n, d) => n + d.total - d.awaiting, 0);
  const answered = participation.reduce((n, d) => n + d.submitted, 0);
  return {
    standups: rows.map((r) => presentResponse(r, channels)),
    next_cursor: more ? encodeCursor(rows[rows.length - 1]!.page_key) : null,
    summary: {
      responses: totals.responses,
      members_answered: totals.members_answered,
      asked,
      answered,
      pct: overallPct(participation),
      awaiting: participation.reduce((n, d) => n + d.awaiting, 0),
      active_blockers: totals.active_blockers,
    },
    participation,
    total_days: w.totalDays,
    holidays,
    from: w.from,
    to: w.to,
  };
}

/** Today by standup: each run dated today or still open, its answers so far, and who has not answered. */
export async function getToday(deps: InsightDeps, teamId: string) {
  const date = await workspaceToday(deps, teamId);
  const runs = await todayRuns(deps.db, teamId, date, deps.clock.now());
  if (runs.length === 0) return { date, standups: [] };
  // Answers carry their run's date; a day either side covers members whose own calendar differs.
  const dates = runs.map((r) => r.date).sort();
  const [answers, channels] = await Promise.all([
    standupsBetween(deps.db, teamId, shiftDate(dates[0]!, -1), shiftDate(dates.at(-1)!, 1), {
      runIds: runs.map((r) => r.run_id),
    }),
    namesFor(deps, teamId),
  ]);
  // A run is (standup, date); an answer dated otherwise (a member's own calendar) joins its standup's run.
  const byRun = new Map<string, StandupResponse[]>();
  const runOf = (a: StandupRow) =>
    runs.find((r) => r.schedule_id === a.schedule_id && r.date === a.standup_date) ??
    runs.find((r) => r.schedule_id === a.schedule_id);
  for (const a of answers) {
    const run = runOf(a);
    if (!run) continue;
    const list = byRun.get(run.run_id) ?? [];
    list.push(presentResponse(a, channels));
    byRun.set(run.run_id, list);
  }
  return {
    date,
    standups: runs.map(({ run_id, ...run }) => ({
      ...run,
      standup_name: displayName({ name: run.standup_name, channelId: run.channel_id }, channels),
      // The order they came in.
      responses: (byRun.get(run_id) ?? []).sort((x, y) => x.submitted_at.localeCompare(y.submitted_at)),
    })),
  };
}
