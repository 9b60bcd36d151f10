import { setTimeout as sleep } from "node:timers/promises";
import type { KnownBlock } from "@slack/types";
import type { WebClient } from "@slack/web-api";
import { and, eq, sql } from "drizzle-orm";
import type { Logger } from "pino";
import type { Db } from "../db/client.ts";
import { chatPosts, type PostState } from "../db/schema.ts";
import { RetryLaterError } from "../lib/retry-later.ts";
import { honourRetryAfter, pace, retryAfterSeconds } from "./rate-buckets.ts";

export interface PostSpec {
  /** Unique name of this message, e.g. `run:12:ask:U123`. */
  key: string;
  teamId: string;
  channel: string;
  text: string;
  blocks?: KnownBlock[];
  threadTs?: string;
}

/** Another worker holds the claim and is sending right now; the job retries later. */
export class PostInFlightError extends Error {}

export const METADATA_EVENT = "upbeat_post";
/**
 * A claim in state `sending` that nobody touched for this long belongs to a worker that died mid-send (kill -9, a
 * lost host), and another worker takes it over. The owner touches its claim before it waits out a Retry-After and
 * before every Slack call it makes under it when its last touch is more than RETOUCH_MS old, so a live owner's
 * claim is never older than RETOUCH_MS plus one call (the Web API client's 10 s timeout) or one wait (at most 10 s):
 * 20 s leaves room for a slow database. Ages are read on the database's clock, as pg-boss reads heartbeats, so
 * instances whose clocks differ still agree.
 *
 * A claim in state `unknown` is taken over by the same rule: its owner's call failed ambiguously (a timeout, a
 * dropped connection, a 5xx), and Slack may still be completing it. Looking the message up at once could miss a
 * message Slack stores a moment later and post it twice; once the claim is this old, that call is long finished.
 */
export const CLAIM_STALE_SECONDS = 20;
/**
 * The owner touches its claim again right before posting when its last successful touch (on this process's
 * monotonic clock) is older than this: a worker that stalled (a long GC pause, a slow check) finds out that its
 * claim was taken over instead of posting a second copy.
 */
export const RETOUCH_MS = 5_000;
/** While another worker holds a fresh claim, look again this often for its outcome (or for the claim going stale). */
const CLAIM_POLL_MS = 250;

type ErrorKind = "definite" | "ambiguous";

/**
 * Slack said no (ok:false, 429): nothing was posted. A dropped connection, a timeout or a 5xx may have
 * posted the message anyway, so the next attempt looks for it before posting again.
 */
export function classifySlackError(err: unknown): ErrorKind {
  // Paced out or told to wait before the call was made: nothing reached Slack.
  if (err instanceof RetryLaterError) return "definite";
  const code = (err as { code?: string })?.code;
  if (code === "slack_webapi_platform_error" || code === "slack_webapi_rate_limited_error") return "definite";
  return "ambiguous";
}

interface Deps {
  db: Db;
  log: Logger;
}

export interface PostOptions {
  /**
   * Runs right before the message is claimed for sending, again after waiting for another worker's claim, and again
   * right before posting after a lookup of an earlier attempt's message or an inline Retry-After wait: whatever it
   * throws stops the post with nothing sent (say, the message is no longer wanted).
   */
  beforeSend?: () => Promise<void>;
  /**
   * Called once the message is known to be in Slack because of this key's attempts: after this call posted it, or
   * found the message an earlier attempt's ambiguous failure posted after all. Not when an earlier call already
   * recorded it as sent. For counting messages (metrics) once each.
   */
  onPosted?: () => void;
}

/** This worker's claim on a key: the attempt number fences out a worker whose claim was taken over. */
interface Claim {
  key: string;
  attempts: number;
  /** performance.now() taken right before the last write that kept the claim ours (taking it, or a touch). */
  touchedAt: number;
}

const ours = (claim: Claim) =>
  and(eq(chatPosts.key, claim.key), eq(chatPosts.attempts, claim.attempts), eq(chatPosts.state, "sending"));

/** Records the outcome under our claim; false when another worker took the claim over meanwhile. */
async function setState(db: Db, claim: Claim, state: PostState, ts?: string): Promise<boolean> {
  const set = await db
    .update(chatPosts)
    .set({ state, ...(ts ? { ts } : {}), updatedAt: sql`now()` })
    .where(ours(claim))
    .returning({ key: chatPosts.key });
  return set.length > 0;
}

/** Keeps our claim fresh before a Slack call; throws when another worker took it over (it presumed us dead). */
async function touch(db: Db, claim: Claim): Promise<void> {
  const at = performance.now();
  const kept = await db
    .update(chatPosts)
    .set({ updatedAt: sql`now()` })
    .where(ours(claim))
    .returning({ key: chatPosts.key });
  if (kept.length === 0) throw new PostInFlightError(claim.key);
  claim.touchedAt = at;
}

/** Slack's recommended page size for conversations.history and conversations.replies. */
const LOOKUP_PAGE_SIZE = 200;
/**
 * A thread is read to its end (a big run has more than one page of replies). A channel's history is read newest
 * first, and a message sent by a lost attempt is recent: this many pages bound the work in a busy channel.
 */
const MAX_HISTORY_PAGES = 25;

type Page = { messages?: unknown[]; response_metadata?: { next_cursor?: string } };
type Posted = { ts?: string; metadata?: { event_payload?: { post_key?: string } } };

/** Finds a message this key already posted (after an ambiguous failure) by the metadata it carries. */
async function findPosted(db: Db, client: WebClient, spec: PostSpec, claim: Claim): Promise<string | undefined> {
  let cursor: string | undefined;
  for (let page = 0; spec.threadTs || page < MAX_HISTORY_PAGES; page++) {
    await touch(db, claim);
    const common = { channel: spec.channel, limit: LOOKUP_PAGE_SIZE, include_all_metadata: true, cursor };
    const res: Page = spec.threadTs
      ? await client.conversations.replies({ ...common, ts: spec.threadTs })
      : await client.conversations.history(common);
    for (const m of (res.messages ?? []) as Posted[]) {
      if (m.metadata?.event_payload?.post_key === spec.key && m.ts) return m.ts;
    }
    cursor = res.response_metadata?.next_cursor || undefined;
    if (!cursor) return undefined;
  }
  return undefined;
}

/**
 * Posts under our claim. `recheck`: run beforeSend first (time has passed since it last ran: a lookup of an earlier
 * attempt's message). A stop it asks for leaves the claim `failed`: nothing was posted under it, and a lookup found
 * nothing from earlier attempts.
 */
async function send(
  deps: Deps,
  client: WebClient,
  spec: PostSpec,
  claim: Claim,
  opts: PostOptions,
  recheck: boolean,
): Promise<string> {
  const { db } = deps;
  /** In-process waits for Retry-Afters so far (rate-buckets.ts bounds them). */
  let waitedMs = 0;
  for (let checkNow = recheck; ; checkNow = true) {
    // The workspace's pace (and any Retry-After pause): a wait of at most MAX_INLINE_WAIT_MS, after which the touch
    // below keeps the claim fresh; a longer one defers the job (RetryLaterError) with nothing posted under this claim.
    let paced: number;
    try {
      paced = await pace(db, spec.teamId, "chat.postMessage");
    } catch (err) {
      await setState(db, claim, "failed");
      throw err;
    }
    waitedMs += paced;
    // Right before posting: after any wait above, so a run stopped meanwhile sends nothing more.
    if ((checkNow || paced > 0) && opts.beforeSend) {
      try {
        await opts.beforeSend();
      } catch (err) {
        await setState(db, claim, "failed");
        throw err;
      }
    }
    if (performance.now() - claim.touchedAt > RETOUCH_MS) await touch(db, claim);
    let ts: string;
    try {
      const res = await client.chat.postMessage({
        channel: spec.channel,
        text: spec.text,
        ...(spec.blocks ? { blocks: spec.blocks } : {}),
        ...(spec.threadTs ? { thread_ts: spec.threadTs } : {}),
        unfurl_links: false,
        unfurl_media: false,
        metadata: { event_type: METADATA_EVENT, event_payload: { post_key: spec.key } },
      });
      ts = res.ts as string;
    } catch (err) {
      const wait = retryAfterSeconds(err);
      if (wait !== undefined) {
        // Slack said no: nothing was posted. This post waits out the Retry-After (Slack limits chat.postMessage per
        // channel), here when short, else its job is deferred that long; every 429 alike, not only the first.
        // Touched before and after the wait: a claim touched before the call could otherwise look stale by the
        // time the wait ends (RETOUCH_MS + a call + a wait stays under CLAIM_STALE_SECONDS only from a fresh touch).
        await touch(db, claim);
        try {
          waitedMs = await honourRetryAfter(db, spec.teamId, "chat.postMessage", wait, waitedMs);
        } catch (deferred) {
          await setState(db, claim, "failed");
          throw deferred;
        }
        await touch(db, claim);
        continue;
      }
      await setState(db, claim, classifySlackError(err) === "definite" ? "failed" : "unknown");
      throw err;
    }
    if (!(await setState(db, claim, "sent", ts))) {
      // We stalled long enough for another worker to take the claim over: it may have posted this message too.
      deps.log.error(
        { post_key: spec.key, team_id: spec.teamId, channel: spec.channel, attempts: claim.attempts, ts },
        "claim taken over; possible duplicate",
      );
    }
    opts.onPosted?.();
    return ts;
  }
}

type ClaimRow = { state: PostState; ts: string | null; attempts: number; ageMs: number };

async function readClaim(db: Db, key: string): Promise<ClaimRow | undefined> {
  const [row] = await db
    .select({
      state: chatPosts.state,
      ts: chatPosts.ts,
      attempts: chatPosts.attempts,
      ageMs: sql<number>`(extract(epoch from now() - ${chatPosts.updatedAt}) * 1000)::float8`,
    })
    .from(chatPosts)
    .where(eq(chatPosts.key, key));
  return row;
}

/** A claim another worker may still be sending under (or whose ambiguous call Slack may still complete). */
const mayBeInFlight = (state: PostState) => state === "sending" || state === "unknown";

/**
 * The claim as it stands once no other worker's call can still land under it: sent, failed, or `sending` or
 * `unknown` but stale. While a claim is fresh this waits for it (at most CLAIM_STALE_SECONDS, plus a poll), so a
 * worker that died mid-send holds up the retry of its job only until its claim is stale, not for a job retry's backoff.
 * A claim still being touched after that belongs to a live worker that is slow: PostInFlightError, retry later.
 */
async function settledClaim(db: Db, key: string): Promise<{ row: ClaimRow; waited: boolean }> {
  const staleMs = CLAIM_STALE_SECONDS * 1000;
  let waitedMs = 0;
  for (;;) {
    const row = await readClaim(db, key);
    if (!row) throw new PostInFlightError(key);
    if (!mayBeInFlight(row.state) || row.ageMs >= staleMs) return { row, waited: waitedMs > 0 };
    if (waitedMs > staleMs) throw new PostInFlightError(key);
    const step = Math.max(10, Math.min(CLAIM_POLL_MS, staleMs - row.ageMs));
    await sleep(step);
    waitedMs += step;
  }
}

/**
 * Posts a message at most once per key, whatever retries, restarts or second instances do: the key is
 * claimed in the database before the message is sent. Returns the message ts.
 */
export async function postOnce(deps: Deps, client: WebClient, spec: PostSpec, opts: PostOptions = {}): Promise<string> {
  await opts.beforeSend?.();
  const claimedAt = performance.now();
  const fresh = await deps.db
    .insert(chatPosts)
    .values({
      key: spec.key,
      teamId: spec.teamId,
      channel: spec.channel,
      state: "sending",
      attempts: 1,
      updatedAt: sql`now()`,
    })
    .onConflictDoNothing()
    .returning({ key: chatPosts.key });
  if (fresh.length > 0)
    return send(deps, client, spec, { key: spec.key, attempts: 1, touchedAt: claimedAt }, opts, false);

  const { row, waited } = await settledClaim(deps.db, spec.key);
  if (row.state === "sent" && row.ts) return row.ts;
  if (waited) await opts.beforeSend?.();

  // Take the claim over from the failed, lost or dead attempt; only one worker wins the compare-and-set, and a
  // `sending` or `unknown` claim only while it is still stale (its owner did not touch it meanwhile).
  const claim: Claim = { key: spec.key, attempts: row.attempts + 1, touchedAt: performance.now() };
  const won = await deps.db
    .update(chatPosts)
    .set({ state: "sending", attempts: claim.attempts, updatedAt: sql`now()` })
    .where(
      and(
        eq(chatPosts.key, spec.key),
        eq(chatPosts.state, row.state),
        eq(chatPosts.attempts, row.attempts),
        sql`(${chatPosts.state} not in ('sending', 'unknown') or ${chatPosts.updatedAt} <= now() - make_interval(secs => ${CLAIM_STALE_SECONDS}))`,
      ),
    )
    .returning({ key: chatPosts.key });
  if (won.length === 0) throw new PostInFlightError(spec.key);
  if (row.state === "failed") return send(deps, client, spec, claim, opts, false);
  let ts: string | undefined;
  try {
    ts = await findPosted(deps.db, client, spec, claim);
  } catch (err) {
    await setState(deps.db, claim, "unknown");
    throw err;
  }
  if (ts) {
    await setState(deps.db, claim, "sent", ts);
    opts.onPosted?.();
    return ts;
  }
  return send(deps, client, spec, claim, opts, true);
}

export interface CallSpec {
  /** Unique name of this call, e.g. `kudos:react:T1:C1:1700000000.000100`. */
  key: string;
  teamId: string;
  channel: string;
}

/**
 * For Slack calls that leave nothing to look up afterwards (a reaction, an ephemeral message): the key is claimed
 * before the call, so retries, restarts and second instances make it at most once. True when it was made now;
 * false when it was made before. A definite failure (Slack said no) releases the claim for the next attempt. After
 * an ambiguous one (a timeout, a dropped connection) the call may have gone through: it is repeated only when
 * `repeatAmbiguous` says a repeat is harmless (reactions.add answers `already_reacted`).
 */
export async function callOnce(
  deps: Deps,
  spec: CallSpec,
  call: () => Promise<unknown>,
  opts: { repeatAmbiguous?: boolean } = {},
): Promise<boolean> {
  const fresh = await deps.db
    .insert(chatPosts)
    .values({
      key: spec.key,
      teamId: spec.teamId,
      channel: spec.channel,
      state: "sending",
      attempts: 1,
      updatedAt: sql`now()`,
    })
    .onConflictDoNothing()
    .returning({ key: chatPosts.key });
  let claim: Claim = { key: spec.key, attempts: 1, touchedAt: performance.now() };
  if (fresh.length === 0) {
    const row = await readClaim(deps.db, spec.key);
    if (!row) throw new PostInFlightError(spec.key);
    if (row.state === "sent") return false;
    // A fresh `sending` claim is another worker's call in flight; a stale one, or an `unknown` outcome, may have
    // gone through, so it is repeated only when a repeat is harmless (Slack answers it with already_reacted).
    if (row.state === "sending" && row.ageMs < CLAIM_STALE_SECONDS * 1000) throw new PostInFlightError(spec.key);
    if (row.state !== "failed" && !opts.repeatAmbiguous) return false;
    claim = { key: spec.key, attempts: row.attempts + 1, touchedAt: performance.now() };
    const won = await deps.db
      .update(chatPosts)
      .set({ state: "sending", attempts: claim.attempts, updatedAt: sql`now()` })
      .where(and(eq(chatPosts.key, spec.key), eq(chatPosts.state, row.state), eq(chatPosts.attempts, row.attempts)))
      .returning({ key: chatPosts.key });
    if (won.length === 0) throw new PostInFlightError(spec.key);
  }
  try {
    await call();
  } catch (err) {
    await setState(deps.db, claim, classifySlackError(err) === "definite" ? "failed" : "unknown");
    throw err;
  }
  await setState(deps.db, claim, "sent");
  return true;
}
