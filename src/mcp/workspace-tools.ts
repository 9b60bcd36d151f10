import { getStats, MOOD_SCORE, moodSummary, overallPct, participationBoth } from "../features/insights/index.ts";
import { listMemberViews, listPeople } from "../features/members/index.ts";
import { displayName, listScheduleRows, standupChannelNames } from "../features/schedules/index.ts";
import { daysArg, defineTool, echoFilters, lastDays, scheduleArg, toolFilters, userArg } from "./tool-kit.ts";

const MOOD_SCALE = `Moods are scored ${Object.entries(MOOD_SCORE)
  .map(([mood, score]) => `${mood} = ${score}`)
  .join(", ")}.`;
const TREND =
  'trend compares the second half of the window with the first: "up" or "down" when the average moved by more ' +
  'than 0.2 points, else "flat".';

export const getParticipation = defineTool({
  name: "get_participation",
  title: "Participation statistics",
  description:
    "How reliably members answer their standups. daily: one row per day that had a standup, with total (members " +
    "asked), submitted (members who answered), pct (submitted / total), open and awaiting. While a standup is " +
    "still open (open: true) its pct is answered so far and awaiting is how many of total have not answered yet. " +
    "overall_pct: answered / asked over the whole window, leaving out who is still awaiting. members: per member " +
    "asked, submitted, pct, current_streak (standups answered in a row, newest first) and blockers (responses " +
    "that reported one). Percentages are whole numbers 0 to 100. A standup still open is not a miss: awaiting " +
    "members lower neither overall_pct nor a member's pct, and break no streak.",
  input: { days: daysArg(7, "Standups from this window count."), schedule_id: scheduleArg(), user_id: userArg() },
  async run(ctx, args) {
    const [w, f] = await Promise.all([lastDays(ctx, args.days), toolFilters(ctx, args)]);
    const { daily, members } = await participationBoth(ctx.deps, ctx.teamId, w, f);
    return { ...w, ...echoFilters(args), overall_pct: overallPct(daily), daily, members };
  },
});

export const getMembers = defineTool({
  name: "get_members",
  title: "Workspace members",
  description:
    "Everyone Upbeat knows in the workspace: user_id (the Slack user id other tools take), real_name, active " +
    "(false for people who left or were deactivated) and, when the credential reads as a workspace admin (an API " +
    "key, or a connection by an admin), email, tz (IANA timezone) and role (admin or member); for anyone else " +
    "display_name and avatar_url instead, as the dashboard shows members.",
  input: {},
  async run(ctx) {
    // Members see people as the dashboard shows them (/dashboard/api/people): e-mails and roles are admin-only there.
    const members = ctx.isAdmin ? await listMemberViews(ctx.deps, ctx.teamId) : await listPeople(ctx.deps, ctx.teamId);
    return { count: members.length, active: members.filter((m) => m.active).length, members };
  },
});

export const getWorkspaceSummary = defineTool({
  name: "get_workspace_summary",
  title: "Workspace health snapshot",
  description:
    "A one-call overview of the workspace's standups: team_name, today's date in the workspace timezone, " +
    "total_members (active), submitted_today, participation_7d_pct, active_blockers (open blocker items " +
    "of active members: reported and not resolved yet; get_blockers lists them), schedules and active_schedules, standups (schedule_id, " +
    "standup_name, channel_id and active of each: the schedule_id other tools filter by), and mood_7d (overall_avg on " +
    `a 1 to 5 scale, 0 when nobody gave a mood, and trend). ${MOOD_SCALE} Start here, then drill down with the ` +
    "other tools.",
  input: {},
  async run(ctx) {
    const w = await lastDays(ctx, 7);
    const [stats, schedules, mood, channels] = await Promise.all([
      getStats(ctx.deps, ctx.teamId),
      listScheduleRows(ctx.deps, ctx.teamId),
      moodSummary(ctx.deps, ctx.teamId, w),
      standupChannelNames(ctx.deps, ctx.teamId),
    ]);
    return {
      team_name: ctx.teamName,
      today: w.to,
      ...stats,
      schedules: schedules.length,
      active_schedules: schedules.filter((s) => s.active).length,
      standups: schedules.map((s) => ({
        schedule_id: s.id,
        standup_name: displayName({ name: s.name, channelId: s.channelId }, channels),
        channel_id: s.channelId,
        active: s.active,
      })),
      mood_7d: { overall_avg: mood.overall_avg, trend: mood.trend },
    };
  },
});

export const getMoodSummary = defineTool({
  name: "get_mood_summary",
  title: "Mood trends",
  description:
    `How the team feels over time, from the mood members pick with their standup. ${MOOD_SCALE} daily: one row ` +
    "per day with answers, with avg_score and counts per mood emoji. overall_avg: the window's average (0 when " +
    `nobody gave a mood). responses_with_mood: how many answers the averages rest on. ${TREND}`,
  input: { days: daysArg(14, "Moods from this window count."), schedule_id: scheduleArg(), user_id: userArg() },
  async run(ctx, args) {
    const [w, f] = await Promise.all([lastDays(ctx, args.days), toolFilters(ctx, args)]);
    const mood = await moodSummary(ctx.deps, ctx.teamId, w, f);
    const responsesWithMood = mood.daily.reduce((n, d) => n + Object.values(d.counts).reduce((m, k) => m + k, 0), 0);
    return {
      ...w,
      ...echoFilters(args),
      overall_avg: mood.overall_avg,
      trend: mood.trend,
      responses_with_mood: responsesWithMood,
      daily: mood.daily,
    };
  },
});
