import { and, asc, desc, eq, gte, lte, sql } from "drizzle-orm";
import type { QuestionDetail } from "../../contract/questions.ts";
import { type Executor, rows } from "../../db/client.ts";
import { responses, runParticipants, standupRuns } from "../../db/schema.ts";
import type { Deps } from "../../deps.ts";
import { memberNames } from "../members/index.ts";
import { blockerAgeDays, liveBlockerSql } from "../standups/index.ts";
import type { Quoted, RunPrompt } from "./prompt.ts";

/**
 * What the model may read, and nothing more: the one run's responses (by run id and workspace), the standup's open
 * blockers (the text only where this run reported it; older ones by name and age), the run's counts and members'
 * names. Anonymous answers are never read (they live in anonymous_answers,
 * which this module does not touch), and an anonymous question's slot in a response is skipped as well.
 */

export type RunRow = typeof standupRuns.$inferSelect;

export async function findRunOf(ex: Executor, teamId: string, runId: number): Promise<RunRow | undefined> {
  const [run] = await ex
    .select()
    .from(standupRuns)
    .where(and(eq(standupRuns.teamId, teamId), eq(standupRuns.id, runId)));
  return run;
}

export interface RunCounts {
  asked: number;
  answered: number;
  skipped: number;
  away: number;
}

/** Who the run asked (pending participants never were), answered, skipped and was away. */
export async function runCounts(ex: Executor, teamId: string, runId: number): Promise<RunCounts> {
  const found = await ex
    .select({ status: runParticipants.status, n: sql<number>`count(*)::int` })
    .from(runParticipants)
    .where(and(eq(runParticipants.teamId, teamId), eq(runParticipants.runId, runId)))
    .groupBy(runParticipants.status);
  const n = (s: string) => found.find((r) => r.status === s)?.n ?? 0;
  return {
    asked: n("asked") + n("answered") + n("skipped"),
    answered: n("answered"),
    skipped: n("skipped"),
    away: n("away"),
  };
}

interface AnswerRow {
  userId: string;
  answers: string[];
  mood: string | null;
}

/** "Question: answer" items of one response, without anonymous questions and empty answers. */
function answerItems(
  name: string,
  r: AnswerRow,
  questions: readonly string[],
  details: readonly QuestionDetail[] | null,
  prefix = "",
): Quoted[] {
  const who = `${prefix}${name}${r.mood ? ` (mood ${r.mood})` : ""}`;
  return questions.flatMap((q, i) => {
    if (details?.[i]?.anonymous) return [];
    const text = (r.answers[i] ?? "").trim();
    return text ? [{ label: `${who}, ${q}`, text }] : [];
  });
}

export async function runPrompt(deps: Pick<Deps, "db">, run: RunRow, counts: RunCounts): Promise<RunPrompt> {
  const answered = await deps.db
    .select({
      userId: responses.userId,
      answers: responses.answers,
      mood: responses.mood,
    })
    .from(responses)
    .where(and(eq(responses.teamId, run.teamId), eq(responses.runId, run.id)))
    .orderBy(asc(responses.submittedAt), asc(responses.id));
  // The standup's open blockers: the text only of those this run's response reported (it is this run's answer);
  // older ones by name and age alone, so no other run's words reach the model.
  const open = await rows<{ userId: string; text: string | null; openedDate: string }>(
    deps.db,
    sql`select b.user_id as "userId", case when r.id is not null then b.text end as text,
          b.opened_date::text as "openedDate"
        from blockers b
        left join responses r on r.team_id = b.team_id and r.id = b.last_response_id and r.run_id = ${run.id}
        where b.team_id = ${run.teamId} and b.schedule_id = ${run.scheduleId} and b.status = 'open'
          and ${liveBlockerSql("b")}
        order by b.opened_date, b.id limit 100`,
  );
  const names = await memberNames(deps, run.teamId, [...answered.map((r) => r.userId), ...open.map((b) => b.userId)]);
  const nameOf = (id: string) => names.get(id) ?? "A former member";
  const days = (n: number) => (n === 1 ? "1 day" : `${n} days`);
  const age = (b: { openedDate: string }) => days(blockerAgeDays(b.openedDate, run.localDate));
  return {
    date: run.localDate,
    ...counts,
    answers: answered.flatMap((r) => answerItems(nameOf(r.userId), r, run.questions, run.questionDetails)),
    blockers: open.flatMap((b) =>
      b.text === null ? [] : [{ label: `${nameOf(b.userId)}, open ${age(b)}`, text: b.text }],
    ),
    olderBlockers: open.flatMap((b) => (b.text === null ? [`${nameOf(b.userId)}: blocked for ${age(b)}`] : [])),
  };
}

/** The week's answers of one standup (each run's own questions), for the digest's summary. */
export async function weekAnswers(
  deps: Pick<Deps, "db">,
  teamId: string,
  scheduleId: string,
  from: string,
  to: string,
): Promise<Quoted[]> {
  const found = await deps.db
    .select({
      userId: responses.userId,
      date: responses.standupDate,
      answers: responses.answers,
      mood: responses.mood,
      questions: standupRuns.questions,
      details: standupRuns.questionDetails,
    })
    .from(responses)
    .innerJoin(standupRuns, and(eq(standupRuns.id, responses.runId), eq(standupRuns.teamId, responses.teamId)))
    .where(
      and(
        eq(responses.teamId, teamId),
        eq(responses.scheduleId, scheduleId),
        gte(responses.standupDate, from),
        lte(responses.standupDate, to),
      ),
    )
    .orderBy(asc(responses.standupDate), asc(responses.submittedAt), asc(responses.id));
  const names = await memberNames(
    deps,
    teamId,
    found.map((r) => r.userId),
  );
  return found.flatMap((r) =>
    answerItems(names.get(r.userId) ?? "A former member", r, r.questions, r.details, `${r.date}, `),
  );
}

/** Open blocker items of the standup now (members who left and deleted standups are not counted, as on Blockers). */
export async function openBlockerCount(ex: Executor, teamId: string, scheduleId: string): Promise<number> {
  const [row] = await rows<{ n: number }>(
    ex,
    sql`select count(*)::int as n from blockers
        where team_id = ${teamId} and schedule_id = ${scheduleId} and status = 'open' and ${liveBlockerSql("blockers")}`,
  );
  return row?.n ?? 0;
}

/** The run a get_summary call means: by id, else the standup's run on a date, else the newest (closed first). */
export async function pickRun(
  ex: Executor,
  teamId: string,
  by: { runId?: number | undefined; scheduleId?: string | undefined; date?: string | undefined },
): Promise<RunRow | undefined> {
  if (by.runId !== undefined) return findRunOf(ex, teamId, by.runId);
  const conditions = [eq(standupRuns.teamId, teamId)];
  if (by.scheduleId !== undefined) conditions.push(eq(standupRuns.scheduleId, by.scheduleId));
  if (by.date !== undefined) conditions.push(eq(standupRuns.localDate, by.date));
  const [run] = await ex
    .select()
    .from(standupRuns)
    .where(and(...conditions))
    .orderBy(desc(standupRuns.localDate), desc(standupRuns.id))
    .limit(1);
  return run;
}
