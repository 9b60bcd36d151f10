import { setTimeout as sleep } from "node:timers/promises";
import { sql } from "drizzle-orm";
import { type Executor, rows } from "../db/client.ts";
import { RetryLaterError } from "../lib/retry-later.ts";

/**
 * Pacing of Slack Web API calls per workspace, shared by every instance: a token bucket per workspace and method in
 * `chat_rate_buckets`, taken with one atomic upsert (no read-modify-write in Node), so two instances posting for the
 * same workspace share one budget. A 429 to a method limited per workspace pauses the workspace's bucket until its
 * Retry-After, so every worker of every instance waits it out, not only the one that got it (RETRY_AFTER_HOLDS).
 *
 * The bucket is a GCRA (generic cell rate algorithm): `tat` is the time the bucket would be empty again; a take at
 * `now` may go at `max(now, tat - (burst - 1) × interval, paused_until)`. A take is granted (and the slot reserved)
 * when that is at most `maxWaitMs` away; otherwise nothing is reserved and the caller is told how long to wait.
 */
export interface BucketRule {
  /** Milliseconds per call at the sustained rate. */
  intervalMs: number;
  /** Calls that may go at once from a full (idle) bucket. */
  burst: number;
}

/**
 * Slack's limits are "per method per workspace per app". chat.postMessage has a special tier: about one message per
 * second per channel (each DM is its own channel, and a fan-out posts one message per DM) plus a workspace-wide limit
 * of "several hundred messages per minute" Slack does not pin down: 600 a minute with bursts of 100 (a 5,000-person
 * standup's asks go out in about eight minutes).
 * conversations.open is tier 3: 50+ a minute, "sporadic bursts welcome": 100 may go at once, then 100 a minute (a
 * person's DM is opened once, for their first standup: standups.jobs.ts reuses it).
 * reactions.add and chat.update are tier 3 as well, chat.postEphemeral and views.publish tier 4 (100+ a minute): each
 * at its documented floor, so a busy workspace's calls spread out instead of meeting a 429.
 * views.open has no bucket: its trigger lives 3 s, and a take that had to wait would spend it (slack-calls.ts).
 */
export const SLACK_BUCKETS = {
  "chat.postMessage": { intervalMs: 100, burst: 100 },
  "conversations.open": { intervalMs: 600, burst: 100 },
  "reactions.add": { intervalMs: 1_200, burst: 50 },
  "chat.update": { intervalMs: 1_200, burst: 50 },
  "chat.postEphemeral": { intervalMs: 600, burst: 100 },
  "views.publish": { intervalMs: 600, burst: 100 },
} as const satisfies Record<string, BucketRule>;
export type SlackBucket = keyof typeof SLACK_BUCKETS;

/**
 * A worker waits in-process for a slot (or a Retry-After) at most this long; a longer wait defers its job instead
 * (RetryLaterError), so sleeping jobs never hold a workspace's workers for long.
 */
export const MAX_INLINE_WAIT_MS = 10_000;
/** All the in-process waits of one call together (repeated 429s): past this, the job is deferred. */
export const MAX_INLINE_TOTAL_MS = 30_000;

export interface Take {
  granted: boolean;
  /** How long until the slot (granted), or until one could be granted (not granted). */
  waitMs: number;
  /** When the take was decided, epoch ms on the database's clock: the slot is at `atMs + waitMs`. */
  atMs: number;
}

const secs = (ms: number) => sql`make_interval(secs => ${ms / 1000}::float8)`;

/** One atomic take from the workspace's bucket (the first take creates it, full). */
export async function takeSlot(
  db: Executor,
  teamId: string,
  bucket: string,
  rule: BucketRule,
  maxWaitMs: number,
): Promise<Take> {
  const interval = rule.intervalMs;
  // Every expression reads the row as it was before this statement: wait, grant and the new tat agree.
  const wait = sql`greatest(0::float8,
      extract(epoch from b.tat - now())::float8 * 1000 - ${(rule.burst - 1) * interval}::float8,
      coalesce(extract(epoch from b.paused_until - now())::float8 * 1000, 0::float8))`;
  const [row] = await rows<{ granted: boolean; wait_ms: number | string; at_ms: number | string }>(
    db,
    sql`insert into chat_rate_buckets as b (team_id, bucket, interval_ms, burst, tat, granted, wait_ms, updated_at)
        values (${teamId}, ${bucket}, ${interval}::float8, ${rule.burst}::int, now() + ${secs(interval)}, true, 0, now())
        on conflict (team_id, bucket) do update set
          interval_ms = excluded.interval_ms,
          burst = excluded.burst,
          wait_ms = ${wait},
          granted = ${wait} <= ${maxWaitMs}::float8,
          tat = case when ${wait} <= ${maxWaitMs}::float8
                     then greatest(b.tat, now()) + ${secs(interval)} else b.tat end,
          updated_at = now()
        returning granted, wait_ms, (extract(epoch from now()) * 1000)::float8 as at_ms`,
  );
  if (!row) throw new Error("rate bucket take returned no row");
  return {
    granted: row.granted === true || (row.granted as unknown) === "t",
    waitMs: Number(row.wait_ms),
    atMs: Number(row.at_ms),
  };
}

/** Up to `count` slots taken at once: `granted` of them, the i-th (from 0) at `atMs + waitMs(i)`. */
export interface BatchTake {
  granted: number;
  waitMs: (i: number) => number;
  atMs: number;
}

/**
 * Up to `count` takes from the workspace's bucket in one atomic statement (a batch of DMs): the same GCRA as
 * `takeSlot` applied `count` times in a row, granting the first ones whose slot is at most `maxWaitMs` away. The
 * i-th take's slot is at `max(base + i × interval − (burst − 1) × interval, paused_until)`, base = max(tat, now);
 * the row's new tat is base + granted × interval. The row keeps `wait_ms` as the unclamped offset of the first slot
 * (base − (burst − 1) × interval − now), from which, with the new tat, the caller derives how many were granted: a
 * returning clause sees only the new row.
 */
export async function takeSlots(
  db: Executor,
  teamId: string,
  bucket: SlackBucket,
  count: number,
  maxWaitMs: number = MAX_INLINE_WAIT_MS,
): Promise<BatchTake> {
  const rule: BucketRule = SLACK_BUCKETS[bucket];
  const interval = rule.intervalMs;
  if (count <= 0) return { granted: 0, waitMs: () => 0, atMs: Date.now() };
  const slack = (rule.burst - 1) * interval;
  // First slot's offset from now (negative: that much room in the bucket) and the pause still to run, in ms.
  const first = sql`(extract(epoch from greatest(b.tat, now()) - now())::float8 * 1000 - ${slack}::float8)`;
  const paused = sql`coalesce(extract(epoch from b.paused_until - now())::float8 * 1000, 0::float8)`;
  const n = sql`(case when ${paused} > ${maxWaitMs}::float8 then 0
                 else least(${count}::int, greatest(0, floor((${maxWaitMs}::float8 - ${first}) / ${interval}::float8)::int + 1))
                 end)`;
  const fresh = Math.min(count, Math.floor((maxWaitMs + slack) / interval) + 1);
  const [row] = await rows<{
    wait_ms: number | string;
    tat_ms: number | string;
    paused_ms: number | string;
    at_ms: number | string;
  }>(
    db,
    sql`insert into chat_rate_buckets as b (team_id, bucket, interval_ms, burst, tat, granted, wait_ms, updated_at)
        values (${teamId}, ${bucket}, ${interval}::float8, ${rule.burst}::int,
                now() + make_interval(secs => ${(fresh * interval) / 1000}::float8), true, ${-slack}::float8, now())
        on conflict (team_id, bucket) do update set
          interval_ms = excluded.interval_ms,
          burst = excluded.burst,
          wait_ms = ${first},
          granted = ${n} > 0,
          tat = greatest(b.tat, now()) + make_interval(secs => ${n} * ${interval / 1000}::float8),
          updated_at = now()
        returning wait_ms, (extract(epoch from tat) * 1000)::float8 as tat_ms,
          coalesce(extract(epoch from paused_until - now())::float8 * 1000, 0::float8) as paused_ms,
          (extract(epoch from now()) * 1000)::float8 as at_ms`,
  );
  if (!row) throw new Error("rate bucket take returned no row");
  const firstMs = Number(row.wait_ms);
  const atMs = Number(row.at_ms);
  // tat = base + granted × interval, base = now + first + slack: rounding absorbs float noise.
  const granted = Math.max(0, Math.round((Number(row.tat_ms) - atMs - firstMs - slack) / interval));
  const pausedMs = Math.max(0, Number(row.paused_ms));
  return {
    granted: Math.min(count, granted),
    waitMs: (i) => Math.max(0, firstMs + i * interval, pausedMs),
    atMs,
  };
}

/** Slack answered 429: nobody takes from the workspace's bucket before `seconds` from now (one statement). */
export async function pauseBucket(
  db: Executor,
  teamId: string,
  bucket: string,
  rule: BucketRule,
  seconds: number,
): Promise<void> {
  await db.execute(
    sql`insert into chat_rate_buckets as b
          (team_id, bucket, interval_ms, burst, tat, paused_until, granted, wait_ms, updated_at)
        values (${teamId}, ${bucket}, ${rule.intervalMs}::float8, ${rule.burst}::int, now(),
                now() + ${secs(seconds * 1000)}, false, 0, now())
        on conflict (team_id, bucket) do update set
          paused_until = greatest(b.paused_until, excluded.paused_until),
          -- Empty when the pause ends: the takes granted meanwhile go at the sustained rate from then on, not as one
          -- burst at the very moment Slack said the limit was used up.
          tat = greatest(b.tat, excluded.paused_until + ${secs((rule.burst - 1) * rule.intervalMs)}),
          updated_at = now()`,
  );
}

/**
 * Waits for a slot of the workspace's `bucket` (at most MAX_INLINE_WAIT_MS; returns how long), or throws RetryLaterError when the next
 * slot is further away than that: the job runs again then (spread over up to twice the wait, so the jobs told to
 * wait do not all come back at once).
 */
export async function pace(db: Executor, teamId: string, bucket: SlackBucket): Promise<number> {
  const take = await takeSlot(db, teamId, bucket, SLACK_BUCKETS[bucket], MAX_INLINE_WAIT_MS);
  if (!take.granted) {
    const delay = Math.ceil(take.waitMs * (1 + Math.random()));
    throw new RetryLaterError(delay, `${bucket} of workspace ${teamId} is paced: next slot in ${take.waitMs} ms`);
  }
  if (take.waitMs > 0) await sleep(take.waitMs);
  return take.waitMs;
}

/** The Retry-After of a 429 the Web API client refused to retry itself (rejectRateLimitedCalls), in seconds. */
export function retryAfterSeconds(err: unknown): number | undefined {
  const e = err as { code?: string; retryAfter?: number };
  return e?.code === "slack_webapi_rate_limited_error" && typeof e.retryAfter === "number" ? e.retryAfter : undefined;
}

/**
 * Whom a 429 of the method holds back. Slack limits chat.postMessage per channel (about one a second; the workspace's
 * own pace is kept by its bucket): a 429 there holds only the post that got it (its DM or channel), and the
 * workspace's other posts go on. Tiered methods such as conversations.open are limited per workspace: a 429 pauses
 * the workspace's bucket for every worker of every instance.
 */
const RETRY_AFTER_HOLDS: Record<SlackBucket, "call" | "workspace"> = {
  "chat.postMessage": "call",
  "conversations.open": "workspace",
  "reactions.add": "workspace",
  "chat.update": "workspace",
  "chat.postEphemeral": "workspace",
  "views.publish": "workspace",
};

/**
 * Slack asked us to wait `seconds` (at least 1, so a Retry-After of 0 is no busy loop) before calling `bucket` again:
 * waits that long in-process, or, past the in-process limits, throws RetryLaterError for exactly that long (the job
 * runs again then, not counted as a failure). A workspace-wide limit also pauses the workspace's bucket first.
 * `waitedMs`: in-process waits of this call so far (pace's included); returns the new total.
 */
export async function honourRetryAfter(
  db: Executor,
  teamId: string,
  bucket: SlackBucket,
  seconds: number,
  waitedMs: number,
): Promise<number> {
  const waitMs = Math.max(1, seconds) * 1000;
  const workspaceWide = RETRY_AFTER_HOLDS[bucket] === "workspace";
  if (workspaceWide) await pauseBucket(db, teamId, bucket, SLACK_BUCKETS[bucket], waitMs / 1000);
  if (waitMs <= MAX_INLINE_WAIT_MS && waitedMs + waitMs <= MAX_INLINE_TOTAL_MS) {
    // A paused bucket makes the next take wait (pace counts that wait); a held call waits here.
    if (workspaceWide) return waitedMs;
    await sleep(waitMs);
    return waitedMs + waitMs;
  }
  throw new RetryLaterError(waitMs, `Slack answered 429 to ${bucket}: Retry-After ${seconds} s`);
}

/**
 * A Slack call paced by the workspace's bucket; a 429 pauses the bucket and the call is made again once the
 * Retry-After has passed (in-process when short, else the job is deferred that long: RetryLaterError).
 */
export async function pacedCall<T>(
  db: Executor,
  teamId: string,
  bucket: SlackBucket,
  call: () => Promise<T>,
): Promise<T> {
  let waitedMs = 0;
  for (;;) {
    waitedMs += await pace(db, teamId, bucket);
    try {
      return await call();
    } catch (err) {
      const seconds = retryAfterSeconds(err);
      if (seconds === undefined) throw err;
      waitedMs = await honourRetryAfter(db, teamId, bucket, seconds, waitedMs);
    }
  }
}
