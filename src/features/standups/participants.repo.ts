import { and, desc, eq, gt, inArray, isNotNull, isNull, or, sql } from "drizzle-orm";
import { pgArray } from "../../db/arrays.ts";
import { type Executor, rows } from "../../db/client.ts";
import { runParticipants, standupRuns } from "../../db/schema.ts";
import { askPostKeySql, standupPostKeys } from "./post-keys.ts";
import type { RunRow } from "./runs.repo.ts";

export type ParticipantRow = typeof runParticipants.$inferSelect;

/**
 * Inserts the participants not yet in the run, those in `away` (on time off on the run's date) as `away`; returns
 * only the `asked` ones this call added (the claim).
 */
export async function addParticipants(
  ex: Executor,
  run: RunRow,
  userIds: string[],
  now: Date,
  away: ReadonlySet<string> = new Set(),
): Promise<string[]> {
  if (userIds.length === 0) return [];
  // One array per column (not a row of parameters per person): any channel size fits in one statement.
  const inserted = await rows<{ user_id: string; status: string }>(
    ex,
    sql`insert into run_participants (run_id, user_id, team_id, status, created_at)
        select ${run.id}::bigint, u.user_id, ${run.teamId}::text,
               case when u.user_id = any(${pgArray("text", [...away])}) then 'away' else 'asked' end,
               ${now.toISOString()}::timestamptz
        from unnest(${pgArray("text", userIds)}) with ordinality as u(user_id, n)
        order by u.n
        on conflict do nothing
        returning user_id, status`,
  );
  return inserted.filter((r) => r.status === "asked").map((r) => r.user_id);
}

/** A member-timezone participant as planned at fan-out: their own ask, reminder and window on the run's date. */
export interface PlannedParticipant {
  userId: string;
  askAt: Date;
  remindAt: Date | null;
  closesAt: Date;
}

/**
 * Plans the participants not yet in the run as `pending` (those in `away`, on time off on the run's date, as
 * `away`: the time-off subscriber brings them back if that changes before their ask); returns how many this call
 * added.
 */
export async function addPendingParticipants(
  ex: Executor,
  run: RunRow,
  planned: PlannedParticipant[],
  now: Date,
  away: ReadonlySet<string> = new Set(),
): Promise<number> {
  if (planned.length === 0) return 0;
  const inserted = await rows<{ user_id: string }>(
    ex,
    sql`insert into run_participants (run_id, user_id, team_id, status, ask_at, remind_at, closes_at, local_date,
                                      created_at)
        select ${run.id}::bigint, p.user_id, ${run.teamId}::text,
               case when p.user_id = any(${pgArray("text", [...away])}) then 'away' else 'pending' end,
               p.ask_at, p.remind_at, p.closes_at, ${run.localDate}::date, ${now.toISOString()}::timestamptz
        from unnest(${pgArray(
          "text",
          planned.map((p) => p.userId),
        )}, ${pgArray(
          "timestamptz",
          planned.map((p) => p.askAt),
        )},
                    ${pgArray(
                      "timestamptz",
                      planned.map((p) => p.remindAt),
                    )},
                    ${pgArray(
                      "timestamptz",
                      planned.map((p) => p.closesAt),
                    )})
          with ordinality as p(user_id, ask_at, remind_at, closes_at, n)
        order by p.n
        on conflict do nothing
        returning user_id`,
  );
  return inserted.length;
}

export interface DueParticipant {
  runId: number;
  userId: string;
  teamId: string;
}

/**
 * The exactly-once claim of member-timezone asks: `pending` → `asked` in one statement for asks whose time
 * has come and that are less than the catch-up window late. An ask is dropped (stays pending) when the
 * schedule is paused or deleted, the workspace uninstalled the app, or its timing changed at or after the ask's
 * time (a resume or a reinstall counts): no surprise DMs. A date
 * already planned keeps its plan when the timing changes before an ask: that member is still asked at the
 * planned time (the new timing applies from the next date), rather than not at all that day.
 * The schedule's row is read here because its current state decides whether a planned ask still stands.
 */
export async function claimDueAsks(ex: Executor, now: Date, notBefore: Date): Promise<DueParticipant[]> {
  return rows<DueParticipant>(
    ex,
    sql`update run_participants p set status = 'asked'
        from standup_runs run
        join schedules s on s.id = run.schedule_id
        where run.id = p.run_id and run.status = 'open'
          and p.status = 'pending'
          and p.ask_at <= ${now.toISOString()}::timestamptz and p.ask_at > ${notBefore.toISOString()}::timestamptz
          and s.active and s.deleted_at is null
          and exists (select 1 from installations i where i.team_id = run.team_id and i.uninstalled_at is null)
          and (s.timing_changed_at is null or s.timing_changed_at < p.ask_at)
        returning p.run_id::text as "runId", p.user_id as "userId", p.team_id as "teamId"`,
  ).then(asNumbers);
}

/** run_id is a bigint: the `pg` driver reads it as a string, PGlite as a number; jobs carry a number. */
function asNumbers(found: DueParticipant[]): DueParticipant[] {
  return found.map((d) => ({ ...d, runId: Number(d.runId) }));
}

export async function findParticipant(
  ex: Executor,
  runId: number,
  userId: string,
): Promise<ParticipantRow | undefined> {
  const [row] = await ex
    .select()
    .from(runParticipants)
    .where(and(eq(runParticipants.runId, runId), eq(runParticipants.userId, userId)));
  return row;
}

/** The DM channel a person was last asked in, by any run of the workspace. */
export async function lastDmChannel(ex: Executor, teamId: string, userId: string): Promise<string | undefined> {
  const [row] = await ex
    .select({ dmChannel: runParticipants.dmChannel })
    .from(runParticipants)
    .where(
      and(eq(runParticipants.teamId, teamId), eq(runParticipants.userId, userId), isNotNull(runParticipants.dmChannel)),
    )
    .orderBy(desc(runParticipants.runId))
    .limit(1);
  return row?.dmChannel ?? undefined;
}

export async function updateParticipant(
  ex: Executor,
  runId: number,
  userId: string,
  set: Partial<Pick<ParticipantRow, "status" | "dmChannel" | "draft">>,
): Promise<void> {
  await ex
    .update(runParticipants)
    .set(set)
    .where(and(eq(runParticipants.runId, runId), eq(runParticipants.userId, userId)));
}

export async function participantsWithStatus(
  ex: Executor,
  runId: number,
  status: ParticipantRow["status"],
): Promise<string[]> {
  const found = await ex
    .select({ userId: runParticipants.userId })
    .from(runParticipants)
    .where(and(eq(runParticipants.runId, runId), eq(runParticipants.status, status)));
  return found.map((r) => r.userId);
}

export async function listParticipants(ex: Executor, runId: number): Promise<ParticipantRow[]> {
  return ex.select().from(runParticipants).where(eq(runParticipants.runId, runId));
}

/** The chat_posts key of a member's ask DM in a run. */
export const askPostKey = standupPostKeys.ask;

/**
 * The participant's ask may have reached them: its message claim exists and is not `failed` (sent, or sending or
 * unknown: perhaps posted). No claim, or a failed one, means the DM never went out.
 */
const askMayHaveGoneOut = sql`exists (select 1 from chat_posts c
  where c.key = ${askPostKeySql(runParticipants.runId, runParticipants.userId)} and c.state <> 'failed')`;

/**
 * A participant whose ask job ended because the run was stopped (paused, deleted, uninstalled) goes back to
 * `pending`, which every view, the reminders and the summary read as "not asked": only while still `asked` and its
 * ask never went out. True when it did.
 */
export async function unaskParticipant(ex: Executor, runId: number, userId: string): Promise<boolean> {
  const reset = await ex
    .update(runParticipants)
    .set({ status: "pending" })
    .where(
      and(
        eq(runParticipants.runId, runId),
        eq(runParticipants.userId, userId),
        eq(runParticipants.status, "asked"),
        sql`not ${askMayHaveGoneOut}`,
      ),
    )
    .returning({ userId: runParticipants.userId });
  return reset.length > 0;
}

/** Whether this `asked` participant's ask DM may have reached them (see askMayHaveGoneOut). */
export async function wasAsked(ex: Executor, runId: number, userId: string): Promise<boolean> {
  const found = await ex
    .select({ userId: runParticipants.userId })
    .from(runParticipants)
    .where(and(eq(runParticipants.runId, runId), eq(runParticipants.userId, userId), askMayHaveGoneOut));
  return found.length > 0;
}

/**
 * The participants a run actually asked: those who answered or skipped, and those still `asked` whose ask DM may
 * have reached them. Left out: `pending` ones, and `asked` ones whose ask never went out (its job gave up, or the
 * run closed before it was retried).
 */
export async function askedParticipants(ex: Executor, runId: number): Promise<ParticipantRow[]> {
  return ex
    .select()
    .from(runParticipants)
    .where(
      and(
        eq(runParticipants.runId, runId),
        or(
          inArray(runParticipants.status, ["answered", "skipped"]),
          and(eq(runParticipants.status, "asked"), askMayHaveGoneOut),
        ),
      ),
    );
}

/**
 * Open runs of a member, newest first: where a DM answer or `skip` belongs. A member-timezone participant's
 * part ends with their own window, though the run stays open for others.
 */
export async function openRunsOfMember(
  ex: Executor,
  teamId: string,
  userId: string,
  now: Date,
): Promise<(RunRow & { participantStatus: string })[]> {
  const found = await ex
    .select({ run: standupRuns, status: runParticipants.status })
    .from(runParticipants)
    .innerJoin(standupRuns, eq(standupRuns.id, runParticipants.runId))
    .where(
      and(
        eq(runParticipants.teamId, teamId),
        eq(runParticipants.userId, userId),
        eq(standupRuns.status, "open"),
        or(isNull(runParticipants.closesAt), gt(runParticipants.closesAt, now)),
      ),
    )
    .orderBy(sql`${standupRuns.startsAt} desc`);
  return found.map((f) => ({ ...f.run, participantStatus: f.status }));
}

/** What the ask job reads about one participant, in one statement (the ask is the fan-out's hot path). */
export interface AskContext {
  participant: ParticipantRow;
  /** They answered this run's date ahead (early_answers): the ask converts it instead of asking. */
  answeredAhead: boolean;
  /** Their open blocker item in this standup, for "Still blocked on …?" (only when the run has a blocker question). */
  openBlocker?: { id: number; text: string; openedDate: string };
}

/**
 * The participant row with whether they answered ahead and their open blocker, one indexed lookup each
 * (early_answers' key, blockers_open_uq) inside the one statement: the ask of 10,000 members costs no extra
 * round trips for them.
 */
export async function askContext(
  ex: Executor,
  run: { id: number; teamId: string; scheduleId: string; localDate: string; blockerQuestion: number | null },
  userId: string,
): Promise<AskContext | undefined> {
  const [row] = await ex
    .select({
      participant: runParticipants,
      answeredAhead: sql<boolean>`exists (select 1 from early_answers e
        where e.team_id = ${run.teamId} and e.schedule_id = ${run.scheduleId} and e.user_id = ${userId}
          and e.local_date = ${run.localDate}::date)`,
      blocker: sql<
        string | null
      >`(select json_build_object('id', b.id, 'text', b.text, 'openedDate', b.opened_date::text)::text
        from blockers b
        where ${run.blockerQuestion !== null} and b.team_id = ${run.teamId} and b.schedule_id = ${run.scheduleId}
          and b.user_id = ${userId} and b.status = 'open')`,
    })
    .from(runParticipants)
    .where(and(eq(runParticipants.runId, run.id), eq(runParticipants.userId, userId)));
  if (!row) return undefined;
  const blocker = row.blocker
    ? (JSON.parse(row.blocker) as { id: number; text: string; openedDate: string })
    : undefined;
  return {
    participant: row.participant,
    answeredAhead: row.answeredAhead === true,
    ...(blocker ? { openBlocker: { ...blocker, id: Number(blocker.id) } } : {}),
  };
}
