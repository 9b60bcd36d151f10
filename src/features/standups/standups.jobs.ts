import type { WebClient } from "@slack/web-api";
import { InstallationGoneError } from "../../chat/chat-clients.ts";
import { postOnce } from "../../chat/post-once.ts";
import type { Deps } from "../../deps.ts";
import { activeMemberIds, memberNames } from "../members/index.ts";
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
  findParticipant,
  findResponseById,
  findRun,
  listParticipants,
  type RunRow,
  responsesOfRun,
  setParentTs,
  setReplyTs,
  updateParticipant,
} from "./runs.repo.ts";

declare module "../../jobs/queue.ts" {
  interface JobPayloads {
    "standup.fanout": { teamId: string; runId: number };
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

async function ensureParent(deps: Deps, client: WebClient, run: RunRow): Promise<string> {
  if (run.parentTs) return run.parentTs;
  const msg = parentMessage(run);
  const ts = await postOnce(deps, client, {
    key: `run:${run.id}:parent`,
    teamId: run.teamId,
    channel: run.channelId,
    ...msg,
  });
  await setParentTs(deps.db, run.id, ts);
  return ts;
}

async function fanout(deps: Deps, teamId: string, runId: number): Promise<void> {
  const run = await findRun(deps.db, teamId, runId);
  if (run?.status !== "open") return;
  const post = await deps.chat.forTeam(teamId, "post");
  await ensureParent(deps, post, run);
  const read = await deps.chat.forTeam(teamId, "read");
  const participants = await activeMemberIds(deps, teamId, await channelMembers(read, run.channelId));
  // Inserting a participant is the claim; the ask job is enqueued in the same transaction, so a retry of
  // this job neither loses nor doubles anyone.
  const added = await deps.db.transaction(async (tx) => {
    const fresh = await addParticipants(tx, run, participants, deps.clock.now());
    for (const userId of fresh) await deps.queue.enqueue("standup.ask", { teamId, runId, userId }, { tx });
    return fresh.length;
  });
  deps.log.info(
    { team_id: teamId, run_id: runId, job: "standup.fanout", participants: participants.length, added },
    "standup started",
  );
}

async function dmChannel(deps: Deps, client: WebClient, run: RunRow, userId: string): Promise<string> {
  const p = await findParticipant(deps.db, run.id, userId);
  if (p?.dmChannel) return p.dmChannel;
  const opened = await client.conversations.open({ users: userId });
  const channel = opened.channel?.id;
  if (!channel) throw new Error("conversations.open returned no channel");
  await updateParticipant(deps.db, run.id, userId, { dmChannel: channel });
  return channel;
}

async function ask(deps: Deps, teamId: string, runId: number, userId: string): Promise<void> {
  const run = await findRun(deps.db, teamId, runId);
  if (run?.status !== "open") return;
  const client = await deps.chat.forTeam(teamId, "post");
  const channel = await dmChannel(deps, client, run, userId);
  await postOnce(deps, client, { key: `run:${runId}:ask:${userId}`, teamId, channel, ...askMessage(run) });
}

async function remind(deps: Deps, teamId: string, runId: number, userId: string): Promise<void> {
  const run = await findRun(deps.db, teamId, runId);
  const p = await findParticipant(deps.db, runId, userId);
  if (run?.status !== "open" || p?.status !== "asked") return;
  const client = await deps.chat.forTeam(teamId, "post");
  const channel = await dmChannel(deps, client, run, userId);
  await postOnce(deps, client, { key: `run:${runId}:remind:${userId}`, teamId, channel, ...reminderMessage(run) });
}

/** Posts the member's answers in the run's thread, or updates that reply after an edit; then confirms by DM once. */
async function reply(deps: Deps, teamId: string, responseId: number): Promise<void> {
  const r = await findResponseById(deps.db, teamId, responseId);
  if (!r) return;
  const run = await findRun(deps.db, teamId, r.runId);
  if (!run) return;
  const client = await deps.chat.forTeam(teamId, "post");
  const parentTs = await ensureParent(deps, client, run);
  const msg = replyMessage({
    userId: r.userId,
    questions: run.questions,
    answers: r.answers,
    mood: r.mood,
    hasBlocker: r.hasBlocker,
    edited: r.editedAt !== null,
  });
  if (r.replyTs) {
    await client.chat.update({ channel: run.channelId, ts: r.replyTs, text: msg.text, blocks: msg.blocks as never });
  } else {
    const ts = await postOnce(deps, client, {
      key: `resp:${r.id}:reply`,
      teamId,
      channel: run.channelId,
      threadTs: parentTs,
      ...msg,
    });
    await setReplyTs(deps.db, r.id, ts);
  }
  const channel = await dmChannel(deps, client, run, r.userId);
  await postOnce(deps, client, { key: `resp:${r.id}:confirm`, teamId, channel, ...confirmMessage(run) });
}

async function summary(deps: Deps, teamId: string, runId: number): Promise<void> {
  const run = await findRun(deps.db, teamId, runId);
  if (!run) return;
  const participants = await listParticipants(deps.db, runId);
  const answers = await responsesOfRun(deps.db, runId);
  const answeredBy = new Set(answers.map((a) => a.userId));
  const names = await memberNames(deps, teamId, [...participants.map((p) => p.userId), ...answeredBy]);
  const nameOf = (userId: string) => names.get(userId) ?? userId;
  const msg = summaryMessage({
    asked: participants.length,
    answered: participants.filter((p) => answeredBy.has(p.userId)).length,
    blockers: answers.filter((a) => a.hasBlocker).map((a) => ({ name: nameOf(a.userId), text: a.blockers })),
    missing: participants
      .filter((p) => !answeredBy.has(p.userId) && p.status !== "skipped")
      .map((p) => nameOf(p.userId)),
    skipped: participants
      .filter((p) => p.status === "skipped" && !answeredBy.has(p.userId))
      .map((p) => nameOf(p.userId)),
  });
  const client = await deps.chat.forTeam(teamId, "post");
  const parentTs = await ensureParent(deps, client, run);
  await postOnce(deps, client, {
    key: `run:${runId}:summary`,
    teamId,
    channel: run.channelId,
    threadTs: parentTs,
    ...msg,
  });
}

/** A workspace that uninstalled the app gets no more work: the job ends quietly instead of retrying. */
function forInstalled<P extends { teamId: string }>(fn: (p: P) => Promise<void>) {
  return async (p: P) => {
    try {
      await fn(p);
    } catch (err) {
      if (err instanceof InstallationGoneError) return;
      throw err;
    }
  };
}

export function standupJobs(deps: Deps): void {
  deps.queue.register(
    "standup.fanout",
    forInstalled((p) => fanout(deps, p.teamId, p.runId)),
    { concurrency: 4 },
  );
  deps.queue.register(
    "standup.ask",
    forInstalled((p) => ask(deps, p.teamId, p.runId, p.userId)),
    { concurrency: 16 },
  );
  deps.queue.register(
    "standup.remind",
    forInstalled((p) => remind(deps, p.teamId, p.runId, p.userId)),
    { concurrency: 8 },
  );
  deps.queue.register(
    "standup.reply",
    forInstalled((p) => reply(deps, p.teamId, p.responseId)),
    { concurrency: 8 },
  );
  deps.queue.register(
    "standup.summary",
    forInstalled((p) => summary(deps, p.teamId, p.runId)),
    { concurrency: 4 },
  );
}
