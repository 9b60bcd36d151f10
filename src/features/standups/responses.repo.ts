import { and, eq, isNull, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { responses } from "../../db/schema.ts";

export type ResponseRow = typeof responses.$inferSelect;

export async function findResponseById(ex: Executor, teamId: string, id: number): Promise<ResponseRow | undefined> {
  const [row] = await ex
    .select()
    .from(responses)
    .where(and(eq(responses.teamId, teamId), eq(responses.id, id)));
  return row;
}

export async function findResponseOfRun(ex: Executor, runId: number, userId: string): Promise<ResponseRow | undefined> {
  const [row] = await ex
    .select()
    .from(responses)
    .where(and(eq(responses.runId, runId), eq(responses.userId, userId)));
  return row;
}

export async function responsesOfRun(ex: Executor, runId: number): Promise<ResponseRow[]> {
  return ex.select().from(responses).where(eq(responses.runId, runId)).orderBy(responses.submittedAt);
}

export type NewResponse = Pick<
  ResponseRow,
  | "teamId"
  | "scheduleId"
  | "runId"
  | "userId"
  | "standupDate"
  | "answers"
  | "yesterday"
  | "today"
  | "blockers"
  | "mood"
  | "hasBlocker"
> &
  Partial<Pick<ResponseRow, "late">>;

/** One response per member per schedule per standup date: a second submission edits it (never changing `late`). */
export async function upsertResponse(
  ex: Executor,
  r: NewResponse,
  now: Date,
): Promise<{ id: number; created: boolean }> {
  const [row] = await ex
    .insert(responses)
    .values({ ...r, submittedAt: now })
    .onConflictDoUpdate({
      target: [responses.teamId, responses.scheduleId, responses.userId, responses.standupDate],
      set: {
        answers: r.answers,
        yesterday: r.yesterday,
        today: r.today,
        blockers: r.blockers,
        mood: r.mood,
        hasBlocker: r.hasBlocker,
        editedAt: now,
        version: sql`${responses.version} + 1`,
      },
    })
    .returning({ id: responses.id, version: responses.version });
  return { id: row!.id, created: row!.version === 1 };
}

/** True exactly once per response: the first time it is seen with a blocker. */
export async function claimBlockerReported(ex: Executor, responseId: number, now: Date): Promise<boolean> {
  const r = await ex
    .update(responses)
    .set({ blockerReportedAt: now })
    .where(and(eq(responses.id, responseId), isNull(responses.blockerReportedAt)))
    .returning({ id: responses.id });
  return r.length > 0;
}

export async function setReplyTs(ex: Executor, responseId: number, ts: string): Promise<void> {
  await ex.update(responses).set({ replyTs: ts }).where(eq(responses.id, responseId));
}
