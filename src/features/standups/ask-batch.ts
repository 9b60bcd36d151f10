import { setTimeout as sleep } from "node:timers/promises";
import type { WebClient } from "@slack/web-api";
import { classifySlackError, METADATA_EVENT, RETOUCH_MS } from "../../chat/post-once.ts";
import { retryAfterSeconds, takeSlots } from "../../chat/rate-buckets.ts";
import { type Deps, slackGiveUp } from "../../deps.ts";
import { type BatchMember, claimBatch, readBatch, recordBatch, type SentAsk, touchClaims } from "./ask-batch.repo.ts";
import { inline, single } from "./ask-batch-fallback.ts";
import { openDms } from "./ask-batch-open.ts";
import { promptFor } from "./blocker-prompt.ts";
import { askMessage } from "./messages.ts";
import { askPostKey, unaskParticipant } from "./participants.repo.ts";
import { remindAtAfterAsk } from "./reminders.repo.ts";
import { findRun, type RunRow } from "./runs.repo.ts";
import { assertLive } from "./stopped-run.ts";

/**
 * The fan-out's asks in chunks (issue 27): a `standup.asks` job asks up to ASK_CHUNK members of one run with a few
 * statements for the whole chunk (read, claim, take pacing slots, record) instead of a dozen per DM. Only the plain
 * case goes this way: a member asked for the first time in this run, with a known DM channel, who did not answer
 * ahead and has no other standup's DM conversation open. Everyone else (an early answer, another open standup, no
 * DM channel yet, an ask an earlier attempt already started, a Slack error or 429 on their DM, no pacing slot within
 * the inline wait) gets the single `standup.ask` job, whose code is unchanged: its claims (postOnce) take over or
 * look up whatever this chunk left, so exactly once holds across crashes, retries and instances.
 */
export const ASK_CHUNK = 25;
/** DMs of one chunk in flight at once. */
export const POSTS_IN_FLIGHT = 4;
/**
 * A posted DM is recorded (its claim `sent`, its first question's ts, asked_at) as soon as its post returns, together
 * with the chunk's other DMs that returned while the last record was being written (a group commit): a reply to it
 * must find its run (answers.service.ts routes a DM reply by the first question's ts), and a reply can come within
 * milliseconds (a member answering the instant the DM lands, over Socket Mode: the fresh-clone test). A 100 ms wait
 * to gather more DMs per statement left exactly that reply with "no standup waiting".
 */
const FLUSH_MS = 0;

declare module "../../jobs/queue.ts" {
  interface JobPayloads {
    /** `chunk`: the chunk's place in its run (its jobs' priority is −chunk). */
    "standup.asks": { teamId: string; runId: number; userIds: string[]; chunk: number };
  }
}

export type Payload = { teamId: string; runId: number; userIds: string[]; chunk: number };
/** The single ask as its job runs it (standups.jobs.ts: `quietly` around `ask`). */
export type AskOne = (p: { teamId: string; runId: number; userId: string }) => Promise<void>;
/** A member the chunk could not ask itself, run through the single ask in this job (after `afterMs`). */
export type Fallback = { userId: string; afterMs?: number; retry?: boolean };

/** The plain case (see above); the rest go to the single ask. */
const plain = (m: BatchMember) =>
  m.status === "asked" && m.askedAt === null && !m.answeredAhead && !m.started && !m.otherOpenAsk;

export async function askChunk(deps: Deps, p: Payload, askOne: AskOne): Promise<void> {
  const run = await findRun(deps.db, p.teamId, p.runId);
  // Closed, gone or a member-timezone run: the single ask knows what to do with each member.
  if (run?.status !== "open" || run.memberTimezone) return single(deps, p, p.userIds);
  const members = await readBatch(deps.db, run, p.userIds, deps.clock.now());
  let asPlain = members.filter(plain);
  // Away members are done (marked away, as the single ask's awayInRun); everything else goes to the single ask.
  // A member without a participant row is not asked: the fan-out added every member of the chunk, so they were
  // erased since (data removal takes them out of queued chunks too).
  const others = [...members.filter((m) => !plain(m) && !m.away && m.status !== "away").map((m) => m.userId)];
  await single(deps, p, others);
  if (asPlain.length === 0) return;
  const client = await deps.chat.forTeam(p.teamId, "post");
  // A member's first standup: their DM is opened here (paced for the chunk in one statement), as dmChannel does.
  const opened = await openDms(
    deps,
    client,
    p.teamId,
    p.runId,
    asPlain.filter((m) => m.channel === null),
  );
  const fallback: Fallback[] = opened.later;
  for (const m of asPlain) if (m.channel === null) m.channel = opened.channels.get(m.userId) ?? null;
  asPlain = asPlain.filter((m) => m.channel !== null);
  if (asPlain.length === 0) return inline(deps, p, askOne, fallback);
  // Pacing for the whole chunk in one statement; those without a slot within the inline wait go to the single ask,
  // which waits or defers as every paced call does.
  const take = await takeSlots(deps.db, p.teamId, "chat.postMessage", asPlain.length);
  const tookAt = performance.now();
  const granted = asPlain.slice(0, take.granted);
  // The rest wait for the next free slot as one chunk job (same priority), not as a single ask each: in a workspace
  // of thousands the single asks would each be deferred again and again, a dozen statements every time.
  const rest = asPlain.slice(take.granted).map((m) => m.userId);
  if (rest.length > 0) {
    await deps.queue.enqueue(
      "standup.asks",
      { ...p, userIds: rest },
      { startAfter: Math.max(1, Math.ceil(take.waitMs(take.granted) / 1000)), priority: -p.chunk },
    );
  }
  // Right before the claims: a run stopped while the DMs were opened or the slots taken sends nothing.
  await assertLive(deps.db, run);
  const claimed = await claimBatch(
    deps.db,
    run,
    granted.map((m) => ({ userId: m.userId, channel: m.channel! })),
    deps.clock.now(),
  );
  const mine = granted.filter((m) => claimed.claimed.has(askPostKey(run.id, m.userId)));
  for (const m of granted) {
    if (!claimed.claimed.has(askPostKey(run.id, m.userId)) && !claimed.gone.has(m.userId)) {
      fallback.push({ userId: m.userId });
    }
  }
  fallback.push(...(await postChunk(deps, client, run, mine, (i) => tookAt + take.waitMs(i))));
  await inline(deps, p, askOne, fallback);
}

/**
 * Posts the claimed asks (each at its pacing slot, a few at a time) and records each outcome as soon as its post
 * returns (within FLUSH_MS), as the single ask does: the first question's ts is there before the member can reply to
 * it (answers.service.ts routes a DM reply by it), and a recorded claim needs no more touching. The run's standing is
 * read right before each DM (one indexed select), so a pause or delete stops the chunk at its next DM: nothing more
 * is posted, the unsent claims are `failed` (nothing went out under them) and RunStoppedError goes up to `quietly`,
 * which unasks whoever was not asked.
 */
async function postChunk(
  deps: Deps,
  client: WebClient,
  run: RunRow,
  members: BatchMember[],
  slotAt: (i: number) => number,
): Promise<Fallback[]> {
  const fallback: Fallback[] = [];
  const pending = new Set(members.map((m) => askPostKey(run.id, m.userId)));
  let touchedAt = performance.now();
  let stopped: unknown;
  // A statement failed (the database went away): the other workers stop too, the job fails and its retry hands the
  // claims to the single ask, which looks up what may have gone out.
  let broken: unknown;
  const plainMessage = askMessage(run);
  // Posted DMs not recorded yet: recorded together at most FLUSH_MS after the first of them returned.
  let posted: SentAsk[] = [];
  let flushing: Promise<void> | undefined;
  const flush = async () => {
    const batch = posted;
    posted = [];
    if (batch.length === 0) return;
    try {
      const kept = await recordBatch(deps.db, run, batch, []);
      for (const s of batch) {
        // Counted by whoever records it: a claim taken over is counted by the single ask that finds the message.
        if (kept.has(s.key)) deps.metrics.dmsSent.inc({ kind: "ask" });
        else deps.log.error({ post_key: s.key, team_id: run.teamId, ts: s.ts }, "claim taken over; possible duplicate");
      }
    } catch (err) {
      broken ??= err;
    }
  };
  const scheduleFlush = () => {
    flushing ??= sleep(FLUSH_MS)
      .then(flush)
      .finally(() => {
        flushing = undefined;
        // Posts that returned while the last ones were being recorded.
        if (posted.length > 0) scheduleFlush();
      });
  };
  let checking: Promise<void> | undefined;
  let next = 0;
  const worker = async () => {
    for (;;) {
      const i = next++;
      const m = members[i];
      if (!m || stopped || broken) return;
      const key = askPostKey(run.id, m.userId);
      const wait = slotAt(i) - performance.now();
      if (wait > 0) await sleep(wait);
      try {
        if (stopped) return;
        // A check already under way (another worker's, started moments ago) stands for this DM too.
        checking ??= assertLive(deps.db, run).finally(() => {
          checking = undefined;
        });
        await checking;
        if (performance.now() - touchedAt > RETOUCH_MS) {
          touchedAt = performance.now();
          const kept = await touchClaims(deps.db, [...pending]);
          for (const k of pending) if (!kept.has(k)) pending.delete(k);
        }
      } catch (err) {
        stopped ??= err;
        return;
      }
      // Taken over by another worker that presumed this one dead: it posts (or found) the DM.
      if (!pending.has(key)) continue;
      if (stopped) return;
      pending.delete(key);
      // As the single ask words it for a member holding their DM conversation with no other standup open; the same
      // for everyone without an open blocker, so built once per chunk (dates and escaping cost ~10 % of a DM's CPU).
      const msg = m.openBlocker
        ? askMessage(run, {
            blocker: promptFor({ ...m.openBlocker, status: "open" as const }, run.localDate),
          })
        : plainMessage;
      let ts: string;
      try {
        const res = await client.chat.postMessage({
          channel: m.channel!,
          text: msg.text,
          ...(msg.blocks ? { blocks: msg.blocks } : {}),
          unfurl_links: false,
          unfurl_media: false,
          metadata: { event_type: METADATA_EVENT, event_payload: { post_key: key } },
        });
        ts = res.ts as string;
      } catch (err) {
        // Slack said no (a 429 included: nothing posted) or the call may have gone through: the single ask takes
        // the claim over, after the Retry-After, and looks the message up first when it may have been posted.
        await recordBatch(
          deps.db,
          run,
          [],
          [{ key, state: classifySlackError(err) === "definite" ? "failed" : "unknown" }],
        );
        const seconds = retryAfterSeconds(err);
        const reason = slackGiveUp(err);
        if (seconds !== undefined) fallback.push({ userId: m.userId, afterMs: Math.max(1, seconds) * 1000 });
        else if (reason !== undefined) {
          // As the queue ends a job whose error retrying cannot fix: this member's ask is given up.
          deps.metrics.jobFailures.inc({ queue: "standup.asks", outcome: "gave_up" });
          deps.log.warn(
            { team_id: run.teamId, run_id: run.id, job: "standup.asks", err: String(err), reason },
            "ask gave up: retrying cannot help",
          );
        } else {
          fallback.push({ userId: m.userId, retry: true });
          deps.log.warn(
            { team_id: run.teamId, run_id: run.id, job: "standup.asks", err: String(err) },
            "ask DM failed; its single ask retries it",
          );
        }
        continue;
      }
      const at = deps.clock.now();
      posted.push({ key, userId: m.userId, ts, at, remindAt: remindAtAfterAsk(run, m, at) });
      scheduleFlush();
    }
  };
  const guarded = async () => {
    try {
      await worker();
    } catch (err) {
      broken ??= err;
    }
  };
  await Promise.all(Array.from({ length: Math.min(POSTS_IN_FLIGHT, members.length) }, guarded));
  while (flushing) await flushing;
  await flush();
  // Claims never posted (the run stopped, or a statement failed): nothing went out under them.
  await recordBatch(
    deps.db,
    run,
    [],
    [...pending].map((key) => ({ key, state: "failed" as const })),
  );
  if (broken) throw broken;
  if (stopped) throw stopped;
  return fallback;
}

/** A chunk stopped with its run: members whose ask never went out are not asked (`pending`), as askStopped. */
export async function asksStopped(deps: Deps, p: Payload): Promise<void> {
  for (const userId of p.userIds) {
    if (await unaskParticipant(deps.db, p.runId, userId)) {
      deps.log.info(
        { team_id: p.teamId, run_id: p.runId, job: "standup.asks" },
        "member not asked: the run was stopped",
      );
    }
  }
}
