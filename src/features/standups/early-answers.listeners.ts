import type { WebClient } from "@slack/web-api";
import type { ChatListeners } from "../../chat/router.ts";
import { openView } from "../../chat/slack-calls.ts";
import type { Deps } from "../../deps.ts";
import { memberTimezone } from "../members/index.ts";
import { findSchedule } from "../schedules/index.ts";
import { type EarlyOffer, offersForMember, saveEarlyAnswer } from "./early-answers.ts";
import {
  ANSWER_EARLY_ACTION,
  EARLY_MODAL_CALLBACK,
  earlyModal,
  noEarlyAnswerText,
  parseEarlyValue,
} from "./early-messages.ts";
import { yesterdayPrefill } from "./own-time.ts";
import { type InputState, readModalAnswers } from "./question-inputs.ts";
import { runQuestions } from "./typed-answers.ts";

const NOT_OPEN_TEXT = "This standup can no longer be answered ahead: it has started, or its date changed.";

async function openEarlyModal(
  deps: Deps,
  client: WebClient,
  trigger: string,
  offer: EarlyOffer,
  userId: string,
  receivedAt: number,
) {
  // Not on edits: the member's own earlier answer shows instead.
  const prefill = offer.answered
    ? undefined
    : await yesterdayPrefill(deps.db, {
        teamId: offer.schedule.teamId,
        scheduleId: offer.schedule.id,
        userId,
        beforeDate: offer.localDate,
        questions: offer.schedule.questions,
      });
  await openView(deps, client, { trigger_id: trigger, view: earlyModal({ offer, prefill }) }, receivedAt);
}

function messageModal(text: string) {
  return {
    type: "modal" as const,
    title: { type: "plain_text" as const, text: "Standup" },
    close: { type: "plain_text" as const, text: "OK" },
    blocks: [{ type: "section" as const, text: { type: "mrkdwn" as const, text } }],
  };
}

/** Answering ahead from App Home's "Answer now" and from `/upbeat answer`. */
export function earlyAnswerListeners(bolt: ChatListeners, deps: Deps): void {
  bolt.action(ANSWER_EARLY_ACTION, async ({ ack, body, client }) => {
    const receivedAt = performance.now();
    await ack();
    const b = body as {
      team?: { id?: string };
      user?: { id?: string };
      trigger_id?: string;
      actions?: { value?: string }[];
    };
    const wanted = parseEarlyValue(b.actions?.[0]?.value);
    if (!b.team?.id || !b.user?.id || !b.trigger_id || !wanted) return;
    const offers = await offersForMember(deps, b.team.id, b.user.id, wanted.scheduleId);
    const offer = offers.find((o) => o.localDate === wanted.localDate && o.open);
    if (!offer) {
      await openView(deps, client, { trigger_id: b.trigger_id, view: messageModal(NOT_OPEN_TEXT) }, receivedAt);
      return;
    }
    await openEarlyModal(deps, client, b.trigger_id, offer, b.user.id, receivedAt);
  });

  bolt.verb("answer", async ({ command, ack, client }) => {
    const receivedAt = performance.now();
    const offers = await offersForMember(deps, command.team_id, command.user_id);
    // The next run in its window (answered or not: answering again edits it); else when the next window opens.
    const offer = offers.find((o) => o.open);
    if (!offer) {
      const tz = await memberTimezone(deps, command.team_id, command.user_id);
      return ack({ response_type: "ephemeral", text: noEarlyAnswerText(offers[0], tz) });
    }
    await ack();
    await openEarlyModal(deps, client, command.trigger_id, offer, command.user_id, receivedAt);
  });

  bolt.view(EARLY_MODAL_CALLBACK, async ({ ack, body, view }) => {
    const teamId = body.team?.id;
    let meta: { scheduleId?: unknown; localDate?: unknown } = {};
    try {
      meta = JSON.parse(view.private_metadata) as typeof meta;
    } catch {
      // A modal we did not build: nothing to store.
    }
    const wanted = parseEarlyValue(`${String(meta.scheduleId)}|${String(meta.localDate)}`);
    if (!teamId || !wanted) return ack();
    const values = view.state.values as Record<string, Record<string, InputState>>;
    // Read by the questions' types as the standup asks them now; a value Slack could not check is named here.
    const schedule = await findSchedule(deps, teamId, wanted.scheduleId).catch(() => undefined);
    if (!schedule) return ack({ response_action: "errors", errors: { q0: NOT_OPEN_TEXT } });
    const given = readModalAnswers(runQuestions(schedule), values);
    if (Object.keys(given.errors).length > 0) return ack({ response_action: "errors", errors: given.errors });
    const mood = values.mood?.mood?.selected_option?.value ?? null;
    const outcome = await saveEarlyAnswer(deps, {
      teamId,
      userId: body.user.id,
      ...wanted,
      answers: given.answers,
      values: given.values,
      mood,
    });
    if (outcome.ok) return ack();
    const message =
      outcome.reason === "too_long"
        ? "Each answer can be at most 3,000 characters."
        : outcome.reason === "empty"
          ? "Please answer at least one question."
          : outcome.reason === "invalid"
            ? "An answer does not fit its question: the standup's questions may have changed. Please try again."
            : NOT_OPEN_TEXT;
    return ack({ response_action: "errors", errors: { q0: message } });
  });
}
