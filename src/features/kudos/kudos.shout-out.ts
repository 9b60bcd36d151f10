import type { KnownBlock } from "@slack/types";
import type { Deps } from "../../deps.ts";
import type { Refused } from "./kudos.messages.ts";
import { charLength, mentionedUsers } from "./kudos.parse.ts";
import { DAILY_KUDOS_LIMIT, MAX_KUDO_LENGTH } from "./kudos.rules.ts";
import { type GiveOutcome, giveKudos, previewKudos } from "./kudos.service.ts";

/**
 * The standup modal's optional shout-out (a schedule setting): people picked (or mentioned in the text) get a kudo
 * with the text as its message, once per person per standup answer, however often it is edited.
 */
export const SHOUT_OUT = { people: "kudos_to", message: "kudos_msg" } as const;

export function shoutOutBlocks(): KnownBlock[] {
  return [
    {
      type: "input",
      block_id: SHOUT_OUT.people,
      optional: true,
      label: { type: "plain_text", text: "Shout-out: give kudos to", emoji: true },
      hint: {
        type: "plain_text",
        text: `Each person gets one kudo from your answer; anyone can give ${DAILY_KUDOS_LIMIT} a day.`,
      },
      element: {
        type: "multi_users_select",
        action_id: "users",
        placeholder: { type: "plain_text", text: "Pick people" },
        max_selected_items: DAILY_KUDOS_LIMIT,
      },
    },
    {
      type: "input",
      block_id: SHOUT_OUT.message,
      optional: true,
      label: { type: "plain_text", text: "What for?", emoji: true },
      element: {
        type: "plain_text_input",
        action_id: "message",
        max_length: MAX_KUDO_LENGTH,
        placeholder: { type: "plain_text", text: "Thanks for…" },
      },
    },
  ];
}

/** A standup answer is one message: its shout-out thanks each person once, however often it is edited. */
const standupKey = (responseId: number) => `standup:${responseId}`;

export interface ShoutOut {
  receivers: string[];
  message: string;
}

/** A submitted modal's state values, as far as the shout-out reads them. */
type StateValues = Record<string, Record<string, { selected_users?: string[] | null; value?: string | null }>>;

/** The shout-out in a submitted modal, or undefined when the modal had none or it was left empty. */
export function readShoutOut(values: StateValues): ShoutOut | undefined {
  const people = values[SHOUT_OUT.people]?.users?.selected_users;
  const raw = values[SHOUT_OUT.message]?.message?.value;
  if (people === undefined && raw === undefined) return undefined;
  // A plain text input sends the text as typed, without Slack's escaping.
  const message = (raw ?? "").trim();
  const picked = (people ?? []).filter((id) => typeof id === "string" && /^[UW][A-Z0-9]{2,}$/.test(id));
  const receivers = [...new Set([...picked, ...mentionedUsers(message)])];
  if (receivers.length === 0 && message === "") return undefined;
  return { receivers, message };
}

function refusalProblem(refused: Refused[]): string {
  const reasons = new Set(refused.map((r) => r.reason));
  if (reasons.has("giver_not_member")) return "Only members of this workspace can give kudos.";
  if (reasons.has("self")) return "You can't give kudos to yourself.";
  if (reasons.has("not_member")) return "Kudos are for active members of this workspace, not bots or apps.";
  const over = refused.filter((r) => r.reason === "limit").length;
  return `You've reached the daily limit of ${DAILY_KUDOS_LIMIT} kudos: pick ${over} ${over === 1 ? "person" : "people"} fewer, or give them tomorrow.`;
}

/** The modal's field errors (block id → message); empty when the shout-out can be given as it is. */
export async function checkShoutOut(
  deps: Pick<Deps, "db" | "clock">,
  teamId: string,
  userId: string,
  s: ShoutOut,
  /** The answer being edited, whose shout-out may already have thanked some of these people. */
  responseId?: number,
): Promise<Record<string, string>> {
  if (s.receivers.length === 0) return { [SHOUT_OUT.people]: "Pick who the kudos are for, or clear the message." };
  if (s.message === "") return { [SHOUT_OUT.message]: "Say what the kudos are for." };
  const length = charLength(s.message);
  if (length > MAX_KUDO_LENGTH)
    return { [SHOUT_OUT.message]: `At most ${MAX_KUDO_LENGTH} characters (this has ${length}).` };
  const refused = await previewKudos(deps, {
    teamId,
    fromUser: userId,
    receivers: s.receivers,
    ...(responseId !== undefined ? { sourceKey: standupKey(responseId) } : {}),
  });
  return refused.length > 0 ? { [SHOUT_OUT.people]: refusalProblem(refused) } : {};
}

/**
 * Gives the shout-out of a saved standup answer. A refusal the check could not foresee (the daily limit reached
 * meanwhile) is told to the giver privately in the standup's channel.
 */
export async function giveShoutOut(
  deps: Pick<Deps, "db" | "clock" | "queue" | "events">,
  input: { teamId: string; userId: string; responseId: number; channelId: string; shoutOut: ShoutOut },
): Promise<GiveOutcome> {
  return giveKudos(deps, {
    teamId: input.teamId,
    fromUser: input.userId,
    receivers: input.shoutOut.receivers,
    message: input.shoutOut.message,
    channelId: input.channelId,
    source: "standup",
    sourceKey: standupKey(input.responseId),
    noticeIn: { channelId: input.channelId },
  });
}
