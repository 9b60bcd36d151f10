import type { HomeView, KnownBlock } from "@slack/types";
import { and, eq } from "drizzle-orm";
import { DateTime } from "luxon";
import { fitHome } from "../../chat/block-fit.ts";
import { responses, runParticipants, standupRuns } from "../../db/schema.ts";
import type { Deps } from "../../deps.ts";
import { memberTimezone } from "../members/index.ts";
import { listActiveSchedules, nextRunAfter, parseDays } from "../schedules/index.ts";
import { loginUrl } from "../session/index.ts";
import { ACTIONS } from "./messages.ts";

const STATUS_TEXT: Record<string, string> = {
  answered: ":white_check_mark: answered today",
  pending: ":clock9: you will be asked at the standup's time in your timezone",
  asked: ":hourglass_flowing_sand: waiting for your answer",
  skipped: ":fast_forward: skipped today",
  none: "no run for you today",
};

/** The App Home tab: the member's schedules, today's status for each, next run in their timezone, a dashboard link. */
export async function buildHomeView(deps: Deps, teamId: string, userId: string): Promise<HomeView> {
  const now = deps.clock.now();
  const tz = await memberTimezone(deps, teamId, userId);
  const list = await listActiveSchedules(deps, teamId);

  const blocks: KnownBlock[] = [{ type: "header", text: { type: "plain_text", text: "Your standups" } }];
  if (list.length === 0)
    blocks.push({
      type: "section",
      text: { type: "mrkdwn", text: "No standups are scheduled yet. An admin can create one in the dashboard." },
    });
  for (const s of list) {
    const today = DateTime.fromJSDate(now, { zone: s.schedule_tz }).toISODate()!;
    const [row] = await deps.db
      .select({ status: runParticipants.status, answered: responses.id })
      .from(standupRuns)
      .leftJoin(runParticipants, and(eq(runParticipants.runId, standupRuns.id), eq(runParticipants.userId, userId)))
      .leftJoin(responses, and(eq(responses.runId, standupRuns.id), eq(responses.userId, userId)))
      .where(and(eq(standupRuns.scheduleId, s.id), eq(standupRuns.localDate, today)));
    const status = row?.answered ? "answered" : (row?.status ?? "none");
    const days = parseDays(s.schedule_days) ?? [];
    const next = nextRunAfter(
      { time: s.schedule_time, tz: s.schedule_tz, days },
      DateTime.fromJSDate(now, { zone: "utc" }),
      () => false,
    );
    const nextText = next ? next.startsAt.setZone(tz).toFormat("ccc d LLL, HH:mm ZZZZ") : "not scheduled";
    blocks.push({
      type: "section",
      text: {
        type: "mrkdwn",
        text: `*<#${s.channel_id}>* · ${s.schedule_time} ${s.schedule_tz} · ${s.schedule_days}\nToday: ${STATUS_TEXT[status]}\nNext run: ${nextText}`,
      },
    });
  }
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
    ],
  });
  // A view holds 100 blocks: past that the list ends with a count, and the dashboard button stays.
  return fitHome({ type: "home", blocks }, { keepLast: 1, more: (n) => `…and ${n} more standups in the dashboard.` });
}
