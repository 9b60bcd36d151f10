import { and, eq, sql } from "drizzle-orm";
import { type Executor, rows } from "../../db/client.ts";
import { dmQuestions, dmTurns, schedules } from "../../db/schema.ts";
import { askPostKeySql } from "./post-keys.ts";

/**
 * A member's part in a run is still going: still `asked` (not answered, skipped or away), the run open, and their own
 * window (member-timezone runs) not closed. `p` and `run` are the participant and run aliases of the query.
 */
export const stillAsked = (now: Date) =>
  sql`p.status = 'asked' and run.status = 'open' and coalesce(p.closes_at, run.closes_at) > ${now.toISOString()}::timestamptz`;

/**
 * The exactly-once claim of a member's DM conversation for a run: true when the run holds it now (it already did, or
 * the member had none, or the run holding it is over for them). The upsert locks the member's row, so of two runs
 * claiming at once only one gets it: the other's questions wait.
 */
export async function claimDmTurn(
  ex: Executor,
  teamId: string,
  userId: string,
  runId: number,
  now: Date,
): Promise<boolean> {
  const got = await rows<{ runId: unknown }>(
    ex,
    sql`insert into dm_turns (team_id, user_id, run_id, updated_at)
        values (${teamId}, ${userId}, ${runId}, ${now.toISOString()}::timestamptz)
        on conflict (team_id, user_id) do update set run_id = excluded.run_id, updated_at = excluded.updated_at
        where dm_turns.run_id = excluded.run_id or not exists (
          select 1 from run_participants p join standup_runs run on run.id = p.run_id
          where p.run_id = dm_turns.run_id and p.user_id = dm_turns.user_id and ${stillAsked(now)})
        returning run_id as "runId"`,
  );
  return got.length > 0;
}

/** The run holding the member's DM conversation, if any (whether or not it is over for them). */
export async function dmTurnHolder(ex: Executor, teamId: string, userId: string): Promise<number | undefined> {
  const [row] = await ex
    .select({ runId: dmTurns.runId })
    .from(dmTurns)
    .where(and(eq(dmTurns.teamId, teamId), eq(dmTurns.userId, userId)));
  return row ? Number(row.runId) : undefined;
}

/** Whether another run holds the member's DM conversation and is still going for them (their questions wait). */
export async function dmTurnHeldByOther(
  ex: Executor,
  teamId: string,
  userId: string,
  runId: number,
  now: Date,
): Promise<boolean> {
  const found = await rows(
    ex,
    sql`select 1 from dm_turns t
        join run_participants p on p.run_id = t.run_id and p.user_id = t.user_id
        join standup_runs run on run.id = p.run_id
        where t.team_id = ${teamId} and t.user_id = ${userId} and t.run_id <> ${runId} and ${stillAsked(now)}`,
  );
  return found.length > 0;
}

export interface DmQuestionKey {
  teamId: string;
  runId: number;
  userId: string;
  index: number;
}

/**
 * Claims the first question of a run in a member's DM for the message `postKey` (the ask DM, or the hand-over
 * message): the key that asks it, whichever claimed it first.
 */
export async function claimFirstQuestion(
  ex: Executor,
  q: Omit<DmQuestionKey, "index">,
  /** Null: only read who claimed it. */
  postKey: string | null,
  now: Date,
): Promise<{ postKey: string | null; ts: string | null }> {
  if (postKey) {
    await ex
      .insert(dmQuestions)
      .values({ ...q, questionIndex: 0, postKey, createdAt: now })
      .onConflictDoNothing();
  }
  const [row] = await ex
    .select({ postKey: dmQuestions.postKey, ts: dmQuestions.ts })
    .from(dmQuestions)
    .where(and(eq(dmQuestions.runId, q.runId), eq(dmQuestions.userId, q.userId), eq(dmQuestions.questionIndex, 0)));
  return row ?? { postKey: null, ts: null };
}

/** The Slack ts of a question's message, once posted (a question posted again keeps the later one). */
export async function recordQuestionTs(ex: Executor, q: DmQuestionKey, ts: string, now: Date): Promise<void> {
  await ex
    .insert(dmQuestions)
    .values({ teamId: q.teamId, runId: q.runId, userId: q.userId, questionIndex: q.index, ts, createdAt: now })
    .onConflictDoUpdate({
      target: [dmQuestions.runId, dmQuestions.userId, dmQuestions.questionIndex],
      set: { ts },
    });
}

const SLACK_TS = /^\d{1,12}\.\d{1,9}$/;

/**
 * The run whose question came last before a DM message (by Slack ts: the order the member saw them in). A ts that is
 * not Slack's, or earlier than every question (clocks that disagree), gets the member's latest question.
 */
export async function runOfLastQuestion(
  ex: Executor,
  teamId: string,
  userId: string,
  messageTs: string,
): Promise<number | undefined> {
  const before = SLACK_TS.test(messageTs) ? sql`and ts::numeric < ${messageTs}::numeric` : sql``;
  const latest = (bound: ReturnType<typeof sql>) =>
    rows<{ runId: unknown }>(
      ex,
      sql`select run_id as "runId" from dm_questions
          where team_id = ${teamId} and user_id = ${userId} and ts is not null ${bound}
          order by ts::numeric desc limit 1`,
    );
  const [row] = await latest(before);
  const [any] = row ? [row] : await latest(sql``);
  return any ? Number(any.runId) : undefined;
}

/**
 * The member's next run waiting for its DM conversation, oldest first: open and still asked for them, its ask gone
 * out (it may have reached them), and its first question not asked in the DM yet (nor claimed by its own ask DM).
 */
export async function nextWaitingRun(
  ex: Executor,
  teamId: string,
  userId: string,
  now: Date,
): Promise<number | undefined> {
  const [row] = await rows<{ runId: unknown }>(
    ex,
    sql`select p.run_id as "runId" from run_participants p join standup_runs run on run.id = p.run_id
        where p.team_id = ${teamId} and p.user_id = ${userId} and ${stillAsked(now)}
          and exists (select 1 from chat_posts c
                      where c.key = ${askPostKeySql(sql`p.run_id`, sql`p.user_id`)} and c.state <> 'failed')
          and not exists (select 1 from dm_questions q
                          where q.run_id = p.run_id and q.user_id = p.user_id and q.question_index = 0
                            and (q.ts is not null or q.post_key = ${askPostKeySql(sql`p.run_id`, sql`p.user_id`)}))
        order by run.starts_at, p.run_id
        limit 1`,
  );
  return row ? Number(row.runId) : undefined;
}

/** Whether the member is still asked in an open run other than `runId`: then messages say which standup they are for. */
export async function hasOtherOpenAsk(
  ex: Executor,
  teamId: string,
  userId: string,
  runId: number,
  now: Date,
): Promise<boolean> {
  const found = await rows(
    ex,
    sql`select 1 from run_participants p join standup_runs run on run.id = p.run_id
        where p.team_id = ${teamId} and p.user_id = ${userId} and p.run_id <> ${runId} and ${stillAsked(now)}
        limit 1`,
  );
  return found.length > 0;
}

/**
 * Members whose DM conversation this closing run holds and who still have another run waiting: the close hands
 * their DM over to it.
 */
export async function turnHoldersWithWaitingRuns(ex: Executor, teamId: string, runId: number): Promise<string[]> {
  const found = await rows<{ userId: string }>(
    ex,
    sql`select t.user_id as "userId" from dm_turns t
        where t.team_id = ${teamId} and t.run_id = ${runId}
          and exists (select 1 from run_participants p join standup_runs run on run.id = p.run_id
                      where p.team_id = t.team_id and p.user_id = t.user_id and p.run_id <> t.run_id
                        and p.status = 'asked' and run.status = 'open')`,
  );
  return found.map((r) => r.userId);
}

/**
 * Claims the hand-over of members whose DM conversation is held by a run whose own window for them has closed
 * (member-timezone runs: run_participants.closes_at) while that run stays open for others, and who have a run waiting
 * for it (its first question reserved for the hand-over message, not asked yet). Once per window: the claim moves
 * dm_turns.updated_at past the window's close, and of two instances claiming at once the second finds it moved.
 * Driven by the few unasked first questions (partial index dm_questions_unasked_idx); at most `limit` per call.
 */
export async function claimTurnsOfClosedWindows(
  ex: Executor,
  now: Date,
  limit: number,
): Promise<{ teamId: string; userId: string }[]> {
  const at = sql`${now.toISOString()}::timestamptz`;
  return rows<{ teamId: string; userId: string }>(
    ex,
    sql`update dm_turns t set updated_at = ${at}
        from (select distinct h.team_id, h.user_id, h.run_id, h.closes_at
              from dm_questions w
              join run_participants wp on wp.run_id = w.run_id and wp.user_id = w.user_id
              join standup_runs wr on wr.id = wp.run_id
              join dm_turns ht on ht.team_id = w.team_id and ht.user_id = w.user_id and ht.run_id <> w.run_id
              join run_participants h on h.run_id = ht.run_id and h.user_id = ht.user_id
              join standup_runs hr on hr.id = h.run_id
              where w.ts is null and w.question_index = 0
                and wp.status = 'asked' and wr.status = 'open' and coalesce(wp.closes_at, wr.closes_at) > ${at}
                and h.status = 'asked' and hr.status = 'open' and h.closes_at <= ${at} and ht.updated_at < h.closes_at
              limit ${limit}) due
        where t.team_id = due.team_id and t.user_id = due.user_id and t.run_id = due.run_id
          and t.updated_at < due.closes_at
        returning t.team_id as "teamId", t.user_id as "userId"`,
  );
}

/**
 * Questions of the schedule's earlier runs that have ended: a closed run's questions are kept until the schedule's next
 * close, so an answer sent just after a close is still told the run closed rather than taken for another run's.
 */
export async function forgetEarlierQuestions(ex: Executor, scheduleId: string, runId: number): Promise<void> {
  await ex.execute(
    sql`delete from dm_questions q using standup_runs run
        where q.run_id = run.id and run.schedule_id = ${scheduleId} and run.id <> ${runId} and run.status <> 'open'`,
  );
}

/** The schedule's own name ("" when it has none: it is then called after its channel). */
export async function scheduleName(ex: Executor, teamId: string, scheduleId: string): Promise<string> {
  const [row] = await ex
    .select({ name: schedules.name })
    .from(schedules)
    .where(and(eq(schedules.teamId, teamId), eq(schedules.id, scheduleId)));
  return row?.name ?? "";
}
