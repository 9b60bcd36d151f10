import type { App } from "@slack/bolt";
import type { ChatListeners } from "../../chat/router.ts";
import { openView } from "../../chat/slack-calls.ts";
import type { Deps } from "../../deps.ts";
import { AppError } from "../../http/errors.ts";
import { findMember } from "../members/index.ts";
import { profileInput } from "./profiles.input.ts";
import {
  type ModalValues,
  modalBody,
  OPEN_PROFILE_ACTION,
  PROFILE_MODAL_CALLBACK,
  profileModal,
} from "./profiles.modal.ts";
import { getProfile, saveProfile } from "./profiles.service.ts";

type Client = App["client"];

/**
 * Opens the member's profile modal. The trigger id lives 3 s, so this runs in the listener (right after the
 * acknowledgement), never in a job; one indexed read comes before the call. `receivedAt`: performance.now() when
 * the listener began (openView).
 */
export async function openProfileModal(
  deps: Pick<Deps, "db" | "log">,
  client: Client,
  teamId: string,
  userId: string,
  triggerId: string,
  receivedAt = performance.now(),
): Promise<void> {
  const view = profileModal(await getProfile(deps, teamId, userId));
  await openView(deps, client, { trigger_id: triggerId, view }, receivedAt);
}

/** What went wrong, per modal block, or null when the submission was saved. */
export async function submitProfileModal(
  deps: Pick<Deps, "db" | "clock">,
  teamId: string,
  userId: string,
  values: ModalValues,
): Promise<Record<string, string> | null> {
  const member = await findMember(deps.db, teamId, userId);
  if (!member?.active) {
    return { role: "Upbeat does not know you as a member of this workspace yet. Try again in a minute." };
  }
  const parsed = profileInput.safeParse(modalBody(values));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const block = String(issue.path[0] ?? "role");
    // The modal shows the problem at its field; "birth_day must be …" reads oddly there, so say it plainly.
    return { [block]: issue.message.replace(/^birth_(month|day)/, "The $1").replace(/^(\w+) must/, "This must") };
  }
  try {
    await saveProfile(deps, teamId, userId, parsed.data, false);
  } catch (err) {
    // saveProfile's own checks (the start date's distance from today) are 400s naming start_date.
    if (err instanceof AppError && err.status === 400)
      return { start_date: err.message.replace(/^start_date /, "The date ") };
    throw err;
  }
  return null;
}

export function profileListeners(bolt: ChatListeners, deps: Deps): void {
  bolt.verb("profile", async ({ command, ack, client }) => {
    // Acknowledged first, then the modal opens with the command's trigger (valid 3 s) in this same listener.
    await ack();
    await openProfileModal(deps, client, command.team_id, command.user_id, command.trigger_id);
  });

  bolt.action(OPEN_PROFILE_ACTION, async ({ ack, body, client }) => {
    const receivedAt = performance.now();
    await ack();
    const b = body as { team?: { id?: string } | null; user?: { id?: string }; trigger_id?: string };
    if (!b.team?.id || !b.user?.id || !b.trigger_id) return;
    await openProfileModal(deps, client, b.team.id, b.user.id, b.trigger_id, receivedAt);
  });

  bolt.view(PROFILE_MODAL_CALLBACK, async ({ ack, body, view }) => {
    const teamId = body.team?.id;
    if (!teamId) return ack();
    const errors = await submitProfileModal(deps, teamId, body.user.id, view.state.values as ModalValues);
    return errors ? ack({ response_action: "errors", errors }) : ack();
  });
}
