import { sql } from "drizzle-orm";
import { pgArray } from "../../db/arrays.ts";
import { type Executor, rows } from "../../db/client.ts";
import type { PostState } from "../../db/schema.ts";
import { awayOnSql } from "../time-off/index.ts";
import { stillAsked } from "./dm-conversation.repo.ts";
import { askPostKeySql } from "./post-keys.ts";
import type { RunRow } from "./runs.repo.ts";

/**
 * The statements of a batch of asks (ask-batch.ts): each one does for a whole chunk of a run's participants what the
 * single ask (standups.jobs.ts) does for one, so a fan-out of 10,000 DMs costs a few statements per 25 DMs instead of
 * a dozen per DM. Whatever is not the plain case is left to the single ask, so these only need the plain case right.
 */

/** What the batch knows of one participant before asking them. */
export interface BatchMember {
  userId: string;
  status: string;
  /** Went on time off on the run's date: marked `away` by this read (the single ask's awayInRun). */
  away: boolean;
  /** Their DM channel: this run's, else the one an earlier run of the workspace used (null: none known). */
  channel: string | null;
  /** The channel came from an earlier run: this run's row does not have it yet. */
  channelReused: boolean;
  askedAt: Date | null;
  closesAt: Date | null;
  remindAt: Date | null;
  askAt: Date | null;
  answeredAhead: boolean;
  openBlocker?: { id: number; text: string; openedDate: string };
  /** The ask's chat_posts claim or its first-question row exists: an earlier attempt got that far. */
  started: boolean;
  /** Still asked in another open run: the DM-conversation turn logic decides (the single ask). */
  otherOpenAsk: boolean;
}

const asDate = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string));

/**
 * One statement for the chunk: marks those on time off `away` (only pending or asked ones) and reads what each ask
 * needs: the participant, their DM channel (or an earlier run's), whether they answered ahead, their open blocker,
 * whether an earlier attempt already started their ask, and whether another open run asks them too.
 */
export async function readBatch(ex: Executor, run: RunRow, userIds: string[], now: Date): Promise<BatchMember[]> {
  const users = pgArray("text", userIds);
  const found = await rows<Record<string, unknown>>(
    ex,
    sql`with gone as (
          update run_participants p set status = 'away'
          where p.run_id = ${run.id} and p.user_id = any(${users}) and p.status in ('pending', 'asked')
            and ${awayOnSql(sql`${run.teamId}`, sql`p.user_id`, sql`${run.localDate}::date`)}
          returning p.user_id)
        select me.user_id, me.status, me.user_id in (select user_id from gone) as away,
          me.dm_channel,
          (select e.dm_channel from run_participants e
            where me.dm_channel is null and e.team_id = me.team_id and e.user_id = me.user_id
              and e.dm_channel is not null
            order by e.run_id desc limit 1) as earlier_channel,
          me.asked_at, me.closes_at, me.remind_at, me.ask_at,
          exists (select 1 from early_answers e
            where e.team_id = ${run.teamId} and e.schedule_id = ${run.scheduleId} and e.user_id = me.user_id
              and e.local_date = ${run.localDate}::date) as ahead,
          (select json_build_object('id', b.id, 'text', b.text, 'openedDate', b.opened_date::text)::text
            from blockers b
            where ${run.blockerQuestion !== null} and b.team_id = ${run.teamId} and b.schedule_id = ${run.scheduleId}
              and b.user_id = me.user_id and b.status = 'open') as blocker,
          (exists (select 1 from chat_posts c where c.key = ${askPostKeySql(sql`me.run_id`, sql`me.user_id`)})
            or exists (select 1 from dm_questions q
                       where q.run_id = me.run_id and q.user_id = me.user_id and q.question_index = 0)) as started,
          exists (select 1 from run_participants p join standup_runs run on run.id = p.run_id
            where p.team_id = me.team_id and p.user_id = me.user_id and p.run_id <> me.run_id
              and ${stillAsked(now)}) as other
        from run_participants me
        where me.run_id = ${run.id} and me.user_id = any(${users})`,
  );
  return found.map((r) => {
    const blocker = r.blocker
      ? (JSON.parse(String(r.blocker)) as { id: number; text: string; openedDate: string })
      : undefined;
    const own = (r.dm_channel as string | null) ?? null;
    const earlier = (r.earlier_channel as string | null) ?? null;
    return {
      userId: String(r.user_id),
      status: String(r.away === true || r.away === "t" ? "away" : r.status),
      away: r.away === true || r.away === "t",
      channel: own ?? earlier,
      channelReused: own === null && earlier !== null,
      askedAt: asDate(r.asked_at),
      closesAt: asDate(r.closes_at),
      remindAt: asDate(r.remind_at),
      askAt: asDate(r.ask_at),
      answeredAhead: r.ahead === true || r.ahead === "t",
      ...(blocker ? { openBlocker: { ...blocker, id: Number(blocker.id) } } : {}),
      started: r.started === true || r.started === "t",
      otherOpenAsk: r.other === true || r.other === "t",
    };
  });
}

/**
 * The chunk's claims, one statement: each member's DM conversation turn (as claimDmTurn: the member's row is taken
 * only when no other run still asks them), the run's first question for the ask DM (claimFirstQuestion), the ask's
 * chat_posts claim (postOnce's insert: state `sending`, attempt 1), and the DM channel reused from an earlier run.
 * Returns the ask keys claimed now, and the members no longer waiting for their ask (`gone`: nothing is done for
 * them). A member in neither lost a race somewhere and goes to the single ask.
 */
export async function claimBatch(
  ex: Executor,
  run: RunRow,
  members: { userId: string; channel: string }[],
  now: Date,
): Promise<{ claimed: Set<string>; gone: Set<string> }> {
  if (members.length === 0) return { claimed: new Set(), gone: new Set() };
  // In user_id order: two chunks of overlapping runs take their members' dm_turns rows in the same order, so they
  // wait for each other instead of deadlocking.
  members = [...members].sort((a, b) => (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0));
  const at = sql`${now.toISOString()}::timestamptz`;
  const key = (userId: ReturnType<typeof sql>) => askPostKeySql(sql`${run.id}::bigint`, userId);
  const claimed = await rows<{ key: string | null; gone: string | null }>(
    ex,
    sql`with given as (
          select * from unnest(${pgArray(
            "text",
            members.map((m) => m.userId),
          )}, ${pgArray(
            "text",
            members.map((m) => m.channel),
          )}) as i(user_id, channel)),
        -- Only members still waiting for their ask: one who went on time off, answered, was skipped or erased since
        -- readBatch gets no claim, no row and no DM (returned as gone).
        input as (
          select i.* from given i
          where exists (select 1 from run_participants p
            where p.run_id = ${run.id} and p.user_id = i.user_id and p.status = 'asked' and p.asked_at is null)),
        turns as (
          insert into dm_turns (team_id, user_id, run_id, updated_at)
          select ${run.teamId}::text, i.user_id, ${run.id}::bigint, ${at} from input i
          on conflict (team_id, user_id) do update set run_id = excluded.run_id, updated_at = excluded.updated_at
          where dm_turns.run_id = excluded.run_id or not exists (
            select 1 from run_participants p join standup_runs run on run.id = p.run_id
            where p.run_id = dm_turns.run_id and p.user_id = dm_turns.user_id and ${stillAsked(now)})
          returning user_id),
        firsts as (
          insert into dm_questions (team_id, run_id, user_id, question_index, post_key, created_at)
          select ${run.teamId}::text, ${run.id}::bigint, t.user_id, 0, ${key(sql`t.user_id`)}, ${at} from turns t
          on conflict do nothing
          returning user_id),
        channels as (
          update run_participants p set dm_channel = i.channel from input i
          where p.run_id = ${run.id} and p.user_id = i.user_id and p.dm_channel is null),
        posts as (
          insert into chat_posts (key, team_id, channel, state, attempts, updated_at)
          select ${key(sql`f.user_id`)}, ${run.teamId}::text, i.channel, 'sending', 1, now()
          from firsts f join input i on i.user_id = f.user_id
          on conflict do nothing
          returning key)
        select key, null as gone from posts
        union all
        select null, g.user_id from given g where not exists (select 1 from input i where i.user_id = g.user_id)`,
  );
  return {
    claimed: new Set(claimed.flatMap((r) => (r.key ? [r.key] : []))),
    gone: new Set(claimed.flatMap((r) => (r.gone ? [r.gone] : []))),
  };
}

/** An ask DM the batch posted: its key, Slack ts, when it went out and the reminder counted from then. */
export interface SentAsk {
  key: string;
  userId: string;
  ts: string;
  at: Date;
  remindAt: Date | null;
}

/**
 * The chunk's outcomes, one statement: each sent ask's claim `sent` with its ts (postOnce's setState, only while the
 * claim is still ours), its first question's ts (askedFirstQuestion) and the participant's asked_at and reminder
 * (markAsked, only the first time); each claim that did not get through `failed` (nothing was posted: Slack said no,
 * or the run stopped) or `unknown` (a timeout: perhaps posted). Returns the sent keys whose claim was still ours.
 */
export async function recordBatch(
  ex: Executor,
  run: RunRow,
  sent: SentAsk[],
  unsent: { key: string; state: Extract<PostState, "failed" | "unknown"> }[],
): Promise<Set<string>> {
  if (sent.length === 0 && unsent.length === 0) return new Set();
  const kept = await rows<{ key: string }>(
    ex,
    sql`with s as (
          select * from unnest(${pgArray(
            "text",
            sent.map((x) => x.key),
          )}, ${pgArray(
            "text",
            sent.map((x) => x.userId),
          )}, ${pgArray(
            "text",
            sent.map((x) => x.ts),
          )}, ${pgArray(
            "timestamptz",
            sent.map((x) => x.at),
          )}, ${pgArray(
            "timestamptz",
            sent.map((x) => x.remindAt),
          )}) as s(key, user_id, ts, at, remind_at)),
        f as (
          select * from unnest(${pgArray(
            "text",
            unsent.map((x) => x.key),
          )}, ${pgArray(
            "text",
            unsent.map((x) => x.state),
          )}) as f(key, state)),
        failed as (
          update chat_posts c set state = f.state, updated_at = now() from f
          where c.key = f.key and c.attempts = 1 and c.state = 'sending'),
        questions as (
          update dm_questions q set ts = s.ts from s
          where q.run_id = ${run.id} and q.user_id = s.user_id and q.question_index = 0),
        asked as (
          update run_participants p set asked_at = s.at, remind_at = s.remind_at from s
          where p.run_id = ${run.id} and p.user_id = s.user_id and p.asked_at is null)
        update chat_posts c set state = 'sent', ts = s.ts, updated_at = now() from s
        where c.key = s.key and c.attempts = 1 and c.state = 'sending'
        returning c.key`,
  );
  return new Set(kept.map((r) => r.key));
}

/** Keeps the chunk's unsent claims fresh (postOnce's touch); returns those still ours. */
export async function touchClaims(ex: Executor, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const kept = await rows<{ key: string }>(
    ex,
    sql`update chat_posts set updated_at = now()
        where key = any(${pgArray("text", keys)}) and attempts = 1 and state = 'sending'
        returning key`,
  );
  return new Set(kept.map((r) => r.key));
}

/**
 * The DM channels the chunk opened, one statement right after the opens: a member who then falls back to the single
 * ask (no post slot, a lost race) finds their channel there instead of opening it again.
 */
export async function storeChannels(ex: Executor, runId: number, channels: Map<string, string>): Promise<void> {
  if (channels.size === 0) return;
  await ex.execute(
    sql`update run_participants p set dm_channel = i.channel
        from unnest(${pgArray("text", [...channels.keys()])}, ${pgArray("text", [...channels.values()])})
          as i(user_id, channel)
        where p.run_id = ${runId} and p.user_id = i.user_id and p.dm_channel is null`,
  );
}
