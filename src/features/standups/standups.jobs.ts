import type { WebClient } from "@slack/web-api";
import { type PostOptions, postOnce } from "../../chat/post-once.ts";
import { pacedCall } from "../../chat/rate-buckets.ts";
import { openDm } from "../../chat/slack-calls.ts";
import type { Deps } from "../../deps.ts";
import { FORMER_MEMBER } from "../../lib/person-names.ts";
import { activeMemberIds, activeMemberZones, memberNames } from "../members/index.ts";
import { DEFAULT_MAX_LATE_MINUTES } from "../schedules/index.ts";
import { selectAwayOn } from "../time-off/index.ts";
import { ASK_CHUNK, askChunk, asksStopped } from "./ask-batch.ts";
import { awayInRun } from "./away.ts";
import { openBlockerOf } from "./blocker-items.ts";
import { promptFor } from "./blocker-prompt.ts";
import { summaryBlockers } from "./blocker-summary.ts";
import { askedFirstQuestion, claimAskTurn, handOverDm, handOverIfTurnFree } from "./dm-conversation.ts";
import { convertEarlyAnswer } from "./early-convert.ts";
import { alreadyAnsweredMessage, QUESTIONS_CHANGED_NOTE } from "./early-messages.ts";
import { memberZone } from "./member-timezone.ts";
import {
  askMessage,
  confirmMessage,
  parentMessage,
  reminderMessage,
  replyMessage,
  summaryMessage,
} from "./messages.ts";
import {
  addParticipants,
  addPendingParticipants,
  askContext,
  askedParticipants,
  askPostKey,
  findParticipant,
  lastDmChannel,
  type ParticipantRow,
  participantsWithStatus,
  unaskParticipant,
  updateParticipant,
  wasAsked,
} from "./participants.repo.ts";
import { standupPostKeys } from "./post-keys.ts";
import { markAsked } from "./reminders.repo.ts";
import { findResponseById, findResponseOfRun, type ResponseRow, responsesOfRun, setReplyTs } from "./responses.repo.ts";
import { closeRunWithLastWindow, findRun, type RunRow, setParentTs } from "./runs.repo.ts";
import { memberTimes } from "./scheduler.ts";
import { assertLive, quietly, whileLive } from "./stopped-run.ts";

/** What a member-timezone fan-out needs from the schedule, as it was when the run was claimed. */
interface MemberTiming {
  time: string;
  reminderMinutes: number | null;
}

declare module "../../jobs/queue.ts" {
  interface JobPayloads {
    "standup.fanout": { teamId: string; runId: number; memberTimezone?: MemberTiming };
    "standup.ask": { teamId: string; runId: number; userId: string };
    "standup.remind": { teamId: string; runId: number; userId: string };
    "standup.reply": { teamId: string; responseId: number };
    "standup.summary": { teamId: string; runId: number };
  }
}

/** Channel members, following conversations.members cursors. */
async function channelMembers(client: WebClient, channel: string): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.conversations.members({ channel, limit: 500, ...(cursor ? { cursor } : {}) });
    ids.push(...(page.members ?? []));
    cursor = page.response_metadata?.next_cursor || undefined;
  } while (cursor);
  return ids;
}

async function ensureParent(deps: Deps, client: WebClient, run: RunRow, opts: PostOptions = {}): Promise<string> {
  if (run.parentTs) return run.parentTs;
  const msg = parentMessage(run);
  const ts = await postOnce(
    deps,
    client,
    { key: standupPostKeys.parent(run.id), teamId: run.teamId, channel: run.channelId, ...msg },
    opts,
  );
  await setParentTs(deps.db, run.id, ts);
  return ts;
}

async function fanout(deps: Deps, teamId: string, runId: number, timing?: MemberTiming): Promise<void> {
  const run = await findRun(deps.db, teamId, runId);
  if (run?.status !== "open") return;
  if (run.memberTimezone) return planMemberTimezoneRun(deps, run, timing);
  const post = await deps.chat.forTeam(teamId, "post");
  await ensureParent(deps, post, run, whileLive(deps, run));
  const read = await deps.chat.forTeam(teamId, "read");
  const participants = await activeMemberIds(deps, teamId, await channelMembers(read, run.channelId));
  // Inserting a participant is the claim; the ask job is enqueued in the same transaction, so a retry of
  // this job neither loses nor doubles anyone. The n-th chunk of asks of a run has priority -n: when many workspaces
  // fan out at once, the workers take every workspace's first chunk, then every workspace's second ones, and so on,
  // so a workspace paused by a Slack 429 (rate-buckets.ts) holds up one of them, not all of them.
  const added = await deps.db.transaction(async (tx) => {
    await assertLive(tx, run);
    const away = await selectAwayOn(tx, teamId, participants, run.localDate);
    const fresh = await addParticipants(tx, run, participants, deps.clock.now(), away);
    // In chunks (ask-batch.ts): one job asks up to ASK_CHUNK members with a few statements for all of them.
    const chunks = Array.from({ length: Math.ceil(fresh.length / ASK_CHUNK) }, (_, n) => ({
      teamId,
      runId,
      userIds: fresh.slice(n * ASK_CHUNK, (n + 1) * ASK_CHUNK),
      chunk: n,
    }));
    await deps.queue.enqueueMany("standup.asks", chunks, { tx, priority: (n) => -n });
    return fresh.length;
  });
  if (participants.length === 0) deps.metrics.runsSkipped.inc({ reason: "nobody_to_ask" });
  deps.log.info(
    { team_id: teamId, run_id: runId, job: "standup.fanout", participants: participants.length, added },
    "standup started",
  );
}

/**
 * A member-timezone run's fan-out asks nobody yet: it plans each channel member's own ask, reminder and
 * window on the run's date in the timezone Slack gives them now (a later change applies from their next
 * date), and the run stays open until the last window ends. The scheduler asks each at their time.
 */
async function planMemberTimezoneRun(deps: Deps, run: RunRow, timing: MemberTiming | undefined): Promise<void> {
  if (!timing) throw new Error("a member-timezone fan-out needs the schedule's timing");
  const read = await deps.chat.forTeam(run.teamId, "read");
  const people = await activeMemberZones(deps, run.teamId, await channelMembers(read, run.channelId));
  const now = deps.clock.now();
  const planned = people.map((p) => ({
    userId: p.userId,
    ...memberTimes(timing, memberZone(p.tz, run.scheduleTz), run.localDate),
  }));
  // Inserting a participant is the claim: a retry of this job neither loses nor doubles anyone.
  const added = await deps.db.transaction(async (tx) => {
    await assertLive(tx, run);
    const away = await selectAwayOn(
      tx,
      run.teamId,
      planned.map((p) => p.userId),
      run.localDate,
    );
    const n = await addPendingParticipants(tx, run, planned, now, away);
    await closeRunWithLastWindow(tx, run.id);
    return n;
  });
  if (people.length === 0) deps.metrics.runsSkipped.inc({ reason: "nobody_to_ask" });
  deps.log.info(
    {
      team_id: run.teamId,
      run_id: run.id,
      job: "standup.fanout",
      participants: people.length,
      added,
      // Already past the catch-up window (downtime): these members are not asked on this date.
      too_late: planned.filter((p) => now.getTime() - p.askAt.getTime() >= DEFAULT_MAX_LATE_MINUTES * 60_000).length,
    },
    "member-timezone standup planned",
  );
}

/** The participant's DM channel; pass their row when the caller has just read it (one query less per DM). */
async function dmChannel(
  deps: Deps,
  client: WebClient,
  run: RunRow,
  userId: string,
  known?: ParticipantRow,
): Promise<string> {
  const p = known ?? (await findParticipant(deps.db, run.id, userId));
  if (p?.dmChannel) return p.dmChannel;
  // The app's DM with a person keeps its id: one opened for an earlier run is used again, so only someone's first
  // standup costs a conversations.open (tier 3, ~50 a minute per workspace).
  const earlier = await lastDmChannel(deps.db, run.teamId, userId);
  if (earlier) {
    await updateParticipant(deps.db, run.id, userId, { dmChannel: earlier });
    return earlier;
  }
  // Tier 3, paced per workspace like every instance's other opens; a 429 is waited out (or defers the job).
  const channel = await openDm(deps, client, run.teamId, userId);
  await updateParticipant(deps.db, run.id, userId, { dmChannel: channel });
  return channel;
}

async function ask(deps: Deps, teamId: string, runId: number, userId: string): Promise<void> {
  const run = await findRun(deps.db, teamId, runId);
  if (!run) return;
  // Closed before its ask went out (a retry that came too late): the member was not asked.
  if (run.status !== "open") {
    await unaskParticipant(deps.db, runId, userId);
    return;
  }
  // On time off on the run's date (set after the run planned its participants): not asked.
  if (await awayInRun(deps.db, run, userId)) return;
  const client = await deps.chat.forTeam(teamId, "post");
  const live = whileLive(deps, run);
  // A member-timezone run's thread starts with its first ask, not when it is planned up to a day before.
  if (run.memberTimezone) await ensureParent(deps, client, run, live);
  // The participant, whether they answered ahead and their open blocker: one statement (the fan-out's hot path).
  const context = await askContext(deps.db, run, userId);
  const participant = context?.participant;
  const channel = await dmChannel(deps, client, run, userId, participant);
  // Answered ahead: the early answer becomes the response (once), and the DM thanks instead of asking. It goes out
  // under the response's confirmation key, so the reply job does not confirm a second time. An early answer to
  // questions since changed is dropped: the member is asked as usual, told why.
  const early =
    participant?.status === "answered"
      ? { responseId: (await findResponseOfRun(deps.db, runId, userId))?.id }
      : context?.answeredAhead !== false
        ? await convertEarlyAnswer(deps, run, userId)
        : undefined;
  const answered = early && "responseId" in early ? early.responseId : undefined;
  if (answered !== undefined) {
    await postOnce(
      deps,
      client,
      { key: standupPostKeys.confirm(answered), teamId, channel, ...alreadyAnsweredMessage(run) },
      { ...live, onPosted: () => deps.metrics.dmsSent.inc({ kind: "ask" }) },
    );
    if (participant) await markAsked(deps.db, run, participant, deps.clock.now());
    return;
  }
  const turn = await claimAskTurn(deps, run, userId);
  // "Still blocked on …?" leads the DM when an earlier blocker is open (read with the participant, above).
  const blocker = context
    ? context.openBlocker && { ...context.openBlocker, status: "open" as const }
    : run.blockerQuestion === null
      ? undefined
      : await openBlockerOf(deps.db, teamId, run.scheduleId, userId);
  const prompt = promptFor(blocker, run.localDate);
  const ts = await postOnce(
    deps,
    client,
    {
      key: askPostKey(runId, userId),
      teamId,
      channel,
      ...askMessage(run, {
        ...turn,
        blocker: prompt,
        ...(early && "questionsChanged" in early ? { note: QUESTIONS_CHANGED_NOTE } : {}),
      }),
    },
    { ...live, onPosted: () => deps.metrics.dmsSent.inc({ kind: "ask" }) },
  );
  if (turn.conversation) await askedFirstQuestion(deps, run, userId, ts);
  else await handOverIfTurnFree(deps, run, userId);
  // Their reminder counts from now, when the ask went out (not from the run's start: downtime, a slow fan-out).
  // markAsked writes only while asked_at is unset, so the row read before the post is enough.
  if (participant) await markAsked(deps.db, run, participant, deps.clock.now());
}

/**
 * An ask that ended because its run was stopped did not ask the member: they go back to `pending` (unless the DM
 * went out after all), so a run resumed the same day neither reminds them nor names them as missing.
 */
async function askStopped(deps: Deps, p: { teamId: string; runId: number; userId: string }): Promise<void> {
  if (await unaskParticipant(deps.db, p.runId, p.userId)) {
    deps.log.info({ team_id: p.teamId, run_id: p.runId, job: "standup.ask" }, "member not asked: the run was stopped");
  }
}

async function remind(deps: Deps, teamId: string, runId: number, userId: string): Promise<void> {
  const run = await findRun(deps.db, teamId, runId);
  const p = await findParticipant(deps.db, runId, userId);
  if (run?.status !== "open" || p?.status !== "asked") return;
  // Still `asked`, but the ask itself never went out (its job gave up, or is still being retried): nothing to remind.
  if (!(await wasAsked(deps.db, runId, userId))) return;
  // Went on time off after the ask: not reminded, and counted as away.
  if (await awayInRun(deps.db, run, userId)) return;
  const client = await deps.chat.forTeam(teamId, "post");
  const channel = await dmChannel(deps, client, run, userId, p);
  await postOnce(
    deps,
    client,
    { key: standupPostKeys.remind(runId, userId), teamId, channel, ...reminderMessage(run) },
    { ...whileLive(deps, run), onPosted: () => deps.metrics.dmsSent.inc({ kind: "reminder" }) },
  );
}

/** Edits racing the reply job: after this many rounds of "it changed again" the job retries later instead. */
const MAX_REPLY_ROUNDS = 5;

function replyFor(run: RunRow, r: ResponseRow) {
  return replyMessage({
    userId: r.userId,
    questions: run.questions,
    answers: r.answers,
    mood: r.mood,
    hasBlocker: r.hasBlocker,
    blockerQuestion: run.blockerQuestion,
    edited: r.editedAt !== null,
    questionDetails: run.questionDetails,
    late: r.late,
    via: r.via,
  });
}

/**
 * Posts the member's answers in the run's thread, or updates that reply after an edit, until Slack shows the
 * latest version (`responses.version`); then confirms by DM once. Every edit enqueues this job, and whichever
 * job writes last reads the version again afterwards, so an edit that lands while another job is posting or
 * updating always reaches Slack.
 */
async function reply(deps: Deps, teamId: string, responseId: number): Promise<void> {
  const first = await findResponseById(deps.db, teamId, responseId);
  if (!first) return;
  const run = await findRun(deps.db, teamId, first.runId);
  if (!run) return;
  const client = await deps.chat.forTeam(teamId, "post");
  const parentTs = await ensureParent(deps, client, run);
  /** The version this job knows Slack shows; 0: not known. */
  let shown = 0;
  let ts = first.replyTs;
  if (!ts) {
    ts = await postOnce(deps, client, {
      key: standupPostKeys.reply(first.id),
      teamId,
      channel: run.channelId,
      threadTs: parentTs,
      ...replyFor(run, first),
    });
    await setReplyTs(deps.db, first.id, ts);
    // postOnce may return a reply an earlier job posted (its reply_ts not stored yet) with an earlier version:
    // only a first version is sure to be what Slack shows.
    if (first.version === 1) shown = 1;
  }
  for (let round = 0; ; round++) {
    const latest = await findResponseById(deps.db, teamId, responseId);
    if (!latest || latest.version <= shown) break;
    if (round === MAX_REPLY_ROUNDS) throw new Error(`response ${responseId} keeps changing; retrying the reply later`);
    const msg = replyFor(run, latest);
    // Tier 3, paced per workspace: a 429 is waited out, or the job is deferred (an update is safe to repeat).
    await pacedCall(deps.db, teamId, "chat.update", () =>
      client.chat.update({ channel: run.channelId, ts, text: msg.text, blocks: msg.blocks }),
    );
    shown = latest.version;
  }
  const channel = await dmChannel(deps, client, run, first.userId);
  await postOnce(deps, client, { key: standupPostKeys.confirm(first.id), teamId, channel, ...confirmMessage(run) });
}

async function summary(deps: Deps, teamId: string, runId: number): Promise<void> {
  const run = await findRun(deps.db, teamId, runId);
  if (!run) return;
  // Only who was actually asked: not pending participants (a member-timezone ask dropped or too late, an ask ended
  // by a pause, a deletion or an uninstall), nor those whose ask DM never went out.
  const participants = await askedParticipants(deps.db, runId);
  // Nobody was asked (an empty channel, or a fan-out or asks ended by a stop): a summary would only say "0 asked".
  if (participants.length === 0) {
    deps.log.info({ team_id: teamId, run_id: runId, job: "standup.summary" }, "no summary: nobody was asked");
    return;
  }
  const [answers, away] = await Promise.all([
    responsesOfRun(deps.db, runId),
    participantsWithStatus(deps.db, runId, "away"),
  ]);
  const answeredBy = new Set(answers.map((a) => a.userId));
  const items = await summaryBlockers(deps.db, run);
  const names = await memberNames(deps, teamId, [
    ...participants.map((p) => p.userId),
    ...answeredBy,
    ...away,
    ...items.userIds,
  ]);
  const nameOf = (userId: string) => names.get(userId) ?? FORMER_MEMBER;
  const msg = summaryMessage({
    asked: participants.length,
    answered: participants.filter((p) => answeredBy.has(p.userId)).length,
    ...items.forSummary(answers, nameOf),
    missing: participants
      .filter((p) => !answeredBy.has(p.userId) && p.status !== "skipped")
      .map((p) => nameOf(p.userId)),
    skipped: participants
      .filter((p) => p.status === "skipped" && !answeredBy.has(p.userId))
      .map((p) => nameOf(p.userId)),
    away: away.map(nameOf).sort((a, b) => a.localeCompare(b)),
  });
  const client = await deps.chat.forTeam(teamId, "post");
  const live = whileLive(deps, run);
  const parentTs = await ensureParent(deps, client, run, live);
  await postOnce(
    deps,
    client,
    { key: standupPostKeys.summary(runId), teamId, channel: run.channelId, threadTs: parentTs, ...msg },
    live,
  );
}

export function standupJobs(deps: Deps): void {
  deps.queue.register(
    "standup.fanout",
    quietly(
      deps,
      "standup.fanout",
      (p) => fanout(deps, p.teamId, p.runId, p.memberTimezone),
      // A run stopped before it asked anyone (paused, deleted, uninstalled) was skipped.
      async (_p, standing) => deps.metrics.runsSkipped.inc({ reason: standing }),
    ),
    { concurrency: 4 },
  );
  // The single ask: for members a chunk leaves to it (standup.asks runs it in its own job too), reminders' and
  // member-timezone asks. Registered before the chunks: a drain round (tests) runs the single asks a chunk leaves
  // in the next round, as it would a failed ask's retry.
  const askOne = quietly(
    deps,
    "standup.ask",
    (p: { teamId: string; runId: number; userId: string }) => ask(deps, p.teamId, p.runId, p.userId),
    (p) => askStopped(deps, p),
  );
  deps.queue.register("standup.ask", askOne, { concurrency: 16 });
  deps.queue.register(
    "standup.asks",
    quietly(
      deps,
      "standup.asks",
      (p) => askChunk(deps, p, askOne),
      (p) => asksStopped(deps, p),
    ),
    { concurrency: 4 },
  );
  deps.queue.register(
    "standup.remind",
    quietly(deps, "standup.remind", (p) => remind(deps, p.teamId, p.runId, p.userId)),
    { concurrency: 8 },
  );
  deps.queue.register(
    "standup.reply",
    quietly(deps, "standup.reply", (p) => reply(deps, p.teamId, p.responseId)),
    { concurrency: 8 },
  );
  deps.queue.register(
    "standup.turn",
    quietly(deps, "standup.turn", (p) => handOverDm(deps, p.teamId, p.userId)),
    { concurrency: 4 },
  );
  deps.queue.register(
    "standup.summary",
    quietly(deps, "standup.summary", (p) => summary(deps, p.teamId, p.runId)),
    { concurrency: 4 },
  );
}
