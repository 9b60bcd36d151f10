import type { App } from "@slack/bolt";
import type { KnownBlock } from "@slack/types";
import { sql } from "drizzle-orm";
import { DateTime } from "luxon";
import { pacedCall } from "../../chat/rate-buckets.ts";
import type { ChatListeners } from "../../chat/router.ts";
import { rows, type Tx } from "../../db/client.ts";
import type { Deps } from "../../deps.ts";
import { confirmStillBlocked, findBlocker, resolveBlocker, resolveInTx } from "./blocker-items.ts";
import { BLOCKER_ACTIONS, quote, recordedBlocks, replacePrompt } from "./blocker-prompt.ts";
import { slackEscape } from "./messages.ts";

/** The "Resolved" / "Still blocked" buttons of the ask DM (blocker-prompt.ts). */

interface ClickBody {
  team?: { id?: string };
  user?: { id?: string };
  channel?: { id?: string };
  container?: { channel_id?: string; message_ts?: string };
  message?: { ts?: string; text?: string; blocks?: KnownBlock[] };
  actions?: { value?: string }[];
}

type Click = "resolved" | "still";

const ALREADY = (text: string) => `:white_check_mark: ${text} is already resolved.`;

/** Today in the standup's zone (its schedule's, or UTC when the standup is gone). */
async function todayOf(deps: Pick<Deps, "db" | "clock">, teamId: string, scheduleId: string): Promise<string> {
  const [s] = await rows<{ tz: string }>(
    deps.db,
    sql`select schedule_tz as tz from schedules where team_id = ${teamId} and id = ${scheduleId}`,
  );
  return DateTime.fromJSDate(deps.clock.now(), { zone: s?.tz ?? "UTC" }).toISODate() ?? "";
}

/** Records the click, or undefined when the clicker is not the blocker's member (nothing recorded). */
async function record(deps: Deps, teamId: string, userId: string, id: number, click: Click) {
  const found = await findBlocker(deps.db, teamId, id);
  if (!found) return ":grey_question: That blocker no longer exists.";
  if (found.userId !== userId) return undefined;
  const text = quote(found.text, slackEscape);
  if (click === "resolved") {
    const outcome = await resolveBlocker(deps, { teamId, blockerId: id, by: userId, asAdmin: false, via: "dm" });
    return outcome.ok ? `:white_check_mark: Resolved: ${text}. Nice work!` : ALREADY(text);
  }
  if (found.status !== "open") return ALREADY(text);
  const today = await todayOf(deps, teamId, found.scheduleId);
  const still = await confirmStillBlocked(deps, teamId, id, userId, today);
  return still ? `:construction: Noted: still blocked on ${text}.` : ALREADY(text);
}

async function onClick(deps: Deps, client: App["client"], body: ClickBody, click: Click): Promise<void> {
  const teamId = body.team?.id;
  const userId = body.user?.id;
  const raw = body.actions?.[0]?.value ?? "";
  const id = /^\d{1,15}$/.test(raw) ? Number(raw) : 0;
  if (!teamId || !userId || id < 1) return;
  const channel = body.container?.channel_id ?? body.channel?.id;
  const line = await record(deps, teamId, userId, id, click);
  if (line === undefined) {
    // Only the member who reported it may answer for their blocker; the clicker is told, nothing else changes.
    deps.log.info({ team_id: teamId, blocker_id: id }, "blocker button refused: not the blocker's member");
    if (channel) {
      await pacedCall(deps.db, teamId, "chat.postEphemeral", () =>
        client.chat.postEphemeral({
          channel,
          user: userId,
          text: "Only the person who reported this blocker can mark it resolved or still blocked.",
        }),
      );
    }
    return;
  }
  const ts = body.container?.message_ts ?? body.message?.ts;
  const blocks = body.message?.blocks;
  if (!channel || !ts || !blocks) return;
  // The DM keeps its Answer buttons: only the question and its two buttons become what was recorded.
  await pacedCall(deps.db, teamId, "chat.update", () =>
    client.chat.update({
      channel,
      ts,
      text: body.message?.text ?? "Standup",
      blocks: replacePrompt(blocks, recordedBlocks(line)),
    }),
  );
}

export function blockerListeners(bolt: ChatListeners, deps: Deps): void {
  bolt.action(BLOCKER_ACTIONS.resolved, async ({ ack, body, client }) => {
    await ack();
    await onClick(deps, client, body as ClickBody, "resolved");
  });
  bolt.action(BLOCKER_ACTIONS.still, async ({ ack, body, client }) => {
    await ack();
    await onClick(deps, client, body as ClickBody, "still");
  });
}

/**
 * The modal's "Resolved" checkbox, in the submission's transaction: only the member's own open item, once (an item
 * already resolved, by a button or a second submission, is left as it is).
 */
export async function resolveTicked(
  deps: Pick<Deps, "events">,
  tx: Tx,
  r: { teamId: string; blockerId: number; userId: string; at: Date },
): Promise<void> {
  const found = await findBlocker(tx, r.teamId, r.blockerId);
  if (found?.userId !== r.userId || found.status !== "open") return;
  await resolveInTx(deps, tx, found, { by: r.userId, note: null, via: "modal", at: r.at });
}
