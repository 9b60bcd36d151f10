import { and, eq, isNull, sql } from "drizzle-orm";
import { pgArray } from "../../db/arrays.ts";
import { type Executor, rows } from "../../db/client.ts";
import { runParticipants, standupRuns } from "../../db/schema.ts";
import type { DueParticipant, ParticipantRow } from "./participants.repo.ts";
import { reminderAfterAsk } from "./run-rules.ts";
import type { RunRow } from "./runs.repo.ts";

/**
 * The schedule's reminder delay as the run carries it: for a whole run its planned reminder after its start, for a
 * member-timezone participant their planned reminder after their planned ask. Null: the schedule has no reminder.
 */
function reminderDelayMs(run: RunRow, p: Pick<ParticipantRow, "remindAt" | "askAt">): number | null {
  if (run.memberTimezone) return p.remindAt && p.askAt ? p.remindAt.getTime() - p.askAt.getTime() : null;
  return run.remindAt ? run.remindAt.getTime() - run.startsAt.getTime() : null;
}

/** The participant's reminder time when their ask DM went out at `askedAt` (run-rules.ts, reminderAfterAsk). */
export function remindAtAfterAsk(
  run: RunRow,
  p: Pick<ParticipantRow, "remindAt" | "askAt" | "closesAt">,
  askedAt: Date,
): Date | null {
  return reminderAfterAsk(askedAt, reminderDelayMs(run, p), p.closesAt ?? run.closesAt);
}

/**
 * Records that the participant's ask DM went out now, and sets their reminder from that moment (run-rules.ts,
 * reminderAfterAsk). Only the first time: a retried ask job keeps the time the member was first asked.
 */
export async function markAsked(ex: Executor, run: RunRow, p: ParticipantRow, now: Date): Promise<void> {
  if (p.askedAt) return;
  const remindAt = remindAtAfterAsk(run, p, now);
  await ex
    .update(runParticipants)
    .set({ askedAt: now, remindAt })
    .where(
      and(eq(runParticipants.runId, run.id), eq(runParticipants.userId, p.userId), isNull(runParticipants.askedAt)),
    );
}

/**
 * The exactly-once claim of reminders, whole-run and member-timezone alike: `reminded_at` is set in one statement for
 * asked participants whose own reminder time has come while their window (or the run) is still open. A participant
 * whose ask has not gone out yet has no `asked_at` (and no reminder time of their own): never reminded before it.
 */
export async function claimDueReminders(ex: Executor, now: Date, notBefore: Date): Promise<DueParticipant[]> {
  const found = await rows<DueParticipant>(
    ex,
    sql`update run_participants p set reminded_at = ${now.toISOString()}::timestamptz
        from standup_runs run
        where run.id = p.run_id and run.status = 'open'
          and p.status = 'asked' and p.reminded_at is null and p.asked_at is not null
          and p.remind_at <= ${now.toISOString()}::timestamptz and p.remind_at > ${notBefore.toISOString()}::timestamptz
          and coalesce(p.closes_at, run.closes_at) > ${now.toISOString()}::timestamptz
        returning p.run_id::text as "runId", p.user_id as "userId", p.team_id as "teamId"`,
  );
  // run_id is a bigint: the `pg` driver reads it as a string, PGlite as a number; jobs carry a number.
  return found.map((d) => ({ ...d, runId: Number(d.runId) }));
}

/** The run's `reminded_at` (history, export): when its first reminders went out. */
export async function markRunsReminded(ex: Executor, runIds: number[], now: Date): Promise<void> {
  if (runIds.length === 0) return;
  await ex
    .update(standupRuns)
    .set({ remindedAt: now })
    .where(and(sql`${standupRuns.id} = any(${pgArray("int8", runIds)})`, isNull(standupRuns.remindedAt)));
}
