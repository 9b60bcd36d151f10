import type { LightMyRequestResponse } from "fastify";
import type { TestApp } from "./app.ts";

/**
 * A member submits the standup modal for a run, as Slack posts it to /chat/interactions (signed): one answer per
 * question and the mood select. The service answers 200 with an empty body when it took the answers.
 */
export function submitStandup(
  t: Pick<TestApp, "sendInteraction">,
  teamId: string,
  userId: string,
  runId: number,
  answers: string[],
  mood: string | null = null,
): Promise<LightMyRequestResponse> {
  return t.sendInteraction(standupSubmission(teamId, userId, runId, answers, mood));
}

/** The modal's view_submission payload, for either transport (`t.deliver.interaction`). */
export function standupSubmission(
  teamId: string,
  userId: string,
  runId: number,
  answers: string[],
  mood: string | null = null,
): Record<string, unknown> {
  return {
    type: "view_submission",
    team: { id: teamId, domain: teamId.toLowerCase() },
    user: { id: userId, team_id: teamId },
    api_app_id: "A0UPBEAT",
    token: "legacy",
    trigger_id: `trigger.${userId}`,
    view: {
      id: `V0${userId}`,
      type: "modal",
      team_id: teamId,
      callback_id: "standup_modal",
      private_metadata: JSON.stringify({ runId }),
      state: {
        values: {
          ...Object.fromEntries(answers.map((a, i) => [`q${i}`, { answer: { type: "plain_text_input", value: a } }])),
          mood: {
            mood: {
              type: "static_select",
              selected_option: mood ? { value: mood, text: { type: "plain_text", text: mood } } : null,
            },
          },
        },
      },
    },
  };
}
