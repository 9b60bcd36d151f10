import { DateTime } from "luxon";
import { findActiveInstallation } from "../../chat/installations.repo.ts";
import type { Kudo, LeaderboardEntry } from "../../contract/index.ts";
import { LEADERBOARD_LIMIT, RECENT_KUDOS_LIMIT } from "../../contract/index.ts";
import type { Executor } from "../../db/client.ts";
import type { KudoSource } from "../../db/schema.ts";
import type { Deps } from "../../deps.ts";
import { shiftDate, todayIn, workspaceTimezone } from "../calendar/index.ts";
import { selectMemberStates } from "../members/index.ts";
import type { KudoGivenEvent } from "./events.ts";
import { type Refused, refusalText } from "./kudos.messages.ts";
import {
  countGivenOn,
  countKudosBetween,
  insertKudo,
  lockGiver,
  type NamedKudo,
  selectLeaderboard,
  selectReceiversOf,
  selectRecentKudos,
} from "./kudos.repo.ts";
import { DAILY_KUDOS_LIMIT, REACTIONS_SCOPE } from "./kudos.rules.ts";

type GiveDeps = Pick<Deps, "db" | "clock" | "queue" | "events">;

export interface GiveInput {
  teamId: string;
  fromUser: string;
  /** Everyone the message names, in order; duplicates count once. */
  receivers: string[];
  /** As stored: at most MAX_KUDO_LENGTH characters (the caller refuses or clips). */
  message: string;
  channelId: string;
  source: KudoSource;
  /** The message's unique name: each person gets at most one kudo from it. */
  sourceKey: string;
  /** A channel message the bot acknowledges with a reaction once a kudo from it is stored (when it may react). */
  reactTo?: { channelId: string; ts: string };
  /** Where the giver is told privately why someone got no kudo; without it the caller tells them. */
  noticeIn?: { channelId: string; threadTs?: string };
}

export interface GiveOutcome {
  given: { kudoId: number; userId: string }[];
  /** People this message had already given a kudo (a Slack retry, an edit, the same message seen twice). */
  already: string[];
  refused: Refused[];
}

/** Refusals that need no transaction: oneself, and anyone who is not an active member (bots and apps never are). */
async function screen(
  deps: Pick<Deps, "db">,
  teamId: string,
  fromUser: string,
  receivers: string[],
): Promise<{ eligible: string[]; refused: Refused[] }> {
  const states = await selectMemberStates(deps.db, teamId, [fromUser, ...receivers]);
  if (!states.get(fromUser)?.active) {
    return { eligible: [], refused: receivers.map((userId) => ({ userId, reason: "giver_not_member" })) };
  }
  const eligible: string[] = [];
  const refused: Refused[] = [];
  for (const userId of receivers) {
    if (userId === fromUser) refused.push({ userId, reason: "self" });
    else if (!states.get(userId)?.active) refused.push({ userId, reason: "not_member" });
    else eligible.push(userId);
  }
  return { eligible, refused };
}

async function canReact(ex: Executor, teamId: string): Promise<boolean> {
  const inst = await findActiveInstallation(ex, teamId);
  return (inst?.scopes ?? "").split(/[\s,]+/).includes(REACTIONS_SCOPE);
}

/** What the same checks would refuse now, without storing anything (the standup modal asks before it saves). */
export async function previewKudos(
  deps: Pick<Deps, "db" | "clock">,
  input: Pick<GiveInput, "teamId" | "fromUser" | "receivers"> & { sourceKey?: string },
): Promise<Refused[]> {
  const receivers = [...new Set(input.receivers)];
  const screened = await screen(deps, input.teamId, input.fromUser, receivers);
  const refused = screened.refused;
  // People this message already thanked get nothing new: the limit is not theirs to reach.
  const before = input.sourceKey ? new Set(await selectReceiversOf(deps.db, input.teamId, input.sourceKey)) : new Set();
  const eligible = screened.eligible.filter((u) => !before.has(u));
  if (eligible.length === 0) return refused;
  const today = todayIn(await workspaceTimezone(deps, input.teamId), deps.clock.now());
  const left = DAILY_KUDOS_LIMIT - (await countGivenOn(deps.db, input.teamId, input.fromUser, today));
  return [...refused, ...eligible.slice(Math.max(left, 0)).map((userId) => ({ userId, reason: "limit" as const }))];
}

/**
 * Gives each person named at most one kudo from this message. The giver's daily limit is counted and used under
 * the giver's lock, so parallel deliveries never exceed it. Each stored kudo emits `kudos.given` in the same
 * transaction; the reaction and the private notice of refusals are jobs enqueued with it.
 */
export async function giveKudos(deps: GiveDeps, input: GiveInput): Promise<GiveOutcome> {
  const receivers = [...new Set(input.receivers)];
  const { eligible, refused } = await screen(deps, input.teamId, input.fromUser, receivers);
  const timezone = await workspaceTimezone(deps, input.teamId);
  return deps.db.transaction(async (tx) => {
    await lockGiver(tx, input.teamId, input.fromUser);
    const now = deps.clock.now();
    const givenOn = todayIn(timezone, now);
    const before = new Set(await selectReceiversOf(tx, input.teamId, input.sourceKey));
    let used = eligible.some((u) => !before.has(u)) ? await countGivenOn(tx, input.teamId, input.fromUser, givenOn) : 0;
    const outcome: GiveOutcome = { given: [], already: [], refused };
    for (const toUser of eligible) {
      if (before.has(toUser)) {
        outcome.already.push(toUser);
        continue;
      }
      if (used >= DAILY_KUDOS_LIMIT) {
        outcome.refused.push({ userId: toUser, reason: "limit" });
        continue;
      }
      const row = await insertKudo(tx, {
        teamId: input.teamId,
        fromUser: input.fromUser,
        toUser,
        message: input.message,
        channelId: input.channelId,
        source: input.source,
        sourceKey: input.sourceKey,
        givenOn,
        createdAt: now,
      });
      if (!row) {
        outcome.already.push(toUser);
        continue;
      }
      used += 1;
      outcome.given.push({ kudoId: row.id, userId: toUser });
      const data: KudoGivenEvent = {
        kudoId: row.id,
        fromUser: row.fromUser,
        toUser: row.toUser,
        message: row.message,
        channelId: row.channelId,
        createdAt: row.createdAt.toISOString(),
      };
      await deps.events.emit(tx, { type: "kudos.given", teamId: input.teamId, data, at: now });
    }
    const react = input.reactTo;
    if (react && outcome.given.length > 0 && (await canReact(tx, input.teamId))) {
      const key = `kudos:react:${input.teamId}:${react.channelId}:${react.ts}`;
      await deps.queue.enqueue(
        "kudos.react",
        { teamId: input.teamId, key, channelId: react.channelId, ts: react.ts },
        { tx, singletonKey: key },
      );
    }
    const notice = input.noticeIn;
    if (notice && outcome.refused.length > 0) {
      const key = `kudos:notice:${input.teamId}:${input.sourceKey}`;
      await deps.queue.enqueue(
        "kudos.notice",
        {
          teamId: input.teamId,
          key,
          channelId: notice.channelId,
          userId: input.fromUser,
          text: refusalText(outcome.refused),
          ...(notice.threadTs ? { threadTs: notice.threadTs } : {}),
        },
        { tx, singletonKey: key },
      );
    }
    return outcome;
  });
}

function present(k: NamedKudo): Kudo {
  return {
    id: k.id,
    from_user: k.fromUser,
    to_user: k.toUser,
    from_name: k.fromName,
    to_name: k.toName,
    message: k.message,
    channel_id: k.channelId,
    created_at: k.createdAt.toISOString(),
  };
}

/** The workspace's newest kudos, newest first (since an instant, when given). */
export async function recentKudos(
  deps: Pick<Deps, "db">,
  teamId: string,
  opts: { since?: Date; limit?: number } = {},
): Promise<Kudo[]> {
  const found = await selectRecentKudos(deps.db, teamId, {
    ...(opts.since ? { since: opts.since } : {}),
    limit: opts.limit ?? RECENT_KUDOS_LIMIT,
  });
  return found.map(present);
}

/** The last `days` days in the workspace timezone, today included: dates and the instants that bound them. */
export async function kudosWindow(
  deps: Pick<Deps, "db" | "clock">,
  teamId: string,
  days: number,
): Promise<{ from: string; to: string; start: Date; end: Date }> {
  const timezone = await workspaceTimezone(deps, teamId);
  const to = todayIn(timezone, deps.clock.now());
  const from = shiftDate(to, -(days - 1));
  const start = DateTime.fromISO(from, { zone: timezone }).startOf("day").toJSDate();
  const end = DateTime.fromISO(shiftDate(to, 1), { zone: timezone }).startOf("day").toJSDate();
  return { from, to, start, end };
}

/** Who received the most kudos in the window, most first, ties by name; at most LEADERBOARD_LIMIT people. */
export async function leaderboard(
  deps: Pick<Deps, "db">,
  teamId: string,
  window: { start: Date; end: Date },
  limit = LEADERBOARD_LIMIT,
): Promise<LeaderboardEntry[]> {
  const found = await selectLeaderboard(deps.db, teamId, { from: window.start, to: window.end }, limit);
  return found.map((r) => ({ user_id: r.userId, real_name: r.realName, kudos_received: r.kudosReceived }));
}

/** How many kudos the workspace gave between two instants (start included, end not): the e-mail digest's count. */
export function kudosGivenBetween(
  deps: Pick<Deps, "db">,
  teamId: string,
  window: { start: Date; end: Date },
): Promise<number> {
  return countKudosBetween(deps.db, teamId, { from: window.start, to: window.end });
}
