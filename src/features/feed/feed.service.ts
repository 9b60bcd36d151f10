import { DateTime } from "luxon";
import { type LabelledAnswer, mentionedUserIds, readableSlackText, type SlackNames } from "../../contract/index.ts";
import type { Deps } from "../../deps.ts";
import { randomToken, sha256Hex } from "../../lib/crypto.ts";
import { FORMER_MEMBER, nameOfRow } from "../../lib/person-names.ts";
import { shiftDate, todayIn, workspaceTimezone } from "../calendar/index.ts";
import { labelAnswers } from "../insights/index.ts";
import { memberNames } from "../members/index.ts";
import { displayName, standupChannelNames } from "../schedules/index.ts";
import {
  deleteFeedToken,
  type FeedResponseRow,
  findFeedWorkspace,
  selectRecentResponses,
  upsertFeedToken,
} from "./feed.repo.ts";

/** The feed shows today and the six days before it, in the workspace timezone. */
export const FEED_DAYS = 7;
export const FEED_MAX_RESPONSES = 200;
/** 32 random bytes in base64url, no padding. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export interface FeedEntry {
  name: string;
  /** The standup this answers, by its display name. */
  standup: string;
  /** Every answer with the question the run asked. */
  answers: LabelledAnswer[];
  mood: string | null;
  hasBlocker: boolean;
  /** Submission time, HH:mm in the workspace timezone. */
  time: string;
  edited: boolean;
}

export interface FeedDay {
  date: string;
  /** "Monday 2 March 2026" */
  heading: string;
  entries: FeedEntry[];
}

export interface FeedView {
  teamName: string;
  timezone: string;
  days: FeedDay[];
  /** The query hit its limit, so older responses in the window are not shown. */
  truncated: boolean;
}

type FeedDeps = Pick<Deps, "db" | "clock" | "chat">;

/** Creates or replaces the workspace's token. Only its hash is stored; the token is shown this once. */
export async function issueFeedToken(
  deps: Pick<Deps, "db" | "clock">,
  teamId: string,
  createdBy: string,
): Promise<string> {
  const token = randomToken(32);
  await upsertFeedToken(deps.db, teamId, sha256Hex(token), createdBy, deps.clock.now());
  return token;
}

export async function revokeFeedToken(deps: Pick<Deps, "db">, teamId: string): Promise<void> {
  await deleteFeedToken(deps.db, teamId);
}

function toEntry(row: FeedResponseRow, zone: string, names: Required<SlackNames>): FeedEntry {
  return {
    name: row.realName === null ? FORMER_MEMBER : nameOfRow(row),
    standup: displayName({ name: row.scheduleName, channelId: row.channelId ?? "" }, names.channels),
    answers: labelAnswers(row.runQuestions, row.answers).map((a) => ({
      ...a,
      answer: readableSlackText(a.answer, names),
    })),
    mood: row.mood || null,
    hasBlocker: row.hasBlocker,
    time: DateTime.fromJSDate(row.submittedAt, { zone }).toFormat("HH:mm"),
    edited: row.editedAt !== null,
  };
}

/** Rows arrive newest day first; consecutive rows of one date form that day's group. */
function groupByDate(rows: FeedResponseRow[], zone: string, names: Required<SlackNames>): FeedDay[] {
  const days: FeedDay[] = [];
  for (const row of rows) {
    let day = days.at(-1);
    if (day?.date !== row.standupDate) {
      const heading = DateTime.fromISO(row.standupDate, { zone: "UTC" })
        .setLocale("en-GB")
        .toFormat("cccc d LLLL yyyy");
      day = { date: row.standupDate, heading, entries: [] };
      days.push(day);
    }
    day.entries.push(toEntry(row, zone, names));
  }
  return days;
}

/**
 * The public feed behind a token, or undefined for a malformed, unknown or revoked token or an
 * uninstalled workspace (all answer the same 404, so nothing is learned from the difference).
 * The token is looked up by its SHA-256: the stored value never meets the raw token in a comparison.
 */
export async function loadFeed(deps: FeedDeps, token: string): Promise<FeedView | undefined> {
  if (!TOKEN_SHAPE.test(token)) return undefined;
  const workspace = await findFeedWorkspace(deps.db, sha256Hex(token));
  if (!workspace) return undefined;
  const zone = await workspaceTimezone(deps, workspace.teamId);
  const fromDate = shiftDate(todayIn(zone, deps.clock.now()), -(FEED_DAYS - 1));
  const rows = await selectRecentResponses(deps.db, workspace.teamId, fromDate, FEED_MAX_RESPONSES);
  // Unnamed standups and `<#C…>` mentions are named after their channel (Slack asked only when needed, cached,
  // briefly); `<@U…>` mentions read as the person's name.
  const needChannels = rows.some((r) => !r.scheduleName?.trim() || r.answers.some((a) => a.includes("<#")));
  const [channels, people] = await Promise.all([
    needChannels ? standupChannelNames(deps, workspace.teamId) : new Map<string, string>(),
    memberNames(deps, workspace.teamId, mentionedUserIds(rows.flatMap((r) => r.answers))),
  ]);
  return {
    teamName: workspace.teamName,
    timezone: zone,
    days: groupByDate(rows, zone, { people, channels }),
    truncated: rows.length >= FEED_MAX_RESPONSES,
  };
}
