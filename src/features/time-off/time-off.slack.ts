import type { App } from "@slack/bolt";
import type { KnownBlock, ModalView } from "@slack/types";
import { fitModal } from "../../chat/block-fit.ts";
import type { ChatListeners } from "../../chat/router.ts";
import { openView } from "../../chat/slack-calls.ts";
import { TIME_OFF_REASON_MAX } from "../../contract/index.ts";
import type { Deps } from "../../deps.ts";
import { shiftDate, workspaceToday } from "../calendar/index.ts";
import type { TimeOffRow } from "./time-off.repo.ts";
import { comeBack, setAway, upcomingRanges } from "./time-off.service.ts";

export const TIME_OFF_ACTIONS = { open: "time_off_open", back: "time_off_back" } as const;
export const TIME_OFF_MODAL = "time_off_modal";

/** The command's immediate answer, private to the member. */
export interface TimeOffReply {
  response_type: "ephemeral";
  text: string;
}

const privately = (text: string): TimeOffReply => ({ response_type: "ephemeral", text });

export const AWAY_USAGE =
  "Usage: `/upbeat away 2026-12-21 2027-01-04 [reason]` (first and last day away, both included; " +
  "`2026-12-21 to 2027-01-04` works too), " +
  "`/upbeat away 2026-12-24 [reason]` for one day, `/upbeat back` to end your time off today.";

const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** Two dates typed as one word: 2026-12-21-2027-01-04 (or with an en or em dash). */
const DATE_PAIR = /^(\d{4}-\d{2}-\d{2})[-–—](\d{4}-\d{2}-\d{2})$/;
/** A word someone meant as a date (2027-1-4, 12/24, 24.12.2026): never taken as the start of a reason. */
const DATE_LIKE = /^\d{1,4}[-/.]\d{1,2}([-/.]\d{1,4})?[,;.]?$/;
/** Words accepted between the first and the last day. */
const SEPARATORS = new Set(["to", "until", "till", "-", "–", "—"]);

/**
 * `<start> [[to|until|-|–|—] <end>] [reason]`, or `<start>-<end>` as one word. A reason may not start with
 * something that looks like a date (a mistyped end date would otherwise become a one-day range with a reason).
 */
export function parseAway(text: string): { start: string; end: string; reason: string } | { error: string } {
  const words = text.trim().split(/\s+/).filter(Boolean);
  const notDate = (w: string) => ({ error: `"${mrkdwn(w)}" is not a date as YYYY-MM-DD. ${AWAY_USAGE}` });
  const first = words.shift();
  if (!first) return { error: AWAY_USAGE };
  const pair = DATE_PAIR.exec(first);
  let start = first;
  let end = first;
  if (pair) {
    start = pair[1]!;
    end = pair[2]!;
  } else {
    if (!DATE.test(first)) return notDate(first);
    const sep = words[0]?.toLowerCase();
    if (sep !== undefined && SEPARATORS.has(sep)) {
      const next = words[1];
      if (next !== undefined && (DATE.test(next) || DATE_LIKE.test(next))) {
        if (!DATE.test(next)) return notDate(next);
        end = next;
        words.splice(0, 2);
      } else if (next === undefined) {
        return { error: `The last day is missing after "${mrkdwn(words[0]!)}". ${AWAY_USAGE}` };
      } else if (sep === "-" || sep === "–" || sep === "—") {
        return notDate(next);
      }
    } else if (words[0] !== undefined && DATE.test(words[0])) {
      end = words.shift()!;
    }
  }
  const lead = words[0];
  if (lead !== undefined && (DATE.test(lead) || DATE_LIKE.test(lead))) {
    return { error: `The reason cannot start with a date ("${mrkdwn(lead)}"). ${AWAY_USAGE}` };
  }
  return { start, end, reason: words.join(" ") };
}

/** Slack's mrkdwn control characters, so a reason shows as typed. */
const mrkdwn = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

function describe(r: Pick<TimeOffRow, "startDate" | "endDate" | "reason">): string {
  const days = r.startDate === r.endDate ? r.startDate : `${r.startDate} to ${r.endDate}`;
  return r.reason ? `${days} (${mrkdwn(r.reason)})` : days;
}

/**
 * `/upbeat away <start> [end] [reason]` and `/upbeat back`. `text` is what follows the verb, as typed. A usage or
 * date problem is answered privately and stores nothing.
 */
export async function timeOffCommand(
  deps: Deps,
  cmd: { teamId: string; userId: string; verb: "away" | "back"; text: string },
): Promise<TimeOffReply> {
  if (cmd.verb === "back") {
    if (cmd.text.trim() !== "") return privately(`\`/upbeat back\` takes nothing after it. ${AWAY_USAGE}`);
    const ended = await comeBack(deps, cmd.teamId, cmd.userId);
    const later = await upcomingRanges(deps, cmd.teamId, cmd.userId);
    const still = later.length > 0 ? ` Still planned: ${later.map(describe).join(", ")}.` : "";
    return privately(
      ended
        ? `Welcome back! Your time off ${describe(ended.range)} ${ended.removed ? "is removed" : `now ends ${ended.endsOn === shiftDate(ended.today, -1) ? "yesterday" : ended.endsOn}`}; ` +
            `you will be asked again from today.${still}`
        : `You are not away today.${still}`,
    );
  }
  const parsed = parseAway(cmd.text);
  if ("error" in parsed) return privately(parsed.error);
  const { start, end, reason } = parsed;
  if (reason.length > TIME_OFF_REASON_MAX)
    return privately(`The reason can be at most ${TIME_OFF_REASON_MAX} characters.`);
  const outcome = await setAway(deps, {
    teamId: cmd.teamId,
    userId: cmd.userId,
    by: cmd.userId,
    startDate: start,
    endDate: end,
    reason,
  });
  if (!outcome.ok) return privately(`${outcome.error}. ${AWAY_USAGE}`);
  return privately(
    `:palm_tree: You are away ${describe(outcome.range)}: no standup questions or reminders on those days, and ` +
      "they do not count against your participation.",
  );
}

/** App Home: the member's current or next time off, with "I'm away…" and, while away, "Back now". */
export async function timeOffHomeBlocks(deps: Deps, teamId: string, userId: string): Promise<KnownBlock[]> {
  const [ranges, today] = await Promise.all([upcomingRanges(deps, teamId, userId, 1), workspaceToday(deps, teamId)]);
  const next = ranges[0];
  const current = next && next.startDate <= today;
  const text = !next
    ? "*Time off:* none planned."
    : current
      ? `*Time off:* :palm_tree: you are away ${describe(next)}.`
      : `*Time off:* next ${describe(next)}.`;
  return [
    { type: "section", text: { type: "mrkdwn", text } },
    {
      type: "actions",
      elements: [
        { type: "button", text: { type: "plain_text", text: "I'm away…" }, action_id: TIME_OFF_ACTIONS.open },
        ...(current
          ? [
              {
                type: "button" as const,
                text: { type: "plain_text" as const, text: "Back now" },
                action_id: TIME_OFF_ACTIONS.back,
              },
            ]
          : []),
      ],
    },
  ];
}

export function timeOffModal(today: string): ModalView {
  return fitModal({
    type: "modal",
    callback_id: TIME_OFF_MODAL,
    title: { type: "plain_text", text: "Time off" },
    submit: { type: "plain_text", text: "Save" },
    close: { type: "plain_text", text: "Cancel" },
    blocks: [
      {
        type: "input",
        block_id: "start",
        label: { type: "plain_text", text: "First day away" },
        element: { type: "datepicker", action_id: "date", initial_date: today },
      },
      {
        type: "input",
        block_id: "end",
        label: { type: "plain_text", text: "Last day away" },
        element: { type: "datepicker", action_id: "date", initial_date: today },
      },
      {
        type: "input",
        block_id: "reason",
        optional: true,
        label: { type: "plain_text", text: "Reason (optional)" },
        element: { type: "plain_text_input", action_id: "reason", max_length: TIME_OFF_REASON_MAX },
      },
      {
        type: "context",
        elements: [
          {
            type: "mrkdwn",
            text: "Both days included. While away you are not asked or reminded, and those days do not count against your participation.",
          },
        ],
      },
    ],
  });
}

interface ActionBody {
  team?: { id?: string };
  user?: { id?: string };
  trigger_id?: string;
}

/** Which block a rangeProblem message is about, for the modal's inline error. */
function blockOf(error: string): string {
  if (error.startsWith("start_date")) return "start";
  if (error.startsWith("reason")) return "reason";
  return "end";
}

/**
 * App Home's time-off buttons and modal. `refreshHome` republishes the member's App Home after a change (the
 * standups feature builds it; app.ts wires the two together).
 */
export function timeOffListeners(
  refreshHome: (deps: Deps, client: App["client"], teamId: string, userId: string) => Promise<void>,
) {
  return (bolt: ChatListeners, deps: Deps): void => {
    for (const verb of ["away", "back"] as const) {
      bolt.verb(verb, async ({ command, ack, rest }) =>
        ack(await timeOffCommand(deps, { teamId: command.team_id, userId: command.user_id, verb, text: rest })),
      );
    }

    bolt.action(TIME_OFF_ACTIONS.open, async ({ ack, body, client }) => {
      const receivedAt = performance.now();
      await ack();
      const b = body as ActionBody;
      if (!b.team?.id || !b.trigger_id) return;
      // views.open must use the trigger within 3 s, so it is called here, not from a job.
      const view = timeOffModal(await workspaceToday(deps, b.team.id));
      await openView(deps, client, { trigger_id: b.trigger_id, view }, receivedAt);
    });

    bolt.action(TIME_OFF_ACTIONS.back, async ({ ack, body, client }) => {
      await ack();
      const b = body as ActionBody;
      if (!b.team?.id || !b.user?.id) return;
      await comeBack(deps, b.team.id, b.user.id);
      await refreshHome(deps, client, b.team.id, b.user.id);
    });

    bolt.view(TIME_OFF_MODAL, async ({ ack, body, view, client }) => {
      const teamId = body.team?.id;
      const userId = body.user.id;
      if (!teamId) return ack();
      const values = view.state.values;
      const startDate = values.start?.date?.selected_date ?? "";
      const endDate = values.end?.date?.selected_date ?? "";
      const reason = values.reason?.reason?.value ?? "";
      const outcome = await setAway(deps, { teamId, userId, by: userId, startDate, endDate, reason });
      if (!outcome.ok) return ack({ response_action: "errors", errors: { [blockOf(outcome.error)]: outcome.error } });
      await ack();
      await refreshHome(deps, client, teamId, userId);
    });
  };
}
