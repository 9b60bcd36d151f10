import { DateTime } from "luxon";
import type { Deps } from "../../deps.ts";
import { holidaysBetween } from "../calendar/index.ts";
import { dueRun, parseDays, schedulesToRun } from "../schedules/index.ts";
import { remindAtFor, timingInForce } from "./run-rules.ts";
import {
  claimClose,
  claimReminder,
  claimRun,
  existingRunKeys,
  participantsWithStatus,
  runsNeedingReminder,
  runsToClose,
} from "./runs.repo.ts";

export const TICK_MS = 30_000;
/** A run stays open to the end of its local day, and at least this long for late-evening schedules. */
export const MIN_OPEN_MS = 4 * 3600_000;

export interface TickResult {
  started: number[];
  skipped: number;
  reminded: number;
  closed: number;
}

/** End of the run's local day in its zone: the start of the next local date. */
export function closesAtFor(localDate: string, tz: string, startsAt: Date): Date {
  const endOfDay = DateTime.fromISO(localDate, { zone: tz }).plus({ days: 1 }).startOf("day").toJSDate();
  return new Date(Math.max(endOfDay.getTime(), startsAt.getTime() + MIN_OPEN_MS));
}

/**
 * One scheduler pass; every instance runs it every 30 s. Claims due runs (only the instance whose insert
 * succeeds enqueues the fan-out, in the same transaction), then due reminders and closes, each claimed the same way.
 */
export async function tick(deps: Deps): Promise<TickResult> {
  const now = deps.clock.now();
  const nowDt = DateTime.fromJSDate(now, { zone: "utc" });
  const result: TickResult = { started: [], skipped: 0, reminded: 0, closed: 0 };

  const all = await schedulesToRun(deps);
  const fromDate = nowDt.minus({ days: 2 }).toISODate()!;
  const toDate = nowDt.plus({ days: 2 }).toISODate()!;
  const holidays = await holidaysBetween(deps, [...new Set(all.map((s) => s.teamId))], fromDate, toDate);
  const existing = await existingRunKeys(
    deps.db,
    all.map((s) => s.id),
    fromDate,
  );

  for (const s of all) {
    const days = parseDays(s.scheduleDays);
    if (!days) continue;
    const teamHolidays = holidays.get(s.teamId);
    const found = dueRun({ time: s.scheduleTime, tz: s.scheduleTz, days }, nowDt, {
      isHoliday: (d) => teamHolidays?.has(d) ?? false,
    });
    if (!found) continue;
    const run = "due" in found ? found.due : found.missed;
    if (existing.has(`${s.id}|${run.localDate}`)) continue;
    const startsAt = run.startsAt.toJSDate();
    // Not due at all (not skipped): the next date whose start comes after the change runs.
    if (!timingInForce(s.timingChangedAt, startsAt)) continue;
    const base = {
      teamId: s.teamId,
      scheduleId: s.id,
      localDate: run.localDate,
      channelId: s.channelId,
      questions: s.questions,
      blockerQuestion: s.blockerQuestion,
      scheduleTz: s.scheduleTz,
      startsAt,
      remindAt: remindAtFor(startsAt, s.reminderMinutes),
      closesAt: closesAtFor(run.localDate, s.scheduleTz, startsAt),
      createdAt: now,
    };
    if ("missed" in found) {
      // Too late to be useful (the service was down for 3 hours or more): record the skip once and say so.
      const id = await claimRun(deps.db, { ...base, status: "skipped" });
      if (id !== undefined) {
        result.skipped += 1;
        deps.log.warn(
          {
            team_id: s.teamId,
            schedule_id: s.id,
            local_date: run.localDate,
            late_minutes: Math.round((now.getTime() - startsAt.getTime()) / 60_000),
          },
          "standup run skipped: more than 3 hours late",
        );
      }
      continue;
    }
    const id = await deps.db.transaction(async (tx) => {
      const runId = await claimRun(tx, { ...base, status: "open" });
      if (runId !== undefined) await deps.queue.enqueue("standup.fanout", { teamId: s.teamId, runId }, { tx });
      return runId;
    });
    if (id !== undefined) result.started.push(id);
  }

  for (const run of await runsNeedingReminder(deps.db, now)) {
    const claimed = await deps.db.transaction(async (tx) => {
      if (!(await claimReminder(tx, run.id, now))) return false;
      for (const userId of await participantsWithStatus(tx, run.id, "asked")) {
        await deps.queue.enqueue("standup.remind", { teamId: run.teamId, runId: run.id, userId }, { tx });
      }
      return true;
    });
    if (claimed) result.reminded += 1;
  }

  for (const run of await runsToClose(deps.db, now)) {
    const claimed = await deps.db.transaction(async (tx) => {
      if (!(await claimClose(tx, run.id, now))) return false;
      await deps.queue.enqueue("standup.summary", { teamId: run.teamId, runId: run.id }, { tx });
      return true;
    });
    if (claimed) result.closed += 1;
  }
  return result;
}

/** Runs `tick` every 30 s until stopped; a failed pass is logged and the next one tries again. */
export function startScheduler(deps: Deps): () => void {
  let running = false;
  const pass = async () => {
    if (running) return;
    running = true;
    try {
      await tick(deps);
    } catch (err) {
      deps.log.error({ err: err instanceof Error ? err.message : String(err) }, "scheduler tick failed");
    } finally {
      running = false;
    }
  };
  void pass();
  // Ticks land just after :00 and :30 of the wall clock, so a 09:00 run starts within a second of 09:00
  // instead of up to 30 s later, whenever the process happened to start.
  let timer: NodeJS.Timeout | undefined;
  const schedule = () => {
    const wait = TICK_MS - (Date.now() % TICK_MS) + 500;
    timer = setTimeout(() => {
      void pass();
      schedule();
    }, wait);
    timer.unref();
  };
  schedule();
  return () => clearTimeout(timer);
}
