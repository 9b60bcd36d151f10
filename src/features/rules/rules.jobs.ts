import type { ChatMessage } from "../../chat/block-fit.ts";
import { InstallationGoneError } from "../../chat/chat-clients.ts";
import { postKey } from "../../chat/post-keys.ts";
import { postOnce } from "../../chat/post-once.ts";
import { openDm } from "../../chat/slack-calls.ts";
import { destinationGone } from "../../chat/slack-errors.ts";
import type { Deps } from "../../deps.ts";
import { FORMER_MEMBER } from "../../lib/person-names.ts";
import { MOOD_SCORE } from "../insights/index.ts";
import { memberNames } from "../members/index.ts";
import { displayName, standupChannelNames } from "../schedules/index.ts";
import { blockerAgeDays, findBlocker as findBlockerItem } from "../standups/index.ts";
import {
  type FiringRow,
  findBlocker,
  findFiring,
  findRunFacts,
  finishFiring,
  lastClosedDate,
  type RunFacts,
  runMoodCounts,
  runParticipation,
} from "./firings.repo.ts";
import { type AlertPlace, blockerAlert, blockerOpenAlert, moodAlert, participationAlert } from "./rules.messages.ts";
import { adminTargetProblem } from "./rules.refs.ts";
import type { RuleRow } from "./rules.repo.ts";

declare module "../../jobs/queue.ts" {
  interface JobPayloads {
    "rules.fire": { teamId: string; firingId: number };
  }
}

/**
 * Firings are kept this long (they only guard against firing twice, and events are never that late); the daily
 * maintenance prunes them in every workspace.
 */
export const FIRING_RETENTION_DAYS = 90;

/** Why a firing posted nothing, or "posted". Stored on the firing row. */
type Outcome =
  | "posted"
  | "not_below"
  | "no_data"
  | "blocker_cleared"
  | "rule_deleted"
  | "rule_inactive"
  | "target_not_admin"
  | "uninstalled"
  | `gave_up:${string}`;

type JobDeps = Pick<Deps, "db" | "clock" | "chat" | "config" | "log">;

async function placeOf(deps: JobDeps, teamId: string, run: RunFacts, memberId?: string): Promise<AlertPlace> {
  // An unnamed standup is "#<channel name> standup", the channel named by the cached directory when Slack answers.
  const channels = run.scheduleName?.trim() ? undefined : await standupChannelNames(deps, teamId);
  const query = new URLSearchParams({
    from: run.localDate,
    to: run.localDate,
    standup: run.scheduleId,
    ...(memberId ? { member: memberId } : {}),
  });
  return {
    standup: displayName({ name: run.scheduleName, channelId: run.channelId }, channels),
    localDate: run.localDate,
    reportUrl: `${deps.config.appUrl}/dashboard/reports?${query}`,
  };
}

/** The message the rule sends for this firing, or why it sends none (the figure is not below, nothing to judge). */
async function messageFor(
  deps: JobDeps,
  rule: RuleRow,
  firing: FiringRow,
  run: RunFacts,
): Promise<ChatMessage | Outcome> {
  const teamId = firing.teamId;
  const threshold = rule.triggerThreshold ?? 0;
  if (rule.trigger === "participation_below") {
    const { asked, answered } = await runParticipation(deps.db, teamId, run.id);
    if (asked === 0) return "no_data";
    // The reports' figure (rounded percent), so the message says what the dashboard shows for the day.
    const pct = Math.round((100 * answered) / asked);
    if (!(pct < threshold)) return "not_below";
    return participationAlert(await placeOf(deps, teamId, run), { pct, answered, asked, threshold });
  }
  if (rule.trigger === "mood_below") {
    let sum = 0;
    let count = 0;
    for (const [mood, n] of await runMoodCounts(deps.db, teamId, run.id)) {
      const score = MOOD_SCORE[mood];
      if (score === undefined) continue;
      sum += score * n;
      count += n;
    }
    if (count === 0) return "no_data";
    // Rounded to two decimals, as the analytics show a day's average.
    const average = Math.round((sum / count) * 100) / 100;
    if (!(average < threshold)) return "not_below";
    return moodAlert(await placeOf(deps, teamId, run), { average, count, threshold });
  }
  if (rule.trigger === "blocker_open_days") {
    const item = firing.blockerId === null ? undefined : await findBlockerItem(deps.db, teamId, firing.blockerId);
    if (!item) return "no_data";
    // Resolved between the close that claimed the firing and this job: nothing to escalate any more.
    if (item.status !== "open") return "blocker_cleared";
    const judged = (await lastClosedDate(deps.db, teamId, item.scheduleId)) ?? run.localDate;
    const ageDays = Math.max(blockerAgeDays(item.openedDate, judged), threshold);
    const name = (await memberNames(deps, teamId, [item.userId])).get(item.userId) ?? FORMER_MEMBER;
    return blockerOpenAlert(await placeOf(deps, teamId, run, item.userId), { name, text: item.text, ageDays });
  }
  const response = firing.responseId === null ? undefined : await findBlocker(deps.db, teamId, firing.responseId);
  if (!response) return "no_data";
  // Edited away before the job ran: nothing to raise any more.
  if (!response.hasBlocker) return "blocker_cleared";
  const name = (await memberNames(deps, teamId, [response.userId])).get(response.userId) ?? FORMER_MEMBER;
  return blockerAlert(await placeOf(deps, teamId, run, response.userId), { name, text: response.blockers });
}

async function act(deps: JobDeps, firing: FiringRow): Promise<Outcome> {
  const rule = firing.rule;
  if (!rule) return "rule_deleted";
  if (!rule.active) return "rule_inactive";
  const run = await findRunFacts(deps.db, firing.teamId, firing.runId);
  if (!run) return "no_data";
  const message = await messageFor(deps, rule, firing, run);
  if (typeof message === "string") return message;
  // Demoted or gone since the rule was saved: standup data goes to admins only.
  if (rule.action === "dm_admin" && (await adminTargetProblem(deps, firing.teamId, rule.actionTarget))) {
    return "target_not_admin";
  }
  const client = await deps.chat.forTeam(firing.teamId, "post");
  try {
    const channel =
      rule.action === "dm_admin" ? await openDm(deps, client, firing.teamId, rule.actionTarget) : rule.actionTarget;
    await postOnce(deps, client, { key: postKey("rule", firing.id), teamId: firing.teamId, channel, ...message });
    return "posted";
  } catch (err) {
    const code = destinationGone(err);
    if (code === undefined) throw err;
    return `gave_up:${code}`;
  }
}

/** Computes the rule's figure for its firing and posts once if it is met (old firings go in the daily maintenance). */
export async function runFiring(deps: JobDeps, teamId: string, firingId: number): Promise<Outcome | undefined> {
  const firing = await findFiring(deps.db, teamId, firingId);
  if (!firing || firing.doneAt) return undefined;
  let outcome: Outcome;
  try {
    outcome = await act(deps, firing);
  } catch (err) {
    if (!(err instanceof InstallationGoneError)) throw err;
    outcome = "uninstalled";
  }
  await finishFiring(deps.db, teamId, firingId, outcome, deps.clock.now());
  const fields = { team_id: teamId, job: "rules.fire", rule_id: firing.rule?.id, firing_id: firingId, outcome };
  if (outcome.startsWith("gave_up:") || outcome === "target_not_admin") {
    // Retrying cannot help until someone changes the rule or the channel: no retries for a day.
    deps.log.warn(fields, "workflow rule gave up: Slack or the workspace refuses its target");
  } else {
    deps.log.info(fields, "workflow rule fired");
  }
  return outcome;
}

export function ruleJobs(deps: Deps): void {
  deps.queue.register("rules.fire", async (p) => void (await runFiring(deps, p.teamId, p.firingId)), {
    concurrency: 4,
  });
}
