import { isDeepStrictEqual } from "node:util";
import { type QuestionDetail, questionDetailsOf } from "../../contract/questions.ts";
import type { Deps } from "../../deps.ts";
import { submitResponse } from "./answers.service.ts";
import { type EarlyAnswerRow, findEarlyAnswer, lockEarlyAnswer, takeEarlyAnswer } from "./early-answers.repo.ts";
import { findResponseOfRun } from "./responses.repo.ts";
import type { RunRow } from "./runs.repo.ts";

/**
 * What became of a member's early answer when the run asked them: their response (made from it now, or the run's own
 * answer that stands), `questionsChanged` (the run asks other questions than those answered: the answer is dropped
 * and the member is asked as usual), or nothing (no early answer).
 */
export type EarlyConversion = { responseId: number } | { questionsChanged: true } | undefined;

type ConvertRun = Pick<RunRow, "id" | "teamId" | "scheduleId" | "localDate" | "questions" | "questionDetails">;

class TakenElsewhere extends Error {}
class EditedMeanwhile extends Error {}

/** Saves racing the conversion: after this many rounds of "it was edited again" the ask job retries later. */
const MAX_ROUNDS = 5;

/**
 * When a run asks a member who answered it ahead, the early answer becomes their response through `submitResponse`
 * (thread reply, events, webhooks and rules once). The early row is deleted in the response's transaction under the
 * member's early-answer lock, so under two instances only one conversion commits, and a save racing it either lands
 * before (and is what gets converted) or after (and goes to the run's response). Answers are stored by position: if
 * the run's questions are not the ones answered, they are dropped instead of landing under other questions.
 * The ask job checks the participant first: a retried ask whose conversion committed finds them `answered`.
 */
export async function convertEarlyAnswer(
  deps: Pick<Deps, "db" | "clock" | "queue" | "events">,
  run: ConvertRun,
  userId: string,
): Promise<EarlyConversion> {
  const key = { teamId: run.teamId, scheduleId: run.scheduleId, userId, localDate: run.localDate };
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const early = await findEarlyAnswer(deps.db, key);
    if (!early) return undefined;
    const answered = await findResponseOfRun(deps.db, run.id, userId);
    try {
      if (answered || !sameQuestions(early.questions, run)) {
        // Answered the run itself meanwhile (that answer stands), or other questions: the early answer goes.
        await deps.db.transaction(async (tx) => {
          await lockEarlyAnswer(tx, key);
          if (!(await takeEarlyAnswer(tx, key))) throw new TakenElsewhere();
        });
        return answered ? { responseId: answered.id } : { questionsChanged: true };
      }
      const outcome = await submitResponse(
        deps,
        {
          teamId: run.teamId,
          runId: run.id,
          userId,
          answers: early.answers,
          ...(early.answerValues ? { values: early.answerValues } : {}),
          mood: early.mood,
        },
        async (tx) => {
          await lockEarlyAnswer(tx, key);
          const taken = await takeEarlyAnswer(tx, key);
          if (!taken) throw new TakenElsewhere();
          // Replaced between the read above and the lock: convert the latest answer instead.
          if (!sameAnswer(taken, early)) throw new EditedMeanwhile();
        },
      );
      return outcome.ok ? { responseId: outcome.responseId } : undefined;
    } catch (err) {
      if (err instanceof EditedMeanwhile) continue;
      if (!(err instanceof TakenElsewhere)) throw err;
      // The other instance converted it (its response is there) or dropped it for changed questions.
      const theirs = await findResponseOfRun(deps.db, run.id, userId);
      return theirs ? { responseId: theirs.id } : { questionsChanged: true };
    }
  }
  throw new Error("early answer kept changing while it was converted");
}

/** The questions as the run asks them, in the form an early answer keeps them. */
export function questionsAsked(run: Pick<RunRow, "questions" | "questionDetails">): QuestionDetail[] {
  return questionDetailsOf(run.questions, run.questionDetails);
}

/** Same texts, types, options, bounds and flags, in the same order (jsonb does not keep key order). */
function sameQuestions(answered: readonly QuestionDetail[], run: Pick<RunRow, "questions" | "questionDetails">) {
  return isDeepStrictEqual(plain(answered), plain(questionsAsked(run)));
}

function sameAnswer(a: EarlyAnswerRow, b: EarlyAnswerRow): boolean {
  return isDeepStrictEqual(
    plain([a.answers, a.answerValues, a.mood, a.questions]),
    plain([b.answers, b.answerValues, b.mood, b.questions]),
  );
}

/** As stored in jsonb: undefined members gone. */
function plain(x: unknown): unknown {
  return JSON.parse(JSON.stringify(x)) as unknown;
}
