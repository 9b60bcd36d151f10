import { sql } from "drizzle-orm";
import { type Executor, rows } from "../../db/client.ts";
import { personNameSql } from "../../lib/person-names.ts";
import { DEFAULT_MAX_LATE_MINUTES } from "../schedules/index.ts";

/** The SQL of the overview's "today by standup" and of the standup filter's check. */

export interface TodayRunRow {
  run_id: string;
  schedule_id: string;
  standup_name: string;
  channel_id: string;
  date: string;
  open: boolean;
  closes_at: string;
  member_timezone: boolean;
  ask_time: string;
  asked: number;
  answered: number;
  asked_later: number;
  away: number;
  not_answered: {
    user_id: string;
    real_name: string;
    status: "waiting" | "skipped" | "missed" | "not_asked_yet" | "not_asked" | "away";
    ask_at: string | null;
    timezone: string;
    away_until: string | null;
  }[];
}

/** A member-timezone ask this late is never sent (the scheduler's catch-up window): say so, not "asked later". */
const MISSED_ASK_MINUTES = DEFAULT_MAX_LATE_MINUTES;

/** A pending participant whose own ask time is still to come (or within the scheduler's catch-up window). */
function askedLater(at: string) {
  return sql`(p.status = 'pending' and p.ask_at > ${at}::timestamptz - make_interval(mins => ${MISSED_ASK_MINUTES}))`;
}

/**
 * Runs dated `today` and runs still open (a standup in a zone ahead of the workspace's is already on its
 * next date), one row each with its counts and everyone without an answer, by name.
 */
export function todayRuns(ex: Executor, teamId: string, today: string, now: Date): Promise<TodayRunRow[]> {
  const at = now.toISOString();
  return rows<TodayRunRow>(
    ex,
    sql`select run.id::text as run_id, run.schedule_id, coalesce(s.name, '') as standup_name,
               coalesce(s.channel_id, run.channel_id) as channel_id,
               run.local_date::text as date, run.status = 'open' and run.closes_at > ${at} as open,
               to_char(run.closes_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as closes_at,
               run.member_timezone,
               -- The time each member is asked (their own clock in a member-timezone run); a deleted standup's
               -- run keeps its own start time.
               coalesce(s.schedule_time, to_char(run.starts_at at time zone run.schedule_tz, 'HH24:MI')) as ask_time,
               (count(p.user_id) filter (where p.status not in ('pending', 'away')))::int as asked,
               count(resp.id)::int as answered,
               (count(p.user_id) filter (where resp.id is null and ${askedLater(at)}))::int as asked_later,
               (count(p.user_id) filter (where resp.id is null and p.status = 'away'))::int as away,
               coalesce(
                 json_agg(json_build_object(
                   'user_id', p.user_id,
                   'real_name', ${sql.raw(personNameSql("m"))},
                   'ask_at', to_char(p.ask_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
                   'timezone', coalesce(m.tz, 'UTC'),
                   'away_until', case when p.status = 'away' then
                     (select max(o.end_date)::text from time_off o
                      where o.team_id = run.team_id and o.user_id = p.user_id
                        and o.start_date <= coalesce(p.local_date, run.local_date)
                        and o.end_date >= coalesce(p.local_date, run.local_date)) end,
                   'status', case
                     when ${askedLater(at)} then 'not_asked_yet'
                     when p.status = 'pending' then 'not_asked'
                     when p.status = 'away' then 'away'
                     when p.status = 'skipped' then 'skipped'
                     when run.status = 'open' and coalesce(p.closes_at, run.closes_at) > ${at} then 'waiting'
                     else 'missed' end)
                   order by ${sql.raw(personNameSql("m"))}, p.user_id)
                 filter (where p.user_id is not null and resp.id is null),
                 '[]') as not_answered
        from standup_runs run
        left join schedules s on s.id = run.schedule_id and s.team_id = run.team_id
        left join run_participants p on p.run_id = run.id
        left join members m on m.team_id = run.team_id and m.user_id = p.user_id
        left join responses resp on resp.run_id = run.id and resp.user_id = p.user_id and resp.team_id = run.team_id
        where run.team_id = ${teamId} and run.status <> 'skipped' and (run.local_date = ${today} or run.status = 'open')
        group by run.id, s.name, s.channel_id, s.schedule_time
        order by run.local_date desc, standup_name, channel_id, run.id`,
  );
}

/** Whether the workspace has (or had: deleted standups keep their answers) this schedule. */
export async function scheduleInTeam(ex: Executor, teamId: string, scheduleId: string): Promise<boolean> {
  const found = await rows<{ one: number }>(
    ex,
    sql`select 1 as one from schedules where team_id = ${teamId} and id = ${scheduleId} limit 1`,
  );
  return found.length > 0;
}
