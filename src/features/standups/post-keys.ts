import type { SQLWrapper } from "drizzle-orm";
import { ANY_PART, postKey, postKeyLike, postKeySql } from "../../chat/post-keys.ts";

/** The chat_posts keys of the standups feature's messages, one place for each format (chat/post-keys.ts). */
export const standupPostKeys = {
  parent: (runId: number) => postKey("run", runId, "parent"),
  ask: (runId: number, userId: string) => postKey("run", runId, "ask", userId),
  remind: (runId: number, userId: string) => postKey("run", runId, "remind", userId),
  /** The message that hands a member's DM conversation over to this run. */
  turn: (runId: number, userId: string) => postKey("run", runId, "turn", userId),
  summary: (runId: number) => postKey("run", runId, "summary"),
  reply: (responseId: number) => postKey("resp", responseId, "reply"),
  confirm: (responseId: number) => postKey("resp", responseId, "confirm"),
  /** The bot's answer to one DM message (its ts), or to one Skip click (its action_ts). */
  dmReply: (teamId: string, channel: string, ts: string) => postKey("dm-reply", teamId, channel, ts),
  skipReply: (teamId: string, channel: string, actionTs: string | number) =>
    postKey("skip-reply", teamId, channel, actionTs),
};

/** A participant's ask key computed in SQL from their run id and user id columns. */
export const askPostKeySql = (runId: SQLWrapper, userId: SQLWrapper) => postKeySql("run", runId, "ask", userId);

/** LIKE patterns of the keys that name a member (their DMs), for erasing their data. */
export const memberPostKeyPatterns = (userId: string) =>
  (["ask", "remind", "turn"] as const).map((kind) => postKeyLike("run", ANY_PART, kind, userId));
