import { type SQL, sql } from "drizzle-orm";
import { ANONYMOUS_MIN_ANSWERS, type QuestionType } from "../../contract/questions.ts";
import { type Executor, rows } from "../../db/client.ts";

/** One typed question of a standup over a window, aggregated by the database (see questionStatsRows). */
export interface QuestionStatRow {
  index: number;
  text: string;
  type: Exclude<QuestionType, "text">;
  anonymous: boolean;
  /** The latest run's options (choice questions), as asked. */
  defined: unknown;
  answered: number;
  average: number | null;
  min: number | null;
  max: number | null;
  counts: { option: string; count: number }[];
  trend: { date: string; average: number; count: number }[];
}

/** A value of the JSON type its question takes (a question that changed type keeps older values of another). */
function fits(value: SQL, type: SQL) {
  return sql`((${type} = 'number' and jsonb_typeof(${value}) = 'number')
    or (${type} = 'yes_no' and jsonb_typeof(${value}) = 'boolean')
    or (${type} in ('single_choice', 'multiple_choice') and jsonb_typeof(${value}) in ('string', 'array')))`;
}

/**
 * Every question that is not free text, as the standup's runs in the window asked it (standup_runs.question_details,
 * never the schedule's current questions), grouped by text, type and anonymity so a question that moved keeps one
 * line. Named answers come from responses.answer_values at the question's position in their own run; anonymous
 * ones only from anonymous_answers (their run found by standup, date and position), so no member is ever joined to
 * them. An anonymous question counts only the runs that are closed and hold at least ANONYMOUS_MIN_ANSWERS of its
 * answers: every other run's answers are dropped before anything is summed, so neither one person answering on many
 * days nor a total minus the days shown can single out a small group, and an open run shows nothing until it closes.
 * A value of the wrong JSON type for its question (a question that changed type) is not counted.
 */
export function questionStatsRows(
  ex: Executor,
  teamId: string,
  scheduleId: string,
  from: string,
  to: string,
): Promise<QuestionStatRow[]> {
  return rows<QuestionStatRow>(
    ex,
    sql`with asked as (
          select run.id as run_id, run.local_date, run.status, (q.n - 1)::int as idx, q.d ->> 'text' as text, q.d ->> 'type' as type,
                 coalesce((q.d ->> 'anonymous')::boolean, false) as anonymous, q.d -> 'options' as options
          from standup_runs run
          cross join lateral jsonb_array_elements(
            case when jsonb_typeof(run.question_details) = 'array' then run.question_details else '[]'::jsonb end
          ) with ordinality q(d, n)
          where run.team_id = ${teamId} and run.schedule_id = ${scheduleId}
            and run.local_date between ${from} and ${to}
            and q.d ->> 'type' in ('single_choice', 'multiple_choice', 'number', 'yes_no')
        ),
        questions as (
          select distinct on (text, type, anonymous) text, type, anonymous, idx, options
          from asked order by text, type, anonymous, local_date desc
        ),
        named as (
          select a.text, a.type, a.anonymous, r.standup_date as date, r.answer_values -> a.idx as value
          from asked a
          join responses r on r.team_id = ${teamId} and r.run_id = a.run_id
          where not a.anonymous
        ),
        anon as (
          select a.text, a.type, a.anonymous, a.local_date as date, a.run_id, a.status, x.value
          from anonymous_answers x
          -- The run that asked it: a member in their own timezone may date an answer a day off the run's date,
          -- so the nearest run within a day that asked an anonymous question at that position.
          cross join lateral (
            select * from asked a
            where a.anonymous and a.idx = x.question_index
              and a.local_date between x.standup_date - 1 and x.standup_date + 1
            order by abs(a.local_date - x.standup_date), a.local_date
            limit 1
          ) a
          where x.team_id = ${teamId} and x.schedule_id = ${scheduleId}
            and x.standup_date between ${from} and ${to}
            and ${fits(sql`x.value`, sql`a.type`)}
        ),
        -- Only closed runs with enough anonymous answers to that question; the rest never reach a total.
        anon_shown as (
          select text, type, anonymous, date, value from anon
          where (run_id, text, type) in (
            select run_id, text, type from anon where status = 'closed'
            group by run_id, text, type having count(*) >= ${ANONYMOUS_MIN_ANSWERS}
          )
        ),
        vals as (
          select g.*, case when g.type = 'number' then (g.value #>> '{}')::numeric end as num
          from (select * from named where ${fits(sql`value`, sql`type`)} union all select * from anon_shown) g
        ),
        summary as (
          select text, type, anonymous, count(*)::int as answered, round(avg(num), 2)::float8 as average,
                 min(num)::float8 as min, max(num)::float8 as max
          from vals group by text, type, anonymous
        )
        select q.idx as index, q.text, q.type, q.anonymous, coalesce(q.options, '[]'::jsonb) as defined,
               coalesce(s.answered, 0) as answered, s.average, s.min, s.max,
               coalesce((
                 select jsonb_agg(jsonb_build_object('option', o.opt, 'count', o.n) order by o.opt)
                 from (select e.opt, count(*)::int as n
                       from vals v
                       cross join lateral (
                         select x from jsonb_array_elements_text(
                           case when jsonb_typeof(v.value) = 'array' then v.value else '[]'::jsonb end) x
                         union all select v.value #>> '{}' where jsonb_typeof(v.value) = 'string'
                         union all select case when v.value = 'true'::jsonb then 'Yes' else 'No' end
                           where jsonb_typeof(v.value) = 'boolean'
                       ) e(opt)
                       where v.text = q.text and v.type = q.type and v.anonymous = q.anonymous
                       group by e.opt) o
               ), '[]'::jsonb) as counts,
               coalesce((
                 select jsonb_agg(jsonb_build_object('date', t.date, 'average', t.average, 'count', t.n) order by t.date)
                 from (select v.date::text as date, round(avg(v.num), 2)::float8 as average, count(*)::int as n
                       from vals v
                       where q.type = 'number' and v.text = q.text and v.type = q.type and v.anonymous = q.anonymous
                       group by v.date) t
               ), '[]'::jsonb) as trend
        from questions q
        left join summary s on s.text = q.text and s.type = q.type and s.anonymous = q.anonymous
        order by q.idx, q.text`,
  );
}
