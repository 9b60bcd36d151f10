import { DateTime } from "luxon";
import type { Deps } from "../../deps.ts";
import type { StopTicker } from "../../jobs/ticker.ts";
import { holidaysBetween } from "../calendar/index.ts";
import { workspaceMemberZones } from "../members/index.ts";
import { dueRun, parseDays, runStartFor, type ScheduleRow, schedulesToRun, type Weekday } from "../schedules/index.ts";
import {
  claimTurnsOfClosedWindows,
  forgetEarlierQuestions,
  turnHoldersWithWaitingRuns,
} from "./dm-conversation.repo.ts";
import { askDueMembers, memberTimezoneRunsDue, memberZone, remindDueMembers } from "./member-timezone.ts";
import { remindAtFor, timingInForce } from "./run-rules.ts";
import { claimClose, claimRun, existingRunKeys, runsToClose } from "./runs.repo.ts";

export const TICK_MS = 30_000;
/** A run stays open to the end of its local day, and at least this long for late-evening schedules. */
export const MIN_OPEN_MS = 4 * 3600_000;
/** Hand-overs of closed member windows claimed per pass: the rest come in the next passes, 30 s apart. */
const MAX_HAND_OVERS_PER_TICK = 1000;

export interface TickResult {
  started: number[];
  skipped: number;
  /** Runs that reminded someone in this pass. */
  reminded: number;
  closed: number;
  /** Member-timezone participants asked, and participants of any run reminded, in this pass. */
  membersAsked: number;
  membersReminded: number;
  /** Members whose DM conversation was handed over because their own window on the run holding it closed. */
  turnsHandedOver: number;
}

/** End of the run's local day in its zone: the start of the next local date. */
export function closesAtFor(localDate: string, tz: string, startsAt: Date): Date {
  const endOfDay = DateTime.fromISO(localDate, { zone: tz }).plus({ days: 1 }).startOf("day").toJSDate();
  return new Date(Math.max(endOfDay.getTime(), startsAt.getTime() + MIN_OPEN_MS));
}

/**
 * A member-timezone participant's own times on the run's date: asked at the schedule time in their zone
 * (DST gap: the next valid minute; repeated hour: the first), reminded `reminderMinutes` later (null: never),
 * and answering until the end of their local day, as a whole run would.
 */
export function memberTimes(
  timing: { time: string; reminderMinutes: number | null },
  zone: string,
  localDate: string,
): { askAt: Date; remindAt: Date | null; closesAt: Date } {
  const askAt = runStartFor({ time: timing.time, tz: zone }, localDate).toJSDate();
  return {
    askAt,
    remindAt: timing.reminderMinutes === null ? null : new Date(askAt.getTime() + timing.reminderMinutes * 60_000),
    closesAt: closesAtFor(localDate, zone, askAt),
  };
}

/**
 * Claims the member-timezone runs of a schedule that are due (see `memberTimezoneRunsDue`). Until its
 * fan-out plans the participants, the run may stay open until the last window of any member's zone ends.
 */
async function claimMemberTimezoneRuns(
  deps: Deps,
  s: ScheduleRow,
  days: Weekday[],
  ctx: { now: Date; zones: string[]; existing: Set<string>; isHoliday: (localDate: string) => boolean },
): Promise<number[]> {
  // The workspace's member zones stand in for the channel's (unknown until the fan-out asks Slack).
  const zones =
    ctx.zones.length > 0 ? [...new Set(ctx.zones.map((tz) => memberZone(tz, s.scheduleTz)))] : [s.scheduleTz];
  const timing = { time: s.scheduleTime, reminderMinutes: s.reminderMinutes };
  const started: number[] = [];
  const due = memberTimezoneRunsDue({ time: s.scheduleTime, days }, zones, ctx.now, {
    isHoliday: ctx.isHoliday,
    isClaimed: (localDate) => ctx.existing.has(`${s.id}|${localDate}`),
    notBefore: s.timingChangedAt,
  });
  for (const run of due) {
    const lastClose = Math.max(...zones.map((tz) => memberTimes(timing, tz, run.localDate).closesAt.getTime()));
    const id = await deps.db.transaction(async (tx) => {
      const runId = await claimRun(tx, {
        teamId: s.teamId,
        scheduleId: s.id,
        localDate: run.localDate,
        channelId: s.channelId,
        questions: s.questions,
        questionDetails: s.questionDetails,
        scheduleTz: s.scheduleTz,
        memberTimezone: true,
        startsAt: run.startsAt,
        // Reminders are per participant (run_participants.remind_at), never for the run as a whole.
        remindAt: null,
        closesAt: new Date(lastClose),
        status: "open",
        createdAt: ctx.now,
      });
      if (runId !== undefined) {
        await deps.queue.enqueue("standup.fanout", { teamId: s.teamId, runId, memberTimezone: timing }, { tx });
      }
      return runId;
    });
    if (id !== undefined) {
      started.push(id);
      // No lag: a member-timezone run is claimed when its first member's time comes, not at one due time.
      deps.metrics.runsStarted.inc({ trigger: "schedule" });
    }
  }
  return started;
}

/** A scheduled run this instance claimed: counted, with how late after its due time it started. */
function countStarted(deps: Deps, startsAt: Date, now: Date): void {
  deps.metrics.runsStarted.inc({ trigger: "schedule" });
  deps.metrics.schedulerLag.observe(Math.max(0, now.getTime() - startsAt.getTime()) / 1000);
}

/**
 * One scheduler pass; every instance runs it every 30 s. Claims due runs (only the instance whose insert
 * succeeds enqueues the fan-out, in the same transaction), then member-timezone asks whose member's time has come,
 * then each participant's reminder whose time (counted from their own ask) has come, then closes, each claimed the
 * same way.
 */
export async function tick(deps: Deps): Promise<TickResult> {
  const now = deps.clock.now();
  const nowDt = DateTime.fromJSDate(now, { zone: "utc" });
  const result: TickResult = {
    started: [],
    skipped: 0,
    reminded: 0,
    closed: 0,
    membersAsked: 0,
    membersReminded: 0,
    turnsHandedOver: 0,
  };

  const all = await schedulesToRun(deps);
  const fromDate = nowDt.minus({ days: 2 }).toISODate()!;
  const toDate = nowDt.plus({ days: 2 }).toISODate()!;
  const holidays = await holidaysBetween(deps, [...new Set(all.map((s) => s.teamId))], fromDate, toDate, "standups");
  const existing = await existingRunKeys(
    deps.db,
    all.map((s) => s.id),
    fromDate,
  );
  const zones = await workspaceMemberZones(deps, [
    ...new Set(all.filter((s) => s.askInMemberTimezone).map((s) => s.teamId)),
  ]);

  for (const s of all) {
    const days = parseDays(s.scheduleDays);
    if (!days) continue;
    const teamHolidays = holidays.get(s.teamId);
    if (s.askInMemberTimezone) {
      const isHoliday = (d: string) => teamHolidays?.has(d) ?? false;
      const ctx = { now, zones: zones.get(s.teamId) ?? [], existing, isHoliday };
      result.started.push(...(await claimMemberTimezoneRuns(deps, s, days, ctx)));
      continue;
    }
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
      questionDetails: s.questionDetails,
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
        deps.metrics.runsSkipped.inc({ reason: "late" });
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
    if (id !== undefined) {
      result.started.push(id);
      countStarted(deps, startsAt, now);
    }
  }

  result.membersAsked = await askDueMembers(deps, now);
  const reminded = await remindDueMembers(deps, now);
  result.membersReminded = reminded.members;
  result.reminded = reminded.runs;

  // A member-timezone run stays open after a member's own window closes: a run waiting for their DM takes it then.
  result.turnsHandedOver = await deps.db.transaction(async (tx) => {
    const due = await claimTurnsOfClosedWindows(tx, now, MAX_HAND_OVERS_PER_TICK);
    await deps.queue.enqueueMany("standup.turn", due, { tx });
    return due.length;
  });

  for (const run of await runsToClose(deps.db, now)) {
    const claimed = await deps.db.transaction(async (tx) => {
      if (!(await claimClose(tx, run.id, now))) return false;
      await deps.queue.enqueue("standup.summary", { teamId: run.teamId, runId: run.id }, { tx });
      // Members whose DM conversation this run held, with another standup waiting: its questions come now.
      for (const userId of await turnHoldersWithWaitingRuns(tx, run.teamId, run.id))
        await deps.queue.enqueue("standup.turn", { teamId: run.teamId, userId }, { tx });
      await forgetEarlierQuestions(tx, run.scheduleId, run.id);
      await deps.events.emit(tx, {
        type: "standup.completed",
        teamId: run.teamId,
        data: { runId: run.id, scheduleId: run.scheduleId, standupDate: run.localDate },
        at: now,
      });
      return true;
    });
    if (claimed) result.closed += 1;
  }
  return result;
}

/** Runs `tick` every 30 s until stopped; a failed pass is logged and the next one tries again. */
export function startScheduler(deps: Deps): StopTicker {
  let current: Promise<void> | undefined;
  const pass = (): Promise<void> => {
    current ??= (async () => {
      try {
        await tick(deps);
      } catch (err) {
        deps.log.error({ err: err instanceof Error ? err.message : String(err) }, "scheduler tick failed");
      } finally {
        current = undefined;
      }
    })();
    return current;
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
  // Stopping waits for a tick in progress, so shutdown closes the database only after it.
  return () => {
    clearTimeout(timer);
    return current ?? Promise.resolve();
  };
}
