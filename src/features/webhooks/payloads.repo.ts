import { and, eq, notInArray, sql } from "drizzle-orm";
import { anyOf } from "../../db/arrays.ts";
import { type Executor, rows } from "../../db/client.ts";
import { members, responses, runParticipants, schedules, standupRuns } from "../../db/schema.ts";
import { nameOfRow } from "../../lib/person-names.ts";

/**
 * The reads behind a delivery's `data`: done in the emitter's transaction, so the snapshot is what the event
 * changed, as it was then. Each is a lookup by primary key or a small join.
 */

export interface ResponseSnapshotRow {
  id: number;
  runId: number;
  userId: string;
  standupDate: string;
  answers: string[];
  blockers: string;
  mood: string | null;
  hasBlocker: boolean;
  submittedAt: Date;
  editedAt: Date | null;
  questions: string[];
  channelId: string;
  scheduleId: string;
  scheduleName: string;
}

export async function selectResponse(
  ex: Executor,
  teamId: string,
  responseId: number,
): Promise<ResponseSnapshotRow | undefined> {
  const [row] = await ex
    .select({
      id: responses.id,
      runId: responses.runId,
      userId: responses.userId,
      standupDate: responses.standupDate,
      answers: responses.answers,
      blockers: responses.blockers,
      mood: responses.mood,
      hasBlocker: responses.hasBlocker,
      submittedAt: responses.submittedAt,
      editedAt: responses.editedAt,
      questions: standupRuns.questions,
      channelId: standupRuns.channelId,
      scheduleId: responses.scheduleId,
      scheduleName: sql<string>`coalesce(${schedules.name}, '')`,
    })
    .from(responses)
    .innerJoin(standupRuns, eq(standupRuns.id, responses.runId))
    .leftJoin(schedules, eq(schedules.id, responses.scheduleId))
    .where(and(eq(responses.teamId, teamId), eq(responses.id, responseId)));
  return row;
}

export interface RunSnapshotRow {
  id: number;
  localDate: string;
  channelId: string;
  scheduleId: string;
  scheduleName: string;
}

export async function selectRun(ex: Executor, teamId: string, runId: number): Promise<RunSnapshotRow | undefined> {
  const [row] = await ex
    .select({
      id: standupRuns.id,
      localDate: standupRuns.localDate,
      channelId: standupRuns.channelId,
      scheduleId: standupRuns.scheduleId,
      scheduleName: sql<string>`coalesce(${schedules.name}, '')`,
    })
    .from(standupRuns)
    .leftJoin(schedules, eq(schedules.id, standupRuns.scheduleId))
    .where(and(eq(standupRuns.teamId, teamId), eq(standupRuns.id, runId)));
  return row;
}

/** Who was asked (pending members of a member-timezone run never were) and what each answered, if anything. */
export async function selectRunOutcome(
  ex: Executor,
  runId: number,
): Promise<{ userId: string; answered: boolean; hasBlocker: boolean; blockers: string; mood: string | null }[]> {
  return ex
    .select({
      userId: runParticipants.userId,
      answered: sql<boolean>`${responses.id} is not null`,
      hasBlocker: sql<boolean>`coalesce(${responses.hasBlocker}, false)`,
      blockers: sql<string>`coalesce(${responses.blockers}, '')`,
      mood: responses.mood,
    })
    .from(runParticipants)
    .leftJoin(responses, and(eq(responses.runId, runParticipants.runId), eq(responses.userId, runParticipants.userId)))
    .where(and(eq(runParticipants.runId, runId), notInArray(runParticipants.status, ["pending", "away"])))
    .orderBy(runParticipants.userId);
}

/** Real name, else display name; people the workspace does not know are absent. */
export async function selectNames(ex: Executor, teamId: string, userIds: string[]): Promise<Map<string, string>> {
  const ids = [...new Set(userIds)];
  if (ids.length === 0) return new Map();
  const found = await ex
    .select({ userId: members.userId, realName: members.realName, displayName: members.displayName })
    .from(members)
    .where(and(eq(members.teamId, teamId), anyOf(members.userId, ids)));
  return new Map(found.map((m) => [m.userId, nameOfRow(m)]));
}

/** Active admins of the workspace, who hear when an endpoint is disabled. */
export async function selectAdmins(ex: Executor, teamId: string): Promise<string[]> {
  const found = await ex
    .select({ userId: members.userId })
    .from(members)
    .where(and(eq(members.teamId, teamId), eq(members.role, "admin"), eq(members.active, true)))
    .orderBy(members.userId);
  return found.map((m) => m.userId);
}

export interface BlockerSnapshotRow {
  id: number;
  userId: string;
  text: string;
  openedDate: string;
  openedAt: Date | string;
  resolvedAt: Date | string | null;
  resolvedBy: string | null;
  resolutionNote: string | null;
  resolvedVia: string | null;
  scheduleId: string;
  scheduleName: string;
  channelId: string;
}

export async function selectBlocker(ex: Executor, teamId: string, id: number): Promise<BlockerSnapshotRow | undefined> {
  const [row] = await rows<BlockerSnapshotRow>(
    ex,
    sql`select b.id::int as id, b.user_id as "userId", b.text, b.opened_date::text as "openedDate",
          b.opened_at as "openedAt", b.resolved_at as "resolvedAt", b.resolved_by as "resolvedBy",
          b.resolution_note as "resolutionNote", b.resolved_via as "resolvedVia", b.schedule_id as "scheduleId",
          coalesce(s.name, '') as "scheduleName", coalesce(s.channel_id, '') as "channelId"
        from blockers b left join schedules s on s.id = b.schedule_id and s.team_id = b.team_id
        where b.team_id = ${teamId} and b.id = ${id}`,
  );
  return row;
}
