import type { App } from "@slack/bolt";
import type { ModalView } from "@slack/types";
import { type ChatListeners, HELP_VERB } from "../../chat/router.ts";
import { openView, publishView, replyFromListener } from "../../chat/slack-calls.ts";
import type { Deps } from "../../deps.ts";
import { checkShoutOut, giveShoutOut, readShoutOut } from "../kudos/index.ts";
import { findSchedule } from "../schedules/index.ts";
import { loginUrl } from "../session/index.ts";
import {
  answerInConversation,
  askedNextQuestion,
  existingAnswers,
  skipRun,
  skipToday,
  submitResponse,
} from "./answers.service.ts";
import { blockerListeners } from "./blocker-actions.ts";
import { openBlockerOf } from "./blocker-items.ts";
import { promptFor, tickedResolved } from "./blocker-prompt.ts";
import { invalidAnswerText, nextQuestionText } from "./conversation-messages.ts";
import { earlyAnswerListeners } from "./early-answers.listeners.ts";
import { buildHomeView } from "./home.ts";
import { ACTIONS, answerModal, helpMessage, MODAL_CALLBACK } from "./messages.ts";
import { answerWindow, yesterdayPrefill } from "./own-time.ts";
import { findParticipant } from "./participants.repo.ts";
import { standupPostKeys } from "./post-keys.ts";
import { type InputState, readModalAnswers } from "./question-inputs.ts";
import { findResponseOfRun } from "./responses.repo.ts";
import { findRun } from "./runs.repo.ts";
import { runQuestions } from "./typed-answers.ts";

interface ActionBody {
  team?: { id?: string };
  user?: { id?: string };
  channel?: { id?: string };
  trigger_id?: string;
  actions?: { value?: string; action_ts?: string }[];
}

const CLOSED_TEXT = "This standup has closed; answers can no longer be added or changed.";

function closedModal(): ModalView {
  return {
    type: "modal",
    title: { type: "plain_text", text: "Standup" },
    close: { type: "plain_text", text: "OK" },
    blocks: [{ type: "section", text: { type: "mrkdwn", text: CLOSED_TEXT } }],
  };
}

export function standupListeners(bolt: ChatListeners, deps: Deps): void {
  earlyAnswerListeners(bolt, deps);
  const openModal = async ({
    ack,
    body,
    client,
  }: {
    ack: () => Promise<void>;
    body: unknown;
    client: App["client"];
  }) => {
    const receivedAt = performance.now();
    await ack();
    const b = body as ActionBody;
    const teamId = b.team?.id;
    const userId = b.user?.id;
    const runId = Number(b.actions?.[0]?.value);
    if (!teamId || !userId || !b.trigger_id || !Number.isSafeInteger(runId)) return;
    const trigger = b.trigger_id;
    const run = await findRun(deps.db, teamId, runId);
    if (!run) return;
    const participant = await findParticipant(deps.db, run.id, userId);
    // views.open must use the trigger within 3 s, so it is called here, not from a job. After the member's window
    // closed the modal still opens (a late answer) until the standup asks them again.
    const window = participant ? await answerWindow(deps, run, participant) : run.status === "open" ? "open" : "closed";
    if (window === "closed") {
      await openView(deps, client, { trigger_id: trigger, view: closedModal() }, receivedAt);
      return;
    }
    const [existing, shoutOut, blocker, yesterday] = await Promise.all([
      existingAnswers(deps, run.id, userId),
      // A deleted standup's open run still takes answers, without the shout-out.
      findSchedule(deps, teamId, run.scheduleId).then(
        (s) => s.kudosField,
        () => false,
      ),
      run.blockerQuestion === null ? undefined : openBlockerOf(deps.db, teamId, run.scheduleId, userId),
      yesterdayPrefill(deps.db, { ...run, userId, beforeDate: run.localDate }),
    ]);
    const prompt = promptFor(blocker, run.localDate);
    const view = answerModal({
      runId: run.id,
      channelId: run.channelId,
      localDate: run.localDate,
      questions: run.questions,
      questionDetails: run.questionDetails,
      shoutOut,
      ...(existing ? { existing } : { prefill: [yesterday] }),
      ...(prompt ? { blocker: prompt } : {}),
    });
    await openView(deps, client, { trigger_id: trigger, view }, receivedAt);
  };
  bolt.action(ACTIONS.answer, openModal);
  bolt.action(ACTIONS.edit, openModal);
  bolt.action(ACTIONS.openDashboard, async ({ ack }) => ack());
  blockerListeners(bolt, deps);

  bolt.action(ACTIONS.skip, async ({ ack, body, client }) => {
    await ack();
    const b = body as ActionBody;
    const runId = Number(b.actions?.[0]?.value);
    if (!b.team?.id || !b.user?.id || !Number.isSafeInteger(runId)) return;
    const skipped = await skipRun(deps, b.team.id, runId, b.user.id);
    if (b.channel?.id) {
      // Keyed by the click: a redelivered action does not reply twice.
      await replyFromListener(deps, client, {
        key: standupPostKeys.skipReply(b.team.id, b.channel.id, b.actions?.[0]?.action_ts ?? runId),
        teamId: b.team.id,
        channel: b.channel.id,
        text: skipped
          ? "Skipped today's standup. See you next time!"
          : "Nothing to skip: you already answered, or the standup has closed.",
      });
    }
  });

  bolt.view(MODAL_CALLBACK, async ({ ack, body, view }) => {
    const teamId = body.team?.id;
    const userId = body.user.id;
    let runId = Number.NaN;
    try {
      runId = Number((JSON.parse(view.private_metadata) as { runId?: unknown }).runId);
    } catch {
      // A modal we did not build; nothing to store.
    }
    if (!teamId || !Number.isSafeInteger(runId)) return ack();
    const values = view.state.values;
    const run = await findRun(deps.db, teamId, runId);
    // Each input read by its question's type; a value Slack could not check (a number out of range) is named here.
    const given = readModalAnswers(
      runQuestions(run ?? { questions: [] }),
      values as Record<string, Record<string, InputState>>,
    );
    if (Object.keys(given.errors).length > 0) return ack({ response_action: "errors", errors: given.errors });
    const mood = values.mood?.mood?.selected_option?.value ?? null;
    const resolveBlockerId = tickedResolved(values);
    // The shout-out is checked before the answer is saved, so a problem with it loses nothing typed.
    const shoutOut = readShoutOut(values);
    if (shoutOut) {
      // An edit may name people its earlier save already thanked: those cost nothing of the daily limit.
      const earlier = run ? await findResponseOfRun(deps.db, run.id, userId) : undefined;
      const errors = await checkShoutOut(deps, teamId, userId, shoutOut, earlier?.id);
      if (Object.keys(errors).length > 0) return ack({ response_action: "errors", errors });
    }
    // The shout-out's kudos are stored in the answer's transaction: a failure loses neither half alone.
    const outcome = await submitResponse(
      deps,
      {
        teamId,
        runId,
        userId,
        answers: given.answers,
        values: given.values,
        mood,
        ...(resolveBlockerId ? { resolveBlockerId } : {}),
      },
      shoutOut ? (tx, saved) => giveShoutOut({ ...deps, db: tx }, { teamId, userId, ...saved, shoutOut }) : undefined,
    );
    if (outcome.ok) return ack();
    if (outcome.reason === "invalid")
      return ack({ response_action: "errors", errors: { [`q${outcome.question}`]: "Please check this answer." } });
    const message =
      outcome.reason === "closed"
        ? CLOSED_TEXT
        : outcome.reason === "too_long"
          ? "Each answer can be at most 3,000 characters."
          : outcome.reason === "empty"
            ? "Please answer at least one question, or skip today."
            : "This standup is not one you were asked to answer.";
    return ack({ response_action: "errors", errors: { q0: message } });
  });

  bolt.event("message", async ({ event, body, client }) => {
    const e = event as {
      channel_type?: string;
      subtype?: string;
      bot_id?: string;
      user?: string;
      text?: string;
      channel?: string;
      ts?: string;
    };
    if (e.channel_type !== "im" || e.subtype || e.bot_id || !e.user || !e.channel) return;
    const teamId = (body as { team_id?: string }).team_id;
    if (!teamId) return;
    const result = await answerInConversation(deps, teamId, e.user, e.text ?? "", e.ts ?? "");
    // Paced, once per DM message (a redelivered event does not reply twice), handed to a job when Slack asks to wait.
    const say = (text: string) =>
      replyFromListener(deps, client, {
        key: standupPostKeys.dmReply(teamId, e.channel!, e.ts ?? String((body as { event_id?: string }).event_id)),
        teamId,
        channel: e.channel!,
        text,
      });
    switch (result.kind) {
      case "next": {
        const ts = await say(nextQuestionText(result));
        // Answers after this message belong to its run (see dm-conversation.ts). A reply handed to a job (Slack asked
        // to wait) is not recorded: answers then go to the run of the question before it, which is this run too.
        if (ts) await askedNextQuestion(deps, { teamId, userId: e.user, ...result }, ts);
        break;
      }
      case "invalid":
        // Not stored: the same question again, with its choices. Answers after it still belong to this run.
        await say(invalidAnswerText(result));
        break;
      case "handed_over":
        break; // The next standup's first question follows (the standup.turn job).
      case "done":
        break; // The reply job confirms with an Edit button.
      case "skipped":
        await say("Skipped today's standup. See you next time!");
        break;
      case "too_long":
        await say("That answer is over 3,000 characters; please shorten it and send it again.");
        break;
      case "closed":
        await say(CLOSED_TEXT);
        break;
      case "none":
        await say("There is no standup waiting for you right now. Type `/upbeat help` to see what I can do.");
        break;
    }
  });

  bolt.verb("skip", async ({ command, ack }) => {
    const n = await skipToday(deps, command.team_id, command.user_id);
    return ack({
      response_type: "ephemeral",
      text: n > 0 ? "Skipped today's standup. See you next time!" : "There is no open standup for you to skip.",
    });
  });

  bolt.verb(HELP_VERB, async ({ command, ack }) => {
    const help = helpMessage(loginUrl(deps, command.team_id, command.user_id));
    return ack({ response_type: "ephemeral", ...help });
  });

  bolt.event("app_home_opened", async ({ event, body, client }) => {
    if (event.tab && event.tab !== "home") return;
    const teamId = (body as { team_id?: string }).team_id;
    if (!teamId) return;
    await publishView(deps, client, teamId, {
      user_id: event.user,
      view: await buildHomeView(deps, teamId, event.user),
    });
  });
}
