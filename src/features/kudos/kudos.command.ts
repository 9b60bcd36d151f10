import { randomUUID } from "node:crypto";
import type { Deps } from "../../deps.ts";
import { givenText, NO_MENTION_TEXT, refusalText, tooLongText, unknownNamesText } from "./kudos.messages.ts";
import {
  charLength,
  mentionedUsers,
  mentionPlainNames,
  plainMentions,
  slackQuote,
  storedText,
  withoutLeadingMentions,
} from "./kudos.parse.ts";
import { selectMembersByName } from "./kudos.repo.ts";
import { MAX_KUDO_LENGTH } from "./kudos.rules.ts";
import { giveKudos } from "./kudos.service.ts";

export interface KudosCommand {
  teamId: string;
  userId: string;
  channelId: string;
  /** What follows `kudos`, as Slack sent it. */
  text: string;
  /** Unique per invocation: the command's claim that it gives each person one kudo. */
  triggerId?: string;
}

/** The command's immediate answer: public when every kudo was given, else private to the giver. */
export interface CommandReply {
  response_type: "in_channel" | "ephemeral";
  text: string;
}

const privately = (text: string): CommandReply => ({ response_type: "ephemeral", text });

/**
 * Plain `@name`s (a command without "escape users") resolved through the members table: a name that is nobody's, or
 * several people's, is reported instead of guessed.
 */
async function resolveNames(
  deps: Pick<Deps, "db">,
  teamId: string,
  names: string[],
): Promise<{ ids: Map<string, string>; unknown: string[] }> {
  const found = await selectMembersByName(deps.db, teamId, names);
  const ids = new Map<string, string>();
  const unknown: string[] = [];
  for (const name of names) {
    const matches = new Set(
      found
        .filter((m) => m.displayName.toLowerCase() === name || m.realName.toLowerCase() === name)
        .map((m) => m.userId),
    );
    if (matches.size === 1) ids.set(name, [...matches][0]!);
    else unknown.push(name);
  }
  return { ids, unknown };
}

/** `/upbeat kudos @someone message`: gives each person mentioned a kudo and answers at once. */
export async function kudosCommand(deps: Deps, cmd: KudosCommand): Promise<CommandReply> {
  let text = cmd.text.trim();
  const plain = plainMentions(text);
  if (plain.length > 0) {
    const { ids, unknown } = await resolveNames(deps, cmd.teamId, plain);
    if (unknown.length > 0) return privately(unknownNamesText(unknown));
    text = mentionPlainNames(text, (name) => ids.get(name));
  }
  const receivers = mentionedUsers(text);
  if (receivers.length === 0) return privately(NO_MENTION_TEXT);
  const message = withoutLeadingMentions(storedText(text));
  const length = charLength(message);
  if (length > MAX_KUDO_LENGTH) return privately(tooLongText(length, MAX_KUDO_LENGTH));
  const outcome = await giveKudos(deps, {
    teamId: cmd.teamId,
    fromUser: cmd.userId,
    receivers,
    message,
    channelId: cmd.channelId,
    source: "command",
    sourceKey: `cmd:${cmd.triggerId || randomUUID()}`,
  });
  const got = [...outcome.given.map((g) => g.userId), ...outcome.already];
  if (outcome.refused.length === 0) {
    return { response_type: "in_channel", text: givenText(cmd.userId, got, slackQuote(message)) };
  }
  const given = got.length > 0 ? `${givenText(cmd.userId, got, slackQuote(message))}\n` : "";
  return privately(`${given}${refusalText(outcome.refused)}`);
}
