import type { QuestionDetail } from "../../contract/questions.ts";
import type { Tx } from "../../db/client.ts";
import { ANONYMOUS_GIVEN, type DraftEntry, markAnonymousGiven, placeDraft } from "./drafts.repo.ts";
import { insertAnonymousAnswers } from "./responses.repo.ts";
import { type ParsedAnswer, parseDmAnswer } from "./typed-answers.ts";

/** An anonymous answer of the draft already taken care of: stored apart, nothing of it left with the member. */
const GIVEN: ParsedAnswer = { ok: true, text: "", value: null };

/**
 * An anonymous answer typed in the DM leaves the member's draft at once: in the transaction that appended it, its
 * value goes to anonymous_answers and the draft keeps only a marker at its question, so no row with the member's id
 * ever holds it (until the last question the draft would otherwise). The marker is the record that it was given: an
 * answer already marked is never stored again, and a late answer (after the member's window closed) is marked but
 * not stored, as a late submission keeps no anonymous answer. A value that does not fit or a blank (`-`) stays as it
 * is: the caller asks a bad one again, a blank is no answer. Returns the draft as it now is.
 */
export async function takeAnonymousAnswers(
  tx: Tx,
  run: { id: number; teamId: string; scheduleId: string; localDate: string },
  userId: string,
  details: readonly QuestionDetail[],
  draft: DraftEntry[],
  keep: boolean,
): Promise<DraftEntry[]> {
  let out = draft;
  for (const [i, e] of placeDraft(draft, details.length).entries()) {
    const d = details[i];
    if (!e || !d?.anonymous || e.anonymous !== undefined || e.ts === null) continue;
    const parsed = parseDmAnswer(d, e.text);
    if (!parsed.ok || parsed.value === null) continue;
    if (!(await markAnonymousGiven(tx, run.id, userId, e.ts, i))) continue;
    if (keep) {
      const where = { teamId: run.teamId, scheduleId: run.scheduleId, standupDate: run.localDate };
      await insertAnonymousAnswers(tx, where, [{ questionIndex: i, value: parsed.value }]);
    }
    out = out.map((x) => (x === e ? { ts: e.ts, text: ANONYMOUS_GIVEN, anonymous: i } : x));
  }
  return out;
}

/** Each question's answer in the draft, read against its question; undefined where none was given yet. */
export function readDraft(draft: readonly DraftEntry[], details: readonly QuestionDetail[]) {
  const placed = placeDraft(draft, details.length);
  const parsed = placed.map((e, i) =>
    e === undefined ? undefined : e.anonymous !== undefined ? GIVEN : parseDmAnswer(details[i]!, e.text),
  );
  return { placed, parsed };
}
