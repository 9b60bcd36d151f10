import { sql } from "drizzle-orm";
import { InstallationGoneError } from "../../chat/chat-clients.ts";
import { installedTeamIds } from "../../chat/installations.repo.ts";
import { tokenRefused } from "../../chat/slack-errors.ts";
import { rows } from "../../db/client.ts";
import type { Deps } from "../../deps.ts";
import { type StopTicker, startTicker } from "../../jobs/ticker.ts";

declare module "../../jobs/queue.ts" {
  interface JobPayloads {
    /** One workspace's auth.test of the day's token check (claimed in token_check_runs before it is queued). */
    "install.token-check": { teamId: string };
  }
}

/**
 * A token Slack stopped accepting without telling us (no `tokens_revoked` event arrived, or it was lost) is otherwise
 * found only when a standup is due. Once a day every installed workspace's token is tried with auth.test (tier 4);
 * a refusal marks the installation through the same hook as any other call (ChatClients.tokenRefused).
 */
export const TOKEN_CHECK_UTC_HOUR = 4;
/** How often each instance checks whether today's pass is due and unclaimed. */
export const TOKEN_CHECK_TICK_MS = 3600_000;
/** The claims of past days are kept this long (to look into a pass), then deleted by the next claim. */
export const TOKEN_CHECK_RETENTION_DAYS = 30;

/** The UTC day whose pass is due at `now`, or undefined before TOKEN_CHECK_UTC_HOUR. */
export function tokenCheckDue(now: Date): string | undefined {
  return now.getUTCHours() >= TOKEN_CHECK_UTC_HOUR ? now.toISOString().slice(0, 10) : undefined;
}

/**
 * Claims today's pass (a row under the day's unique key, so of several instances one claims it) and queues one job
 * per installed workspace in the same transaction. True when this call claimed it.
 */
export async function tokenCheckTick(deps: Pick<Deps, "db" | "queue" | "clock">): Promise<boolean> {
  const now = deps.clock.now();
  const day = tokenCheckDue(now);
  if (!day) return false;
  return deps.db.transaction(async (tx) => {
    const teams = await installedTeamIds(tx);
    const claimed = await rows<{ day: string }>(
      tx,
      sql`insert into token_check_runs (day, claimed_at, workspaces) values (${day}, ${now.toISOString()}, ${teams.length})
          on conflict (day) do nothing returning day`,
    );
    if (claimed.length === 0) return false;
    const before = new Date(now.getTime() - TOKEN_CHECK_RETENTION_DAYS * 86_400_000).toISOString().slice(0, 10);
    await tx.execute(sql`delete from token_check_runs where day < ${before}::date`);
    await deps.queue.enqueueMany(
      "install.token-check",
      teams.map((teamId) => ({ teamId })),
      { tx },
    );
    return true;
  });
}

/** One workspace's check: a refused token is marked by the client's hook, and the job ends (nothing to retry). */
export async function checkToken(deps: Pick<Deps, "chat" | "log">, teamId: string): Promise<void> {
  try {
    const client = await deps.chat.forTeam(teamId, "read");
    await client.auth.test();
  } catch (err) {
    // Uninstalled since the pass was queued, or refused (marked now): either way nothing more to do.
    if (err instanceof InstallationGoneError) return;
    const code = tokenRefused(err);
    if (code === undefined) throw err;
    deps.log.info({ team_id: teamId, code, job: "install.token-check" }, "daily token check: Slack refused the token");
  }
}

export function tokenCheckJobs(deps: Deps): void {
  deps.queue.register("install.token-check", (p) => checkToken(deps, p.teamId), { concurrency: 2 });
}

/** Checks every hour (just after the hour turns) until stopped; a failed check is logged and the next one retries. */
export function startTokenCheckScheduler(deps: Deps): StopTicker {
  return startTicker(deps.log, "token check", TOKEN_CHECK_TICK_MS, () => tokenCheckTick(deps));
}
