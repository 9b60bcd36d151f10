import { and, eq, isNull, sql } from "drizzle-orm";
import type { AnswerValue } from "../../contract/questions.ts";
import { pgArray } from "../../db/arrays.ts";
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
  | "answerValues"
  | "yesterday"
  | "today"
  | "blockers"
  | "mood"
  | "hasBlocker"
> &
  Partial<Pick<ResponseRow, "late" | "via">>;

/**
 * One response per member per schedule per standup date: a second submission edits it (never changing `late`; `via`
 * is the latest writer's).
 */
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
        answerValues: r.answerValues,
        yesterday: r.yesterday,
        today: r.today,
        blockers: r.blockers,
        mood: r.mood,
        hasBlocker: r.hasBlocker,
        // The latest writer's: an answer edited in Slack after an AI client gave it is no longer "via MCP".
        via: r.via ?? null,
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

/**
 * Anonymous answers of one first submission: no member, no time, so nothing links them back to the response. Called
 * only when the response was created (an edit never adds a second answer).
 */
export async function insertAnonymousAnswers(
  ex: Executor,
  where: { teamId: string; scheduleId: string; standupDate: string },
  answers: readonly { questionIndex: number; value: AnswerValue }[],
): Promise<void> {
  if (answers.length === 0) return;
  // One statement whatever the number of questions: the indexes and values go in as two arrays.
  await ex.execute(sql`
    insert into anonymous_answers (team_id, schedule_id, standup_date, question_index, value)
    select ${where.teamId}, ${where.scheduleId}, ${where.standupDate}::date, a.question_index, a.value::jsonb
    from unnest(${pgArray(
      "int4",
      answers.map((a) => a.questionIndex),
    )},
                ${pgArray(
                  "text",
                  answers.map((a) => JSON.stringify(a.value)),
                )}) as a(question_index, value)`);
}
