import { DAILY_KUDOS_LIMIT } from "./kudos.rules.ts";

/** Why a person did not get a kudo. */
export type Refusal = "self" | "not_member" | "limit" | "giver_not_member";

export interface Refused {
  userId: string;
  reason: Refusal;
}

function people(ids: string[]): string {
  const mentions = ids.map((id) => `<@${id}>`);
  if (mentions.length <= 2) return mentions.join(" and ");
  return `${mentions.slice(0, -1).join(", ")} and ${mentions.at(-1)}`;
}

/** One line per kind of refusal, for the giver only (an ephemeral message or the command's private reply). */
export function refusalText(refused: Refused[]): string {
  const of = (reason: Refusal) => refused.filter((r) => r.reason === reason).map((r) => r.userId);
  const lines: string[] = [];
  if (of("giver_not_member").length > 0) lines.push("Only members of this workspace can give kudos.");
  if (of("self").length > 0) lines.push("You can't give kudos to yourself.");
  const outsiders = of("not_member");
  if (outsiders.length > 0) {
    lines.push(
      `${people(outsiders)} can't get kudos: kudos are for active members of this workspace, not bots or apps.`,
    );
  }
  const over = of("limit");
  if (over.length > 0) {
    lines.push(
      `You've given ${DAILY_KUDOS_LIMIT} kudos today, the daily limit, so ${people(over)} didn't get one. ` +
        "More tomorrow!",
    );
  }
  return lines.map((l) => `:warning: ${l}`).join("\n");
}

export function givenText(giver: string, receivers: string[], quoted: string): string {
  return `:tada: <@${giver}> gave kudos to ${people(receivers)}${quoted ? `: ${quoted}` : "!"}`;
}

export const COMMAND_USAGE = "`/upbeat kudos @someone thanks for …`";

export const NO_MENTION_TEXT =
  `Who are the kudos for? Mention them: ${COMMAND_USAGE}. Pick each person from Slack's list as you type ` +
  "their name, so the command sees who they are.";

export function unknownNamesText(names: string[]): string {
  return (
    `I couldn't tell who ${names.map((n) => `@${n}`).join(", ")} ${names.length === 1 ? "is" : "are"}. Pick each ` +
    `person from Slack's list as you type their name, then send ${COMMAND_USAGE} again.`
  );
}

export function tooLongText(length: number, max: number): string {
  return `A kudo can be at most ${max} characters; yours has ${length}. Shorten it and send it again.`;
}
