import { pipeline, type Readable } from "node:stream";
import { type SQL, sql } from "drizzle-orm";
import type pg from "pg";
import { copyOut } from "../../db/copy.ts";
import { UNKNOWN_CHANNEL_STANDUP } from "../schedules/index.ts";
import { CSV_BOM, crlfRecords, DASH_FORMULA } from "./csv.ts";
import { csvHeader, exportAnswerPairs } from "./export.routes.ts";
import { type Filters, responseFilter } from "./filters.repo.ts";
import { MOOD_SCORE } from "./insights.service.ts";

/**
 * The CSV export on a PostgreSQL server: one `COPY (SELECT …) TO STDOUT (FORMAT csv, HEADER)` whose SELECT computes
 * every cell exactly as the keyset path (csvChunks: csvLine over csvCells) does in Node, so both give the same bytes:
 *
 * - the values: the same joins and expressions; standup_name is displayName() (the schedule's name trimmed of what
 *   String.prototype.trim removes, else "#<channel name> standup", channel names passed in as JSON, or "Standup in a channel" when unknown); each
 *   question/answer pair is labelAnswers() ("Question N" for a missing or empty question, "" for an answer that is
 *   an anonymous question's or
 *   not a string, "" for both past the response's own count);
 * - the formula guard (looksLikeFormula): a value starting with = + @ tab or CR gets a leading ' (ascii() of its
 *   first character), one starting with - when it also matches DASH_FORMULA, the same pattern in the syntax both
 *   regular expression engines share (only dash-led values run it);
 * - mood_score: a CASE over MOOD_SCORE, as moodScoreCell;
 * - quoting: COPY's CSV quotes exactly the values csvCell quotes (those with , " CR or LF, quotes doubled), except
 *   that it writes an empty string as "" — so every empty value is sent as NULL, which COPY writes as nothing;
 * - line endings: COPY ends records with LF; crlfRecords() makes that CRLF, as csvLine ends its lines, and sends
 *   the byte order mark first, as csvChunks does.
 */

/** What String.prototype.trim removes (ECMAScript WhiteSpace and LineTerminator), for btrim(). */
const JS_TRIM =
  " \t\n\v\f\r\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff";

/** csvCell's value for COPY: the formula guard, and NULL for an empty value (COPY would write it as ""). */
const cell = (column: string) => {
  const v = sql.raw(`v.${column}`);
  return sql`case when ascii(${v}) in (9, 13, 43, 61, 64) or (ascii(${v}) = 45 and ${v} ~ ${DASH_FORMULA}) then '''' || ${v}
               else nullif(${v}, '') end as ${sql.identifier(column)}`;
};

/** The COPY statement of one export; `pairs` question/answer columns (exportAnswerPairs). */
export function copyCsvStatement(
  teamId: string,
  from: string,
  to: string,
  f: Filters,
  pairs: number,
  channels?: ReadonlyMap<string, string>,
): SQL {
  const names = JSON.stringify(Object.fromEntries(channels ?? []));
  const qa: SQL[] = [];
  for (let i = 0; i < pairs; i++) {
    qa.push(
      sql`, case when ${sql.raw(String(i))} < k.n then coalesce(nullif(run.questions ->> ${sql.raw(String(i))}, ''), ${sql.raw(`'Question ${i + 1}'`)}) else '' end as ${sql.identifier(`question_${i + 1}`)}`,
      // An anonymous question's answer is "" in the row already; blanked here too, as labelAnswers does.
      sql`, case when jsonb_typeof(r.answers -> ${sql.raw(String(i))}) = 'string'
                  and coalesce(run.question_details -> ${sql.raw(String(i))} ->> 'anonymous', '') <> 'true'
             then r.answers ->> ${sql.raw(String(i))} else '' end as ${sql.identifier(`answer_${i + 1}`)}`,
    );
  }
  const columns = csvHeader(pairs);
  return sql`copy (
    select ${sql.join(
      columns.map((c) => cell(c)),
      sql`, `,
    )}
    from (
      select r.standup_date as k_date, r.id as k_id,
             r.standup_date::text as standup_date, r.user_id, coalesce(m.real_name, '') as real_name,
             r.yesterday, r.today, r.blockers, coalesce(r.mood, '') as mood,
             to_char(r.submitted_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as submitted_at,
             r.schedule_id,
             coalesce(
               nullif(btrim(coalesce(s.name, ''), ${JS_TRIM}), ''),
               '#' || (${names}::jsonb ->> c.channel_id) || ' standup',
               ${UNKNOWN_CHANNEL_STANDUP}::text
             ) as standup_name
             ${sql.join(qa, sql``)},
             case r.mood ${sql.join(
               Object.entries(MOOD_SCORE).map(([mood, score]) => sql`when ${mood} then ${String(score)}`),
               sql` `,
             )} else '' end as mood_score
      from responses r
      left join members m on m.team_id = r.team_id and m.user_id = r.user_id
      left join standup_runs run on run.id = r.run_id and run.team_id = r.team_id
      left join schedules s on s.id = r.schedule_id and s.team_id = r.team_id
      cross join lateral (select coalesce(s.channel_id, run.channel_id, '') as channel_id) c
      cross join lateral (
        select greatest(jsonb_array_length(r.answers), coalesce(jsonb_array_length(run.questions), 0)) as n
      ) k
      where r.team_id = ${teamId} and r.standup_date between ${from} and ${to} ${responseFilter(f)}
      order by r.standup_date, r.id
      offset 0
    ) v
    order by v.k_date, v.k_id
  ) to stdout with (format csv, header true)`;
}

/** The export's CSV through COPY: the answer-pair count and the rows on one snapshot, CRLF line endings. */
export async function copyCsv(
  pool: pg.Pool,
  teamId: string,
  from: string,
  to: string,
  f: Filters = {},
  channels?: ReadonlyMap<string, string>,
): Promise<Readable> {
  const copy = await copyOut(pool, async (ex) => {
    const pairs = await exportAnswerPairs(ex, teamId, from, to, f);
    return copyCsvStatement(teamId, from, to, f, pairs, channels);
  });
  // pipeline: destroying the result (the client went away) destroys the COPY stream, which closes its connection.
  return pipeline(copy, crlfRecords(CSV_BOM), () => {});
}
