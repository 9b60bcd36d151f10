import { DateTime } from "luxon";
import type { Deps } from "../../deps.ts";
import { type StopTicker, startTicker } from "../../jobs/ticker.ts";
import { workspaceTimezones } from "../calendar/index.ts";
import { claimDigestRecipients, claimDigestWeek, installedWorkspaces, pruneDigests } from "./email.repo.ts";

/** Every instance checks once a minute; the claims make one of them send. */
export const DIGEST_TICK_MS = 60_000;
/** The digest goes on Monday from this hour (workspace timezone) to the end of that Monday. */
export const DIGEST_HOUR = 9;

export const digestKey = (weekStart: string, userId: string) => `digest:${weekStart}:${userId}`;

/**
 * The week (its Monday, YYYY-MM-DD) whose digest is due at `now` in `timezone`: on a Monday from 09:00 to the end
 * of the day, the week before. Undefined at any other time: a Monday missed entirely (the service was down) is
 * not caught up on Tuesday.
 */
export function dueDigestWeek(now: Date, timezone: string): string | undefined {
  const local = DateTime.fromJSDate(now, { zone: timezone });
  if (local.weekday !== 1 || local.hour < DIGEST_HOUR) return undefined;
  return local.minus({ days: 7 }).toISODate() ?? undefined;
}

/** Whether it is Monday 09:00–24:00 anywhere on Earth (UTC−12 to UTC+14): most of the week nothing is read. */
export function mondaySomewhere(now: Date): boolean {
  for (let minutes = -12 * 60; minutes <= 14 * 60; minutes += 15) {
    const local = new Date(now.getTime() + minutes * 60_000);
    if (local.getUTCDay() === 1 && local.getUTCHours() >= DIGEST_HOUR) return true;
  }
  return false;
}

export interface DigestTickResult {
  claimed: { teamId: string; weekStart: string; recipients: number }[];
}

/**
 * One pass: every installed workspace whose Monday 09:00 has come and whose digest of last week is not claimed yet
 * gets it claimed (one row per workspace and week, then one per recipient, each under its unique key) and a job
 * per recipient, in one transaction; only the instance whose claim succeeds queues anything. Old digest claims of
 * the workspace are pruned in the same pass.
 */
export async function digestTick(deps: Deps): Promise<DigestTickResult> {
  const result: DigestTickResult = { claimed: [] };
  if (!deps.config.emailApiKey) return result;
  const now = deps.clock.now();
  if (!mondaySomewhere(now)) return result;
  const workspaces = await installedWorkspaces(deps.db);
  const zones = await workspaceTimezones(
    deps,
    workspaces.map((w) => w.team_id),
  );
  for (const w of workspaces) {
    const week = dueDigestWeek(now, zones.get(w.team_id) ?? "UTC");
    if (!week || (w.last_week !== null && w.last_week >= week)) continue;
    const recipients = await deps.db.transaction(async (tx) => {
      if (!(await claimDigestWeek(tx, w.team_id, week, now))) return undefined;
      const users = await claimDigestRecipients(tx, w.team_id, week, now);
      for (const userId of users) {
        await deps.queue.enqueue("email.send", { teamId: w.team_id, key: digestKey(week, userId) }, { tx });
      }
      await pruneDigests(tx, w.team_id, now);
      return users.length;
    });
    if (recipients !== undefined) result.claimed.push({ teamId: w.team_id, weekStart: week, recipients });
  }
  return result;
}

/** Runs `digestTick` every minute (just after the minute turns) until stopped; a failed pass is logged. */
export function startDigestScheduler(deps: Deps): StopTicker {
  return startTicker(deps.log, "digest check", DIGEST_TICK_MS, () => digestTick(deps));
}
