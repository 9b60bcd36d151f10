import type { Button, KnownBlock, ModalView } from "@slack/types";
import { DateTime } from "luxon";
import { type ChatMessage, fitMessage } from "../../chat/block-fit.ts";
import { actions, button, context, section } from "../../chat/blocks.ts";
import type { EarlyOffer } from "./early-answers.ts";
import { ACTIONS, answerModal, prettyDate, type RunInfo, slackEscape } from "./messages.ts";

/** Opens the modal to answer a standup's next run ahead; its value is `<schedule id>|<local date>`. */
export const ANSWER_EARLY_ACTION = "standup_answer_early";
export const EARLY_MODAL_CALLBACK = "standup_early_modal";

export function earlyActionValue(o: Pick<EarlyOffer, "localDate"> & { schedule: { id: string } }): string {
  return `${o.schedule.id}|${o.localDate}`;
}

export function parseEarlyValue(value: string | undefined): { scheduleId: string; localDate: string } | undefined {
  const m = /^([^|]{1,64})\|(\d{4}-\d{2}-\d{2})$/.exec(value ?? "");
  return m ? { scheduleId: m[1]!, localDate: m[2]! } : undefined;
}

/** Leads the ask DM of a member whose early answer was dropped because the standup's questions changed since. */
export const QUESTIONS_CHANGED_NOTE = "The questions changed since you answered ahead: please answer again.";

/** The ask DM of a member who answered ahead: nothing to ask, their answer is in, and they can still edit it. */
export function alreadyAnsweredMessage(run: RunInfo): ChatMessage {
  const text = `Thanks, you already answered for ${prettyDate(run.localDate)}`;
  return fitMessage({
    text,
    blocks: [
      section(`:white_check_mark: ${text}: your answers are posted in <#${run.channelId}>.`),
      actions(button("Edit", ACTIONS.edit, String(run.id))),
    ],
  });
}

/** The standup modal for a run that has not started: the same questions, stored as an early answer. */
export function earlyModal(m: { offer: EarlyOffer; prefill?: string | undefined }): ModalView {
  const { offer } = m;
  const view = answerModal({
    runId: 0,
    channelId: offer.schedule.channelId,
    localDate: offer.localDate,
    questions: offer.schedule.questions,
    questionDetails: offer.schedule.questionDetails,
    ...(offer.answered ? { existing: offer.answered } : { prefill: [m.prefill] }),
  });
  const note: KnownBlock = context(
    "Answering ahead: you will not be asked on the day, and you can change these answers until the standup starts.",
  );
  return {
    ...view,
    callback_id: EARLY_MODAL_CALLBACK,
    private_metadata: JSON.stringify({ scheduleId: offer.schedule.id, localDate: offer.localDate }),
    blocks: [view.blocks[0]!, note, ...view.blocks.slice(1)],
  };
}

/**
 * App Home's line and button for a standup that can be answered ahead now (none when it cannot): the line joins the
 * standup's section and the button is its accessory, so the Home keeps one block per standup.
 */
export function earlyHomeLine(offer: EarlyOffer | undefined): { line: string; accessory: Button } | undefined {
  if (!offer?.open) return undefined;
  const date = prettyDate(offer.localDate);
  const value = earlyActionValue(offer);
  return offer.answered
    ? {
        line: `:white_check_mark: Answered ahead for ${date}`,
        accessory: button("Edit answer", ANSWER_EARLY_ACTION, value),
      }
    : {
        line: `:alarm_clock: You can answer ahead for ${date}`,
        accessory: button("Answer now", ANSWER_EARLY_ACTION, value, "primary"),
      };
}

/** `/upbeat answer` when nothing can be answered ahead now: when the window opens, or that there is none. */
export function noEarlyAnswerText(next: EarlyOffer | undefined, tz: string): string {
  if (!next) return "There is no upcoming standup you can answer ahead.";
  const opens = DateTime.fromJSDate(next.opensAt, { zone: tz }).toFormat("ccc d LLL, HH:mm ZZZZ");
  // Two standups may share a channel: a named one is called by its name.
  const name = next.schedule.name.trim();
  const which = name
    ? `*${slackEscape(name)}* (in <#${next.schedule.channelId}>)`
    : `the standup in <#${next.schedule.channelId}>`;
  return `You can answer ${which} for ${prettyDate(next.localDate)} from ${opens}.`;
}
