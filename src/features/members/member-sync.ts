import { createHash } from "node:crypto";
import { DateTime } from "luxon";
import { InstallationGoneError } from "../../chat/chat-clients.ts";
import { slackErrorCode } from "../../chat/slack-errors.ts";
import type { Tx } from "../../db/client.ts";
import type { Deps } from "../../deps.ts";
import { type StopTicker, startTicker } from "../../jobs/ticker.ts";
import {
  findSyncState,
  lockSyncState,
  type MemberSyncRow,
  markSyncFinished,
  markSyncStarted,
  type SyncReason,
  setDailyDate,
  setQueued,
  workspacesWithoutDailySync,
} from "./member-sync.repo.ts";
import { syncMembers } from "./members.service.ts";

/** Every instance checks once a minute whose daily resync is due; the claim makes one of them queue it. */
export const MEMBER_SYNC_TICK_MS = 60_000;
/**
 * A sync queued or running longer than this is taken for lost (its job failed for good, its instance died and
 * pg-boss gave up): a new one may be queued. Retries of a failing sync stay well inside it.
 */
export const SYNC_STALE_MS = 6 * 3600_000;
const DAY_SECONDS = 86_400;

/**
 * When in the UTC day the workspace's daily resync is due, in seconds after midnight: a stable spread derived from
 * the team id, so a thousand workspaces do not all call Slack at the same minute.
 */
export function dailySyncOffsetSeconds(teamId: string): number {
  return createHash("sha256").update(teamId).digest().readUInt32BE(0) % DAY_SECONDS;
}

/** The UTC day (YYYY-MM-DD) of `now` and the instant the workspace's resync is due on it. */
export function dailySyncDue(teamId: string, now: Date): { day: string; due: Date } {
  const start = DateTime.fromJSDate(now, { zone: "utc" }).startOf("day");
  return { day: start.toISODate()!, due: start.plus({ seconds: dailySyncOffsetSeconds(teamId) }).toJSDate() };
}

function busy(row: MemberSyncRow, now: Date): boolean {
  if (row.state === "idle") return false;
  const since = (row.state === "running" ? row.startedAt : row.queuedAt) ?? row.queuedAt ?? row.startedAt;
  return since !== null && now.getTime() - since.getTime() < SYNC_STALE_MS;
}

export type QueueOutcome = "queued" | "already_queued" | "running";

/**
 * Queues a member sync inside the caller's transaction unless one is already queued or running (the workspace's
 * sync row is locked, so two callers at once queue one). Says what happened.
 */
export async function queueMemberSync(
  deps: Pick<Deps, "queue">,
  tx: Tx,
  teamId: string,
  reason: SyncReason,
  now: Date,
): Promise<QueueOutcome> {
  const row = await lockSyncState(tx, teamId);
  if (busy(row, now)) return row.state === "running" ? "running" : "already_queued";
  await setQueued(tx, teamId, reason, now);
  await deps.queue.enqueue("members.sync", { teamId }, { tx });
  return "queued";
}

/** "Sync now" from the dashboard. */
export async function requestMemberSync(
  deps: Pick<Deps, "db" | "queue" | "clock">,
  teamId: string,
): Promise<QueueOutcome> {
  return deps.db.transaction((tx) => queueMemberSync(deps, tx, teamId, "manual", deps.clock.now()));
}

/**
 * Claims the workspace's daily resync of `day` (one claim per workspace and UTC day, under its row lock, so with
 * several instances one queues it). A sync queued since the due time (the install's, an admin's "Sync now") or one
 * still under way counts as today's. True when this call queued it.
 */
export async function claimDailySync(
  deps: Pick<Deps, "db" | "queue">,
  teamId: string,
  day: string,
  due: Date,
  now: Date,
): Promise<boolean> {
  return deps.db.transaction(async (tx) => {
    const row = await lockSyncState(tx, teamId);
    if (row.dailyDate !== null && row.dailyDate >= day) return false;
    await setDailyDate(tx, teamId, day);
    if (busy(row, now) || (row.queuedAt !== null && row.queuedAt >= due)) return false;
    await setQueued(tx, teamId, "daily", now);
    await deps.queue.enqueue("members.sync", { teamId }, { tx });
    return true;
  });
}

/** One pass of the daily resync: every installed workspace whose time of day has come and whose day is unclaimed. */
export async function memberSyncTick(deps: Pick<Deps, "db" | "queue" | "clock">): Promise<{ queued: string[] }> {
  const now = deps.clock.now();
  const { day } = dailySyncDue("", now);
  const queued: string[] = [];
  for (const teamId of await workspacesWithoutDailySync(deps.db, day)) {
    const { due } = dailySyncDue(teamId, now);
    if (now < due) continue;
    if (await claimDailySync(deps, teamId, day, due, now)) queued.push(teamId);
  }
  return { queued };
}

/** Runs `memberSyncTick` every minute (just after the minute turns) until stopped; a failed pass is logged. */
export function startMemberSyncScheduler(deps: Deps): StopTicker {
  return startTicker(deps.log, "member sync check", MEMBER_SYNC_TICK_MS, () => memberSyncTick(deps));
}

/** What an admin reads about a failure: Slack's error code, or that Slack could not be reached. Nothing personal. */
function describeFailure(err: unknown): string {
  const code = slackErrorCode(err);
  if (code) return `Slack refused the member list: ${code}`;
  if (err instanceof InstallationGoneError) return "Upbeat is not installed in this workspace";
  return "Slack could not be reached, or kept answering that Upbeat is sending too many requests";
}

/**
 * The members.sync job: records the start, syncs, records the end with its counts. Slack refusing (an error code:
 * a missing scope, a revoked token) ends it at once; anything else (network, rate limit past the web client's own
 * waiting) is retried by the queue, and the row says a retry is queued until the last attempt.
 */
export async function runMemberSync(
  deps: Deps,
  teamId: string,
  job: { retryCount: number } = { retryCount: 0 },
): Promise<void> {
  await markSyncStarted(deps.db, teamId, deps.clock.now());
  try {
    const counts = await syncMembers(deps, teamId);
    await markSyncFinished(deps.db, teamId, {
      now: deps.clock.now(),
      outcome: "ok",
      error: null,
      counts,
      retrying: false,
    });
    deps.log.info({ team_id: teamId, job: "members.sync", ...counts }, "members synced");
  } catch (err) {
    const final =
      err instanceof InstallationGoneError ||
      slackErrorCode(err) !== undefined ||
      job.retryCount >= deps.queue.settings.retryLimit;
    await markSyncFinished(deps.db, teamId, {
      now: deps.clock.now(),
      outcome: "failed",
      error: describeFailure(err),
      retrying: !final,
    });
    if (final) {
      if (!(err instanceof InstallationGoneError)) {
        deps.log.warn({ team_id: teamId, job: "members.sync", err: slackErrorCode(err) }, "member sync refused");
      }
      return;
    }
    throw err;
  }
}

export interface MemberSyncStatus {
  state: "idle" | "queued" | "running";
  reason: SyncReason | null;
  queued_at: string | null;
  started_at: string | null;
  finished_at: string | null;
  outcome: "ok" | "failed" | null;
  error: string | null;
  listed: number | null;
  added: number | null;
  deactivated: number | null;
  reactivated: number | null;
  next_daily_at: string;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The workspace's sync as the dashboard shows it; a workspace never synced reads idle with nulls. */
export async function memberSyncStatus(deps: Pick<Deps, "db" | "clock">, teamId: string): Promise<MemberSyncStatus> {
  const now = deps.clock.now();
  const row = await findSyncState(deps.db, teamId);
  const today = dailySyncDue(teamId, now);
  // Today's time when today's is still to come (or due at the next check), else tomorrow's.
  const nextDaily =
    row?.dailyDate && row.dailyDate >= today.day
      ? dailySyncDue(teamId, DateTime.fromJSDate(now, { zone: "utc" }).plus({ days: 1 }).toJSDate()).due
      : new Date(Math.max(today.due.getTime(), now.getTime()));
  const state = row && busy(row, now) ? row.state : "idle";
  return {
    state,
    reason: row?.reason ?? null,
    queued_at: iso(row?.queuedAt ?? null),
    started_at: iso(row?.startedAt ?? null),
    finished_at: iso(row?.finishedAt ?? null),
    outcome: row?.outcome ?? null,
    error: row?.error ?? null,
    listed: row?.listed ?? null,
    added: row?.added ?? null,
    deactivated: row?.deactivated ?? null,
    reactivated: row?.reactivated ?? null,
    next_daily_at: nextDaily.toISOString(),
  };
}
