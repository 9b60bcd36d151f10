import { z } from "zod";
import { listBlockers } from "../features/blockers/index.ts";
import { completeWindow } from "../features/calendar/index.ts";
import { listStandups, participationDaily, searchAnswers } from "../features/insights/index.ts";
import {
  dateArg,
  daysArg,
  defineTool,
  echoFilters,
  lastDays,
  realDate,
  scheduleArg,
  ToolError,
  toolFilters,
  toolToday,
  userArg,
} from "./tool-kit.ts";

/** Answers run to 3,000 characters each: these caps keep a result inside a model's context. */
export const STANDUPS_LIMIT = 300;
export const TODAY_LIMIT = 500;
export const SEARCH_LIMIT = 25;
export const BLOCKERS_LIMIT = 200;
export const MAX_RANGE_DAYS = 92;
const DEFAULT_RANGE_DAYS = 7;

const RESPONSE_FIELDS =
  "Each response has user_id, real_name, standup_date, schedule_id and standup_name (which standup it answers), " +
  "answers (every answer in order, each {question, answer} with the question as it was asked), yesterday and " +
  "today (the first two answers), blockers (the answer to the standup's blocker question, empty when it has " +
  "none), blocker_question (its 1-based position in answers, or null), mood (an emoji from 😀 best to 😫 worst, " +
  "or empty), has_blocker (true when the blockers answer reports a real blocker) and submitted_at (ISO 8601 UTC).";

/** At most `limit` rows, and whether more existed (one extra row is fetched to know). */
function capped<T>(rows: T[], limit: number): { count: number; truncated: boolean; items: T[] } {
  const items = rows.slice(0, limit);
  return { count: items.length, truncated: rows.length > limit, items };
}

export const getStandups = defineTool({
  name: "get_standups",
  title: "Standup responses for a date range",
  description:
    "Standup responses of the workspace for a date range, newest day first. Without arguments: the last 7 days, " +
    `today included. Dates are YYYY-MM-DD in the workspace timezone; a range spans at most ${MAX_RANGE_DAYS} days. ` +
    `${RESPONSE_FIELDS} At most ${STANDUPS_LIMIT} responses are returned; truncated: true means there were more, ` +
    "so narrow the range or filter by user_id or schedule_id.",
  input: {
    from_date: dateArg("First day of the range; default: 6 days before to_date"),
    to_date: dateArg("Last day of the range; default: today (or from_date when that is in the future)"),
    user_id: userArg("Only this member's responses"),
    schedule_id: scheduleArg(),
  },
  async run(ctx, args) {
    const today = await toolToday(ctx);
    const ends = { from: realDate("from_date", args.from_date), to: realDate("to_date", args.to_date) };
    const { from, to, totalDays: days } = completeWindow(ends, today, DEFAULT_RANGE_DAYS);
    if (from > to) throw new ToolError(`from_date ${from} is after to_date ${to}`);
    if (days > MAX_RANGE_DAYS) {
      throw new ToolError(
        `${from} to ${to} spans ${days} days; at most ${MAX_RANGE_DAYS} are allowed. Narrow the range or make several calls.`,
      );
    }
    const f = await toolFilters(ctx, args);
    const rows = await listStandups(ctx.deps, ctx.teamId, { from, to }, { ...f, limit: STANDUPS_LIMIT + 1 });
    const { count, truncated, items } = capped(rows, STANDUPS_LIMIT);
    return { from, to, days, ...echoFilters(args), count, truncated, standups: items };
  },
});

export const getTodayStandups = defineTool({
  name: "get_today_standups",
  title: "Today's standup responses",
  description:
    "Every standup response submitted today (the date in the workspace timezone), with today's participation: " +
    "how many members answered (submitted), how many were asked (total) and pct (submitted / total). While a " +
    "standup is still open (open: true) pct is answered so far and awaiting is how many of total have not " +
    `answered yet: nobody has missed it yet. ${RESPONSE_FIELDS} participation is null when no standup ran today.`,
  input: { schedule_id: scheduleArg(), user_id: userArg() },
  async run(ctx, args) {
    const [date, f] = await Promise.all([toolToday(ctx), toolFilters(ctx, args)]);
    const [rows, participation] = await Promise.all([
      listStandups(ctx.deps, ctx.teamId, { from: date, to: date }, { ...f, limit: TODAY_LIMIT + 1 }),
      participationDaily(ctx.deps, ctx.teamId, { from: date, to: date }, f),
    ]);
    const { count, truncated, items } = capped(rows, TODAY_LIMIT);
    const today = participation[0];
    return {
      date,
      ...echoFilters(args),
      participation: today
        ? { submitted: today.submitted, total: today.total, pct: today.pct, open: today.open, awaiting: today.awaiting }
        : null,
      count,
      truncated,
      standups: items,
    };
  },
});

export const getBlockers = defineTool({
  name: "get_blockers",
  title: "Active blockers",
  description:
    "Open blocker items: each blocker a member reported that has not been resolved (answering the blocker question " +
    "with none, no or n/a, or resolving it on the dashboard or in Slack, resolves it). Only items reported (or " +
    "confirmed still blocked) within the window are listed, so days=1 gives what was raised or repeated today. " +
    "Each entry has blocker_id, user_id, real_name, schedule_id, standup_name, standup_date (when it was last " +
    "reported), blockers (the text), status (open) and age_days (whole days since it was first reported, in the " +
    `standup's timezone). Longest open first, at most ${BLOCKERS_LIMIT} (truncated: true when there are more).`,
  input: {
    days: daysArg(7, "Only items reported in this window count."),
    schedule_id: scheduleArg(),
    user_id: userArg(),
  },
  async run(ctx, args) {
    const [w, f] = await Promise.all([lastDays(ctx, args.days), toolFilters(ctx, args)]);
    const query = { status: "open", standup: f.scheduleId, member: f.userId, reportedSince: w.from } as const;
    const page = await listBlockers(ctx.deps, ctx.teamId, { ...query, per_page: BLOCKERS_LIMIT });
    const blockers = page.items.map((b) => ({
      blocker_id: b.id,
      user_id: b.user_id,
      real_name: b.real_name,
      schedule_id: b.standup_id,
      standup_name: b.standup_name,
      standup_date: b.last_date,
      blockers: b.text,
      status: b.status,
      age_days: b.age_days,
    }));
    return { ...w, ...echoFilters(args), count: blockers.length, truncated: page.total > blockers.length, blockers };
  },
});

export const searchStandups = defineTool({
  name: "search_standups",
  title: "Search standup responses",
  description:
    "Full-text search over every answer of every standup, like a web search: English word stemming " +
    '(deploy finds deployed), "quoted phrases", OR, and -word to exclude. Best matches first, at most ' +
    `${SEARCH_LIMIT}. Each result is a response as get_standups returns it (answers with their questions ` +
    "included), plus rank (higher is better) and snippet: the matching passage with the matched words wrapped in " +
    "**double asterisks**.",
  input: {
    query: z.string().trim().min(1).max(200).describe('Words to look for, e.g. staging deploy or "code review".'),
    days: daysArg(30, "Only responses from this window are searched."),
    schedule_id: scheduleArg(),
    user_id: userArg(),
  },
  async run(ctx, args) {
    const [w, f] = await Promise.all([lastDays(ctx, args.days), toolFilters(ctx, args)]);
    const results = await searchAnswers(ctx.deps, ctx.teamId, args.query, w, SEARCH_LIMIT, f);
    return {
      query: args.query,
      ...w,
      ...echoFilters(args),
      count: results.length,
      results,
      ...(results.length === 0
        ? { hint: "No matches. Try fewer or different words, or a longer window (days up to 365)." }
        : {}),
    };
  },
});
