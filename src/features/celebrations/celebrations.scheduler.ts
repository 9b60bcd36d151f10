import { DateTime, IANAZone } from "luxon";
import type { CelebrationKind } from "../../db/schema.ts";
import type { Deps } from "../../deps.ts";
import { type StopTicker, startTicker } from "../../jobs/ticker.ts";
import { readCalendars, shiftDate } from "../calendar/index.ts";
import { type Celebration, celebrationsOn, datesPostedOn, MAX_SHIFT_DAYS } from "./celebrations.dates.ts";
import { celebratedPeople, claimedKinds, claimPost, postingWorkspaces, prunePostClaims } from "./celebrations.repo.ts";
import { workCalendar } from "./celebrations.service.ts";

/** Every instance checks once a minute; the claims make one of them post. */
export const CELEBRATIONS_TICK_MS = 60_000;

export interface CelebrationsTickResult {
  claimed: { teamId: string; kind: CelebrationKind; postDate: string; people: number }[];
}

/**
 * The posting day due at `now`: the local date in `zone` once its `postTime` (HH:MM) has come, until the day ends.
 * A day missed entirely (the service was down) is not caught up the next day.
 */
export function duePostDate(now: Date, zone: string, postTime: string): string | undefined {
  const local = DateTime.fromJSDate(now, { zone });
  const [h, m] = postTime.split(":").map(Number) as [number, number];
  if (local.hour * 60 + local.minute < h * 60 + m) return undefined;
  return local.toISODate() ?? undefined;
}

/** When the post of `date` is due: its post time in the calendar zone, as epoch milliseconds. */
function postMoment(date: string, zone: string, postTime: string): number {
  const [h, m] = postTime.split(":").map(Number) as [number, number];
  return DateTime.fromISO(date, { zone }).set({ hour: h, minute: m }).toMillis();
}

/**
 * One pass: each installed workspace with a Celebrations channel whose post time has come on a working day that is not
 * a holiday gets the day's post of each kind it celebrates claimed (one row per workspace, kind and day, under its
 * unique key) and, when someone is celebrated, a job queued in the same transaction. Only the instance whose claim
 * succeeds queues anything; the post itself goes out exactly once through postOnce.
 */
export async function celebrationsTick(deps: Deps): Promise<CelebrationsTickResult> {
  const result: CelebrationsTickResult = { claimed: [] };
  const now = deps.clock.now();
  const workspaces = await postingWorkspaces(deps.db);
  if (workspaces.length === 0) return result;
  const calendars = await readCalendars(
    deps.db,
    workspaces.map((w) => w.team_id),
  );
  for (const w of workspaces) {
    const cal = calendars.get(w.team_id);
    // No calendar saved: settings always save one, so this is a workspace mid-way; nothing is posted.
    if (!cal) continue;
    const zone = IANAZone.isValidZone(cal.timezone) ? cal.timezone : "UTC";
    const today = duePostDate(now, zone, w.post_time);
    if (!today) continue;
    // No surprise posts: a day whose post time had passed when the settings were saved starts with the next one.
    if (postMoment(today, zone, w.post_time) <= new Date(w.updated_at).getTime()) continue;
    const { work } = await workCalendar(deps, w.team_id, today, shiftDate(today, MAX_SHIFT_DAYS + 1));
    const dates = datesPostedOn(today, work);
    if (dates.length === 0) continue;
    const kinds = (["birthday", "anniversary"] as const).filter((k) =>
      k === "birthday" ? w.birthdays : w.anniversaries,
    );
    const done = await claimedKinds(deps.db, w.team_id, today);
    const todo = kinds.filter((k) => !done.has(k));
    if (todo.length === 0) continue;
    const people = await celebratedPeople(deps.db, w.team_id);
    for (const kind of todo) {
      const celebrated: Celebration[] = dates.flatMap((d) => celebrationsOn(d, people, kind));
      const won = await deps.db.transaction(async (tx) => {
        if (
          !(await claimPost(
            tx,
            w.team_id,
            kind,
            today,
            celebrated.map((c) => c.userId),
            now,
          ))
        )
          return false;
        if (celebrated.length > 0) {
          await deps.queue.enqueue("celebrations.post", { teamId: w.team_id, kind, postDate: today }, { tx });
        }
        await prunePostClaims(tx, w.team_id, now);
        return true;
      });
      if (won) result.claimed.push({ teamId: w.team_id, kind, postDate: today, people: celebrated.length });
    }
  }
  return result;
}

/** Runs `celebrationsTick` every minute (just after the minute turns) until stopped; a failed pass is logged. */
export function startCelebrationsScheduler(deps: Deps): StopTicker {
  return startTicker(deps.log, "celebrations check", CELEBRATIONS_TICK_MS, () => celebrationsTick(deps));
}
