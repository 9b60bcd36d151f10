import { InstallationGoneError } from "../../chat/chat-clients.ts";
import { callOnce } from "../../chat/post-once.ts";
import { pacedCall } from "../../chat/rate-buckets.ts";
import { slackErrorCode } from "../../chat/slack-errors.ts";
import type { Deps } from "../../deps.ts";
import { KUDOS_REACTION } from "./kudos.rules.ts";

declare module "../../jobs/queue.ts" {
  interface JobPayloads {
    /** The bot's reaction on a channel message that gave kudos; `key` is its exactly-once claim. */
    "kudos.react": { teamId: string; key: string; channelId: string; ts: string };
    /** Why some people got no kudo from a message, told to the giver alone, once per message. */
    "kudos.notice": { teamId: string; key: string; channelId: string; userId: string; threadTs?: string; text: string };
  }
}

/** Slack answers that retrying cannot change: the message, channel or scope is gone, or the giver left it. */
const GIVE_UP = new Set([
  "missing_scope",
  "not_allowed_token_type",
  "message_not_found",
  "no_item_specified",
  "channel_not_found",
  "not_in_channel",
  "is_archived",
  "too_many_emoji",
  "too_many_reactions",
  "invalid_name",
  "user_not_found",
  "user_not_in_channel",
  "restricted_action",
]);

/** Runs a job's Slack work; an uninstalled workspace or an answer that retrying cannot change ends it quietly. */
async function quietly(deps: Deps, teamId: string, what: string, work: () => Promise<unknown>): Promise<void> {
  try {
    await work();
  } catch (err) {
    if (err instanceof InstallationGoneError) return;
    const code = slackErrorCode(err);
    if (code && GIVE_UP.has(code)) {
      deps.log.warn({ team_id: teamId, code }, `kudos ${what} not sent`);
      return;
    }
    throw err;
  }
}

export function kudosJobs(deps: Deps): void {
  deps.queue.register(
    "kudos.react",
    (p) =>
      quietly(deps, p.teamId, "reaction", async () => {
        const client = await deps.chat.forTeam(p.teamId, "post");
        // Paced outside the claim: a 429 releases it (Slack said no), and the Retry-After is waited out or defers.
        await pacedCall(deps.db, p.teamId, "reactions.add", () =>
          callOnce(
            deps,
            { key: p.key, teamId: p.teamId, channel: p.channelId },
            async () => {
              try {
                await client.reactions.add({ channel: p.channelId, timestamp: p.ts, name: KUDOS_REACTION });
              } catch (err) {
                // A repeat after a lost answer: the reaction is there, which is all we wanted.
                if (slackErrorCode(err) !== "already_reacted") throw err;
              }
            },
            { repeatAmbiguous: true },
          ),
        );
      }),
    { concurrency: 4 },
  );
  deps.queue.register(
    "kudos.notice",
    (p) =>
      quietly(deps, p.teamId, "notice", async () => {
        const client = await deps.chat.forTeam(p.teamId, "post");
        // An ephemeral message cannot be looked up afterwards: after a lost answer it is not sent again.
        await pacedCall(deps.db, p.teamId, "chat.postEphemeral", () =>
          callOnce(deps, { key: p.key, teamId: p.teamId, channel: p.channelId }, () =>
            client.chat.postEphemeral({
              channel: p.channelId,
              user: p.userId,
              text: p.text,
              ...(p.threadTs ? { thread_ts: p.threadTs } : {}),
            }),
          ),
        );
      }),
    { concurrency: 4 },
  );
}
