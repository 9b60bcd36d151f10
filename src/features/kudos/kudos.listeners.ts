import type { ChatListeners } from "../../chat/router.ts";
import type { Deps } from "../../deps.ts";
import { kudosCommand } from "./kudos.command.ts";
import { channelKudosReceivers, clip, storedText } from "./kudos.parse.ts";
import { MAX_KUDO_LENGTH } from "./kudos.rules.ts";
import { giveKudos } from "./kudos.service.ts";

interface SlackMessage {
  subtype?: string;
  user?: string;
  text?: string;
  ts?: string;
  thread_ts?: string;
  bot_id?: string;
  app_id?: string;
  /** The author's workspace: another organisation's in a shared channel. */
  user_team?: string;
}

interface MessageEvent extends SlackMessage {
  channel?: string;
  channel_type?: string;
  /** message_changed: the message as it stands after the edit. */
  message?: SlackMessage;
}

/** Subtypes that are still a person's message in the channel; every other (bots, joins, topics …) is ignored. */
const PERSON_SUBTYPES = new Set([undefined, "thread_broadcast", "file_share"]);

/** A person's message, as it stands, in a public or private channel (not a DM); undefined for anything else. */
function personMessage(e: MessageEvent, teamId: string): (SlackMessage & { channel: string }) | undefined {
  if (e.channel_type !== "channel" && e.channel_type !== "group") return undefined;
  const m = e.subtype === "message_changed" ? e.message : e;
  if (!m || !e.channel || !PERSON_SUBTYPES.has(m.subtype) || m.bot_id || m.app_id || !m.user || !m.ts) return undefined;
  if (m.user_team && m.user_team !== teamId) return undefined;
  return { ...m, channel: e.channel };
}

/**
 * Kudos in channel messages: "kudos" and mentions, or `@someone ++`. Slack delivers events in parallel and retries
 * them, and an edit arrives as message_changed with the message's own ts: the key `msg:<channel>:<ts>` gives each
 * person at most one kudo from a message, whichever delivery comes first.
 */
export function kudosListeners(bolt: ChatListeners, deps: Deps): void {
  bolt.verb("kudos", async ({ command, ack, rest }) =>
    ack(
      await kudosCommand(deps, {
        teamId: command.team_id,
        userId: command.user_id,
        channelId: command.channel_id,
        text: rest,
        triggerId: command.trigger_id,
      }),
    ),
  );

  bolt.event("message", async ({ event, body, context }) => {
    const teamId = (body as { team_id?: string }).team_id;
    if (!teamId) return;
    const m = personMessage(event as MessageEvent, teamId);
    if (!m) return;
    // "@upbeat kudos to @ana" addresses the bot; it is not thanking it, so it is left out without a word.
    const receivers = channelKudosReceivers(m.text ?? "").filter((id) => id !== context.botUserId);
    if (receivers.length === 0) return;
    const inThread = m.thread_ts && m.thread_ts !== m.ts ? { threadTs: m.thread_ts } : {};
    await giveKudos(deps, {
      teamId,
      fromUser: m.user!,
      receivers,
      // The channel message itself says it in full; the kudo keeps the first 500 characters.
      message: clip(storedText(m.text ?? ""), MAX_KUDO_LENGTH),
      channelId: m.channel,
      source: "message",
      sourceKey: `msg:${m.channel}:${m.ts}`,
      reactTo: { channelId: m.channel, ts: m.ts! },
      noticeIn: { channelId: m.channel, ...inThread },
    });
  });
}
