import type { HomeView, KnownBlock } from "@slack/types";
import { DateTime } from "luxon";
import { fitHome } from "../../chat/block-fit.ts";
import type { Deps } from "../../deps.ts";
import { holidaysBetween, shiftDate } from "../calendar/index.ts";
import { memberTimezone } from "../members/index.ts";
import { profileButton } from "../profiles/index.ts";
import { listScheduleRows, localDateOf, nextRunOf } from "../schedules/index.ts";
import { loginUrl } from "../session/index.ts";
import { timeOffHomeBlocks } from "../time-off/index.ts";
import { earlyOffers } from "./early-answers.ts";
import { earlyHomeLine } from "./early-messages.ts";
import { latestRunsForMember } from "./home.repo.ts";
import { standupsOfMember } from "./member-standups.ts";
import { ACTIONS, slackEscape } from "./messages.ts";

const STATUS_TEXT: Record<string, string> = {
  answered: ":white_check_mark: answered today",
  asked: ":hourglass_flowing_sand: waiting for your answer",
  pending: ":clock9: you will be asked at your local time",
  not_asked: "not asked today",
  skipped: ":fast_forward: skipped today",
  away: ":palm_tree: away today",
  none: "no run for you today",
};

/** Holidays this far ahead are looked up, so "next run" skips them (as the dashboard's list does). */
const HOLIDAY_HORIZON_DAYS = 367;

/**
 * The App Home tab: the member's own active standups (those whose channel they are in now, as the fan-out would
 * ask them; when Slack cannot say in time, those whose latest run asked them), today's status for each, the next
 * run in the member's timezone (holidays included) and a dashboard link. A fixed number of queries, whatever the
 * number of schedules.
 */
export async function buildHomeView(deps: Deps, teamId: string, userId: string): Promise<HomeView> {
  const now = deps.clock.now();
  const utcToday = localDateOf(now, "UTC");
  const [tz, all, latest, holidays, timeOff] = await Promise.all([
    memberTimezone(deps, teamId, userId),
    listScheduleRows(deps, teamId),
    latestRunsForMember(deps.db, teamId, userId, now),
    holidaysBetween(deps, [teamId], shiftDate(utcToday, -1), shiftDate(utcToday, HOLIDAY_HORIZON_DAYS), "standups"),
    timeOffHomeBlocks(deps, teamId, userId),
  ]);
  const active = all.filter((s) => s.active);
  const mine = await standupsOfMember(deps, teamId, userId, active, latest);
  const latestOf = new Map(latest.map((r) => [r.scheduleId, r]));
  // Standups whose next run can be answered ahead now get an "Answer now" button (two queries for all of them).
  const lastRunDate = new Map(latest.map((r) => [r.scheduleId, r.localDate]));
  const offers = await earlyOffers(deps, teamId, userId, mine, { tz, lastRunDate, holidays: holidays.get(teamId) });
  const offerOf = new Map(offers.map((o) => [o.schedule.id, o]));

  const blocks: KnownBlock[] = [{ type: "header", text: { type: "plain_text", text: "Your standups" } }];
  if (mine.length === 0)
    blocks.push({
      type: "section",
      text: {
        type: "mrkdwn",
        text: "You are in no standup yet. Standups ask the members of their channel; an admin creates them in the dashboard.",
      },
    });
  for (const s of mine) {
    const run = latestOf.get(s.id);
    const ranToday = run !== undefined && run.localDate === localDateOf(now, s.scheduleTz);
    const status = !ranToday
      ? "none"
      : run.answered
        ? "answered"
        : run.status === "pending" && !run.asksLater
          ? "not_asked"
          : (run.status ?? "none");
    const next = nextRunOf(s, now, holidays.get(teamId), run?.localDate ?? null);
    const nextText = next ? DateTime.fromJSDate(next, { zone: tz }).toFormat("ccc d LLL, HH:mm ZZZZ") : "not scheduled";
    const early = earlyHomeLine(offerOf.get(s.id));
    const title = s.name ? `*${slackEscape(s.name)}* · <#${s.channelId}>` : `*<#${s.channelId}> standup*`;
    blocks.push({
      type: "section",
      text: {
        type: "mrkdwn",
        text: `${title}\n${s.scheduleTime} ${s.scheduleTz} · ${s.scheduleDays}\nToday: ${STATUS_TEXT[status] ?? STATUS_TEXT.none}\nNext run: ${nextText}${early ? `\n${early.line}` : ""}`,
      },
      ...(early ? { accessory: early.accessory } : {}),
    });
  }
  // Time off: the member's current or next range and its buttons, kept with the dashboard button.
  blocks.push(...timeOff);
  blocks.push({
    type: "actions",
    elements: [
      {
        type: "button",
        text: { type: "plain_text", text: "Open dashboard" },
        url: loginUrl(deps, teamId, userId),
        action_id: ACTIONS.openDashboard,
        style: "primary",
      },
      profileButton(),
    ],
  });
  // A view holds 100 blocks: past that the list ends with a count, and the dashboard button stays.
  return fitHome(
    { type: "home", blocks },
    { keepLast: 1 + timeOff.length, more: (n) => `…and ${n} more standups in the dashboard.` },
  );
}
