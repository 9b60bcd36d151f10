import { InstallationGoneError } from "../../chat/chat-clients.ts";
import { postKey } from "../../chat/post-keys.ts";
import { callOnce, postOnce } from "../../chat/post-once.ts";
import { pacedCall } from "../../chat/rate-buckets.ts";
import { openDm } from "../../chat/slack-calls.ts";
import { slackErrorCode } from "../../chat/slack-errors.ts";
import type { CelebrationKind } from "../../db/schema.ts";
import type { Deps } from "../../deps.ts";
import { shiftDate } from "../calendar/index.ts";
import { type Celebration, celebrationsOn, datesPostedOn, MAX_SHIFT_DAYS } from "./celebrations.dates.ts";
import { askDatesMessage, celebrationMessage, TADA } from "./celebrations.messages.ts";
import { celebratedPeople, selectPostClaim, selectSettings } from "./celebrations.repo.ts";
import { askDatesText, canReact, workCalendar } from "./celebrations.service.ts";

declare module "../../jobs/queue.ts" {
  interface JobPayloads {
    /** The day's post of one kind, claimed by the scheduler (celebration_posts). */
    "celebrations.post": { teamId: string; kind: CelebrationKind; postDate: string };
    /** One member's ask-for-dates DM; `key` is its exactly-once claim. */
    "celebrations.ask": { teamId: string; userId: string; key: string };
  }
}

/** Slack answers that retrying cannot change. */
const GIVE_UP = new Set([
  "channel_not_found",
  "not_in_channel",
  "is_archived",
  "missing_scope",
  "user_not_found",
  "user_disabled",
  "cannot_dm_bot",
  "restricted_action",
]);

async function quietly(deps: Deps, teamId: string, what: string, work: () => Promise<unknown>): Promise<void> {
  try {
    await work();
  } catch (err) {
    if (err instanceof InstallationGoneError) return;
    const code = slackErrorCode(err);
    if (code && GIVE_UP.has(code)) {
      deps.log.warn({ team_id: teamId, code }, `celebrations ${what} not sent`);
      return;
    }
    throw err;
  }
}

export const celebrationPostKey = (teamId: string, kind: CelebrationKind, postDate: string) =>
  postKey("celebrations", teamId, kind, postDate);

async function postCelebrations(deps: Deps, p: { teamId: string; kind: CelebrationKind; postDate: string }) {
  const [claim, settings] = await Promise.all([
    selectPostClaim(deps.db, p.teamId, p.kind, p.postDate),
    selectSettings(deps.db, p.teamId),
  ]);
  if (!claim || claim.userIds.length === 0 || !settings?.channelId) return;
  // The people claimed, as they are now: who left or opted out since the claim is not celebrated.
  const { work } = await workCalendar(deps, p.teamId, p.postDate, shiftDate(p.postDate, MAX_SHIFT_DAYS + 1));
  const people = (await celebratedPeople(deps.db, p.teamId)).filter((x) => claim.userIds.includes(x.userId));
  const celebrated: Celebration[] = datesPostedOn(p.postDate, work).flatMap((d) => celebrationsOn(d, people, p.kind));
  if (celebrated.length === 0) return;
  const client = await deps.chat.forTeam(p.teamId, "post");
  const key = celebrationPostKey(p.teamId, p.kind, p.postDate);
  const channel = settings.channelId;
  const ts = await postOnce(deps, client, {
    key,
    teamId: p.teamId,
    channel,
    ...celebrationMessage(p.kind, p.postDate, celebrated),
  });
  if (!(await canReact(deps.db, p.teamId))) return;
  // Paced outside the claim: a 429 releases it (Slack said no) and the Retry-After is waited out before the next try.
  await pacedCall(deps.db, p.teamId, "reactions.add", () =>
    callOnce(
      deps,
      { key: postKey(key, "react"), teamId: p.teamId, channel },
      async () => {
        try {
          await client.reactions.add({ channel, timestamp: ts, name: TADA });
        } catch (err) {
          if (slackErrorCode(err) !== "already_reacted") throw err;
        }
      },
      { repeatAmbiguous: true },
    ),
  );
}

async function askForDates(deps: Deps, p: { teamId: string; userId: string; key: string }) {
  const client = await deps.chat.forTeam(p.teamId, "post");
  const settings = await selectSettings(deps.db, p.teamId);
  const channel = await openDm(deps, client, p.teamId, p.userId);
  await postOnce(deps, client, {
    key: p.key,
    teamId: p.teamId,
    channel,
    ...askDatesMessage(askDatesText(settings?.channelId ?? null)),
  });
}

export function celebrationJobs(deps: Deps): void {
  deps.queue.register("celebrations.post", (p) => quietly(deps, p.teamId, "post", () => postCelebrations(deps, p)), {
    concurrency: 2,
  });
  deps.queue.register("celebrations.ask", (p) => quietly(deps, p.teamId, "ask", () => askForDates(deps, p)), {
    concurrency: 4,
  });
}
