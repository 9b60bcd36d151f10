import { and, eq, sql } from "drizzle-orm";
import { type Executor, rows } from "../../db/client.ts";
import { type DraftAnswer, runParticipants } from "../../db/schema.ts";

/**
 * Adds one answer given in the DM conversation to the member's draft, in one statement, so answers sent
 * moments apart all land; the draft stays in the order of the Slack messages (their ts), whichever the
 * database applies first. It adds only while the member is still asked and the draft has fewer than
 * `questionCount` answers, so the returned draft (the texts, in order) reaches that count exactly once.
 * A message already in the draft (same ts) is not added again: the draft comes back unchanged.
 * Undefined when nothing was added and the message is not in the draft. Each entry keeps its message's ts (null for
 * drafts from before the ts was kept).
 */
export async function appendDraftAnswer(
  ex: Executor,
  runId: number,
  userId: string,
  answer: { ts: string; text: string },
  questionCount: number,
): Promise<DraftEntry[] | undefined> {
  const draft = sql`coalesce(${runParticipants.draft}, '[]'::jsonb)`;
  // The message is in the draft already: its event is being processed again (durable intake), so it is not added a
  // second time, and the draft comes back as it is for the caller to carry on from.
  const seen = sql`exists (select 1 from jsonb_array_elements(${draft}) as seen(e)
                            where jsonb_typeof(e) = 'array' and e ->> 0 = ${answer.ts}::text)`;
  const [row] = await ex
    .update(runParticipants)
    .set({
      // Bare texts (drafts from before the ts was kept) sort first, in their own order.
      draft: sql`case when ${seen} then ${runParticipants.draft} else
                 (select jsonb_agg(e order by case when jsonb_typeof(e) = 'array' then e ->> 0 end nulls first, n)
                  from jsonb_array_elements(${draft} || jsonb_build_array(jsonb_build_array(${answer.ts}::text, ${answer.text}::text)))
                       with ordinality as entries(e, n)) end`,
    })
    .where(
      and(
        eq(runParticipants.runId, runId),
        eq(runParticipants.userId, userId),
        eq(runParticipants.status, "asked"),
        sql`(${seen} or jsonb_array_length(${draft}) < ${questionCount})`,
      ),
    )
    .returning({ draft: runParticipants.draft });
  return row?.draft?.map(toEntry);
}

export interface DraftEntry {
  ts: string | null;
  text: string;
  /** The anonymous question (0-based) this entry answered: its value is stored apart, `text` is only a marker. */
  anonymous?: number;
}

/** What the draft keeps in place of an anonymous answer's text (jsonb cannot hold "\u0000"). */
export const ANONYMOUS_GIVEN = "\u001eanonymous";

function toEntry(entry: DraftAnswer): DraftEntry {
  if (typeof entry === "string") return { ts: null, text: entry };
  return entry.length > 2 ? { ts: entry[0], text: entry[1], anonymous: entry[2] } : { ts: entry[0], text: entry[1] };
}

/**
 * The member's draft, its row locked for the rest of the transaction: a message processed twice at once waits here,
 * and then sees its own answer already in the draft.
 */
export async function lockDraft(ex: Executor, runId: number, userId: string): Promise<DraftEntry[]> {
  const found = await rows<{ draft: DraftAnswer[] | null }>(
    ex,
    sql`select draft from run_participants where run_id = ${runId} and user_id = ${userId} for update`,
  );
  return (found[0]?.draft ?? []).map(toEntry);
}

/**
 * Puts the marker for anonymous question `index` in place of the text of the answer sent in message `ts`. False when
 * that answer is not (or no longer) a plain text in the draft, so the caller stores the anonymous answer only once.
 */
export async function markAnonymousGiven(
  ex: Executor,
  runId: number,
  userId: string,
  ts: string,
  index: number,
): Promise<boolean> {
  const plain = sql`jsonb_typeof(e) = 'array' and jsonb_array_length(e) = 2 and e ->> 0 = ${ts}::text`;
  const updated = await ex
    .update(runParticipants)
    .set({
      draft: sql`(select jsonb_agg(case when ${plain}
                    then jsonb_build_array(${ts}::text, ${ANONYMOUS_GIVEN}::text, ${index}::int) else e end order by n)
                  from jsonb_array_elements(${runParticipants.draft}) with ordinality as entries(e, n))`,
    })
    .where(
      and(
        eq(runParticipants.runId, runId),
        eq(runParticipants.userId, userId),
        eq(runParticipants.status, "asked"),
        sql`exists (select 1 from jsonb_array_elements(${runParticipants.draft}) as seen(e) where ${plain})`,
      ),
    )
    .returning({ runId: runParticipants.runId });
  return updated.length > 0;
}

/**
 * The draft by question: an anonymous answer already stored keeps the question it answered, whatever answers arrive
 * around it later; every other answer fills the free questions in the order of its message. Undefined: not answered.
 */
export function placeDraft(draft: readonly DraftEntry[], total: number): (DraftEntry | undefined)[] {
  const placed: (DraftEntry | undefined)[] = Array.from({ length: total }, () => undefined);
  const claimed = new Set<DraftEntry>();
  for (const e of draft) {
    if (e.anonymous === undefined || e.anonymous >= total || placed[e.anonymous]) continue;
    placed[e.anonymous] = e;
    claimed.add(e);
  }
  let next = 0;
  for (const e of draft) {
    if (claimed.has(e)) continue;
    while (next < total && placed[next]) next += 1;
    if (next >= total) break;
    placed[next] = e;
  }
  return placed;
}

/**
 * Takes one answer back out of the draft (by its message's ts): a typed question's answer that does not fit it is
 * asked again, and the member's next message answers it.
 */
export async function removeDraftAnswer(ex: Executor, runId: number, userId: string, ts: string): Promise<void> {
  await ex
    .update(runParticipants)
    .set({
      draft: sql`(select coalesce(jsonb_agg(e order by n), '[]'::jsonb)
                  from jsonb_array_elements(${runParticipants.draft}) with ordinality as entries(e, n)
                  where not (jsonb_typeof(e) = 'array' and e ->> 0 = ${ts}::text))`,
    })
    .where(
      and(eq(runParticipants.runId, runId), eq(runParticipants.userId, userId), eq(runParticipants.status, "asked")),
    );
}
