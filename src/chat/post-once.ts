import type { KnownBlock } from "@slack/types";
import type { WebClient } from "@slack/web-api";
import { and, eq } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { chatPosts, type PostState } from "../db/schema.ts";
import type { Clock } from "../lib/clock.ts";

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

const METADATA_EVENT = "upbeat_post";
/** A claim older than this in state `sending` belongs to a worker that died mid-send. */
const STALE_MS = 2 * 60_000;

type ErrorKind = "definite" | "ambiguous";

/**
 * Slack said no (ok:false, 429): nothing was posted. A dropped connection, a timeout or a 5xx may have
 * posted the message anyway, so the next attempt looks for it before posting again.
 */
export function classifySlackError(err: unknown): ErrorKind {
  const code = (err as { code?: string })?.code;
  if (code === "slack_webapi_platform_error" || code === "slack_webapi_rate_limited_error") return "definite";
  return "ambiguous";
}

interface Deps {
  db: Db;
  clock: Clock;
}

async function setState(deps: Deps, key: string, state: PostState, ts?: string): Promise<void> {
  await deps.db
    .update(chatPosts)
    .set({ state, ...(ts ? { ts } : {}), updatedAt: deps.clock.now() })
    .where(eq(chatPosts.key, key));
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
async function findPosted(client: WebClient, spec: PostSpec): Promise<string | undefined> {
  let cursor: string | undefined;
  for (let page = 0; spec.threadTs || page < MAX_HISTORY_PAGES; page++) {
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

/** Slack asked us to wait a few seconds: nothing was posted, so wait while holding the claim and try once more. */
const MAX_INLINE_RETRY_AFTER_S = 10;

function retryAfterSeconds(err: unknown): number | undefined {
  const e = err as { code?: string; retryAfter?: number };
  return e?.code === "slack_webapi_rate_limited_error" && typeof e.retryAfter === "number" ? e.retryAfter : undefined;
}

async function send(deps: Deps, client: WebClient, spec: PostSpec, inlineRetries = 1): Promise<string> {
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
    const ts = res.ts as string;
    await setState(deps, spec.key, "sent", ts);
    return ts;
  } catch (err) {
    const wait = retryAfterSeconds(err);
    if (wait !== undefined && wait <= MAX_INLINE_RETRY_AFTER_S && inlineRetries > 0) {
      await new Promise((resolve) => setTimeout(resolve, Math.max(wait, 1) * 1000));
      return send(deps, client, spec, inlineRetries - 1);
    }
    await setState(deps, spec.key, classifySlackError(err) === "definite" ? "failed" : "unknown");
    throw err;
  }
}

/**
 * Posts a message at most once per key, whatever retries, restarts or second instances do: the key is
 * claimed in the database before the message is sent. Returns the message ts.
 */
export async function postOnce(deps: Deps, client: WebClient, spec: PostSpec): Promise<string> {
  const now = deps.clock.now();
  const fresh = await deps.db
    .insert(chatPosts)
    .values({
      key: spec.key,
      teamId: spec.teamId,
      channel: spec.channel,
      state: "sending",
      attempts: 1,
      updatedAt: now,
    })
    .onConflictDoNothing()
    .returning({ key: chatPosts.key });
  if (fresh.length > 0) return send(deps, client, spec);

  const [row] = await deps.db.select().from(chatPosts).where(eq(chatPosts.key, spec.key));
  if (!row) throw new PostInFlightError(spec.key);
  if (row.state === "sent" && row.ts) return row.ts;
  if (row.state === "sending" && now.getTime() - row.updatedAt.getTime() < STALE_MS)
    throw new PostInFlightError(spec.key);

  // Take the claim over from the failed or lost attempt; only one worker wins the compare-and-set.
  const won = await deps.db
    .update(chatPosts)
    .set({ state: "sending", attempts: row.attempts + 1, updatedAt: now })
    .where(and(eq(chatPosts.key, spec.key), eq(chatPosts.state, row.state), eq(chatPosts.attempts, row.attempts)))
    .returning({ key: chatPosts.key });
  if (won.length === 0) throw new PostInFlightError(spec.key);
  if (row.state !== "failed") {
    let ts: string | undefined;
    try {
      ts = await findPosted(client, spec);
    } catch (err) {
      await setState(deps, spec.key, "unknown");
      throw err;
    }
    if (ts) {
      await setState(deps, spec.key, "sent", ts);
      return ts;
    }
  }
  return send(deps, client, spec);
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
  const now = deps.clock.now();
  const fresh = await deps.db
    .insert(chatPosts)
    .values({
      key: spec.key,
      teamId: spec.teamId,
      channel: spec.channel,
      state: "sending",
      attempts: 1,
      updatedAt: now,
    })
    .onConflictDoNothing()
    .returning({ key: chatPosts.key });
  if (fresh.length === 0) {
    const [row] = await deps.db.select().from(chatPosts).where(eq(chatPosts.key, spec.key));
    if (!row) throw new PostInFlightError(spec.key);
    if (row.state === "sent") return false;
    const stale = row.state === "sending" && now.getTime() - row.updatedAt.getTime() >= STALE_MS;
    if (row.state === "sending" && !stale) throw new PostInFlightError(spec.key);
    if ((row.state === "unknown" || stale) && !opts.repeatAmbiguous) return false;
    const won = await deps.db
      .update(chatPosts)
      .set({ state: "sending", attempts: row.attempts + 1, updatedAt: now })
      .where(and(eq(chatPosts.key, spec.key), eq(chatPosts.state, row.state), eq(chatPosts.attempts, row.attempts)))
      .returning({ key: chatPosts.key });
    if (won.length === 0) throw new PostInFlightError(spec.key);
  }
  try {
    await call();
  } catch (err) {
    await setState(deps, spec.key, classifySlackError(err) === "definite" ? "failed" : "unknown");
    throw err;
  }
  await setState(deps, spec.key, "sent");
  return true;
}
