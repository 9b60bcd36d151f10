import { and, eq, gte, sql } from "drizzle-orm";
import type { AnswerValue, QuestionDetail } from "../../contract/questions.ts";
import type { Executor } from "../../db/client.ts";
import { earlyAnswers, standupRuns } from "../../db/schema.ts";

export type EarlyAnswerRow = typeof earlyAnswers.$inferSelect;

/** The member's early answers from `fromDate` on (Home and `/upbeat answer` show which are already in). */
export async function earlyAnswersOf(
  ex: Executor,
  teamId: string,
  userId: string,
  fromDate: string,
): Promise<EarlyAnswerRow[]> {
  return ex
    .select()
    .from(earlyAnswers)
    .where(
      and(eq(earlyAnswers.teamId, teamId), eq(earlyAnswers.userId, userId), gte(earlyAnswers.localDate, fromDate)),
    );
}

export async function findEarlyAnswer(
  ex: Executor,
  k: { teamId: string; scheduleId: string; userId: string; localDate: string },
): Promise<EarlyAnswerRow | undefined> {
  const [row] = await ex.select().from(earlyAnswers).where(earlyKey(k));
  return row;
}

/**
 * One early answer per member, standup and date: answering again replaces it (until the run asks them). True when
 * this was the first one (the row was inserted, not updated).
 */
export async function upsertEarlyAnswer(
  ex: Executor,
  a: {
    teamId: string;
    scheduleId: string;
    userId: string;
    localDate: string;
    answers: string[];
    answerValues: AnswerValue[] | null;
    mood: string | null;
    /** The questions these answers answer (`questionDetailsOf`). */
    questions: QuestionDetail[];
  },
  now: Date,
): Promise<boolean> {
  const [row] = await ex
    .insert(earlyAnswers)
    .values({ ...a, submittedAt: now, updatedAt: now })
    .onConflictDoUpdate({
      target: [earlyAnswers.teamId, earlyAnswers.scheduleId, earlyAnswers.userId, earlyAnswers.localDate],
      set: { answers: a.answers, answerValues: a.answerValues, mood: a.mood, questions: a.questions, updatedAt: now },
    })
    // xmax is 0 on a freshly inserted row version, the updating transaction's id on an updated one.
    .returning({ inserted: sql<boolean>`(xmax = 0)` });
  return row?.inserted === true;
}

/**
 * Takes the early answer away to turn it into the run's response: of two instances converting at once, only the one
 * whose delete returns the row goes on (the other's transaction rolls back).
 */
export async function takeEarlyAnswer(
  ex: Executor,
  k: { teamId: string; scheduleId: string; userId: string; localDate: string },
): Promise<EarlyAnswerRow | undefined> {
  const [gone] = await ex.delete(earlyAnswers).where(earlyKey(k)).returning();
  return gone;
}

/**
 * Serialises saving a member's early answer with turning it into the run's response (held until the transaction
 * ends): a save either lands before the conversion (and is converted) or sees the run's answer after it.
 */
export async function lockEarlyAnswer(
  ex: Executor,
  k: { teamId: string; scheduleId: string; userId: string; localDate: string },
): Promise<void> {
  const key = `${k.teamId}|${k.scheduleId}|${k.userId}|${k.localDate}`;
  await ex.execute(sql`select pg_advisory_xact_lock(hashtext(${key}))`);
}

function earlyKey(k: { teamId: string; scheduleId: string; userId: string; localDate: string }) {
  return and(
    eq(earlyAnswers.teamId, k.teamId),
    eq(earlyAnswers.scheduleId, k.scheduleId),
    eq(earlyAnswers.userId, k.userId),
    eq(earlyAnswers.localDate, k.localDate),
  );
}

/** The run of a standup on a date, if it started. */
export async function runOnDate(ex: Executor, teamId: string, scheduleId: string, localDate: string) {
  const [row] = await ex
    .select({ id: standupRuns.id, status: standupRuns.status })
    .from(standupRuns)
    .where(
      and(eq(standupRuns.teamId, teamId), eq(standupRuns.scheduleId, scheduleId), eq(standupRuns.localDate, localDate)),
    );
  return row;
}
