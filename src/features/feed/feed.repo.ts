import { and, desc, eq, gte, isNull, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { feedTokens, installations, members, responses, schedules, standupRuns } from "../../db/schema.ts";

/** The workspace a feed token opens, with what the page needs to know about it. */
export interface FeedWorkspace {
  teamId: string;
  teamName: string;
}

export interface FeedResponseRow {
  userId: string;
  /** Null when the member row is gone (their data deleted). */
  realName: string | null;
  displayName: string | null;
  standupDate: string;
  answers: string[];
  mood: string | null;
  hasBlocker: boolean;
  submittedAt: Date;
  editedAt: Date | null;
  /** Questions as the run asked them (never the schedule's current ones); null when the run row is gone. */
  runQuestions: string[] | null;
  /** The schedule's own name ('' when it has none) and channel, for the standup's display name. */
  scheduleName: string | null;
  channelId: string | null;
}

/** One token per workspace: a new one replaces the old hash, so the old token stops working at once. */
export async function upsertFeedToken(
  ex: Executor,
  teamId: string,
  tokenHash: string,
  createdBy: string,
  now: Date,
): Promise<void> {
  await ex
    .insert(feedTokens)
    .values({ teamId, tokenHash, createdBy, createdAt: now })
    .onConflictDoUpdate({ target: feedTokens.teamId, set: { tokenHash, createdBy, createdAt: now } });
}

export async function deleteFeedToken(ex: Executor, teamId: string): Promise<void> {
  await ex.delete(feedTokens).where(eq(feedTokens.teamId, teamId));
}

/** The installed workspace holding this token hash; an uninstalled workspace has no public feed. */
export async function findFeedWorkspace(ex: Executor, tokenHash: string): Promise<FeedWorkspace | undefined> {
  const [row] = await ex
    .select({ teamId: feedTokens.teamId, teamName: installations.teamName })
    .from(feedTokens)
    .innerJoin(installations, eq(installations.teamId, feedTokens.teamId))
    .where(and(eq(feedTokens.tokenHash, tokenHash), isNull(installations.uninstalledAt)))
    .limit(1);
  return row;
}

/**
 * The workspace's newest responses from `fromDate` on, newest day first, at most `limit` rows.
 * Served by responses_team_date_idx; names, the run's questions and the schedule's name are joined in the
 * same query rather than asked of members, runs and schedules row by row.
 */
export async function selectRecentResponses(
  ex: Executor,
  teamId: string,
  fromDate: string,
  limit: number,
): Promise<FeedResponseRow[]> {
  return ex
    .select({
      userId: responses.userId,
      realName: members.realName,
      displayName: members.displayName,
      standupDate: responses.standupDate,
      answers: responses.answers,
      mood: responses.mood,
      hasBlocker: responses.hasBlocker,
      submittedAt: responses.submittedAt,
      editedAt: responses.editedAt,
      runQuestions: standupRuns.questions,
      scheduleName: schedules.name,
      channelId: sql<string | null>`coalesce(${schedules.channelId}, ${standupRuns.channelId})`,
    })
    .from(responses)
    .leftJoin(members, and(eq(members.teamId, responses.teamId), eq(members.userId, responses.userId)))
    .leftJoin(standupRuns, and(eq(standupRuns.id, responses.runId), eq(standupRuns.teamId, responses.teamId)))
    .leftJoin(schedules, and(eq(schedules.id, responses.scheduleId), eq(schedules.teamId, responses.teamId)))
    .where(and(eq(responses.teamId, teamId), gte(responses.standupDate, fromDate)))
    .orderBy(desc(responses.standupDate), desc(responses.submittedAt), desc(responses.id))
    .limit(limit);
}
