import { and, eq, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { runParticipants } from "../../db/schema.ts";

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
  return row?.draft?.map((entry) =>
    typeof entry === "string" ? { ts: null, text: entry } : { ts: entry[0], text: entry[1] },
  );
}

export interface DraftEntry {
  ts: string | null;
  text: string;
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
