import { sql } from "drizzle-orm";
import { type Executor, rows } from "../../db/client.ts";
import type { ResponseRecord } from "./responses.presenter.ts";

/**
 * The SQL behind stats, reports, analytics and the MCP tools; every query is scoped by team and bounded by dates.
 * They read the standups' runs and responses and the members' names in single statements: a report is one
 * query, not one per member or day. A `pending` participant (a member-timezone run whose ask for them has not
 * come, or never came) was not asked, so counts nowhere.
 */

/** A response with what presenting it needs (see responses.presenter.ts). */
export type StandupRow = ResponseRecord;

export interface ParticipationRow {
  date: string;
  submitted: number;
  total: number;
  pct: number;
}

const pctSql = (num: ReturnType<typeof sql>, den: ReturnType<typeof sql>) =>
  sql`case when ${den} = 0 then 0 else round(100.0 * ${num} / ${den})::int end`;

/**
 * The columns of a presented response, `r` being the response: the questions and blocker question come from
 * its run (as asked), the name from its schedule. Used with RESPONSE_JOINS.
 */
export const RESPONSE_COLUMNS = sql`r.user_id, coalesce(m.real_name, r.user_id) as real_name,
  r.standup_date::text as standup_date, r.schedule_id, coalesce(s.name, '') as schedule_name,
  coalesce(s.channel_id, run.channel_id, '') as channel_id, run.questions, r.answers, run.blocker_question,
  r.yesterday, r.today, r.blockers, coalesce(r.mood, '') as mood, r.has_blocker,
  to_char(r.submitted_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as submitted_at`;

export const RESPONSE_JOINS = sql`left join members m on m.team_id = r.team_id and m.user_id = r.user_id
  left join standup_runs run on run.id = r.run_id and run.team_id = r.team_id
  left join schedules s on s.id = r.schedule_id and s.team_id = r.team_id`;

export function standupsBetween(
  ex: Executor,
  teamId: string,
  from: string,
  to: string,
  opts: { userId?: string; limit?: number } = {},
): Promise<StandupRow[]> {
  return rows<StandupRow>(
    ex,
    sql`select ${RESPONSE_COLUMNS}
        from responses r
        ${RESPONSE_JOINS}
        where r.team_id = ${teamId} and r.standup_date between ${from} and ${to}
          ${opts.userId ? sql`and r.user_id = ${opts.userId}` : sql``}
        order by r.standup_date desc, r.submitted_at, r.id
        ${opts.limit ? sql`limit ${opts.limit}` : sql``}`,
  );
}

/** One row per day that had a run: participants asked, and how many of them answered. */
export function participationByDay(
  ex: Executor,
  teamId: string,
  from: string,
  to: string,
): Promise<ParticipationRow[]> {
  return rows<ParticipationRow>(
    ex,
    sql`select run.local_date::text as date, count(resp.id)::int as submitted, count(*)::int as total,
               ${pctSql(sql`count(resp.id)`, sql`count(*)`)} as pct
        from standup_runs run
        join run_participants p on p.run_id = run.id and p.status <> 'pending'
        left join responses resp on resp.run_id = run.id and resp.user_id = p.user_id
          and resp.team_id = ${teamId} and resp.standup_date between ${from} and ${to}
        where run.team_id = ${teamId} and run.local_date between ${from} and ${to}
        group by run.local_date
        order by run.local_date`,
  );
}

export async function statsFor(ex: Executor, teamId: string, today: string, weekStart: string) {
  const [row] = await rows<{
    total_members: number;
    submitted_today: number;
    asked: number;
    answered: number;
    active_blockers: number;
  }>(
    ex,
    sql`select
          (select count(*) from members where team_id = ${teamId} and active)::int as total_members,
          (select count(distinct user_id) from responses where team_id = ${teamId} and standup_date = ${today})::int as submitted_today,
          (select count(*) from standup_runs run join run_participants p on p.run_id = run.id and p.status <> 'pending'
             where run.team_id = ${teamId} and run.local_date between ${weekStart} and ${today})::int as asked,
          (select count(*) from standup_runs run join run_participants p on p.run_id = run.id and p.status <> 'pending'
             join responses resp on resp.run_id = run.id and resp.user_id = p.user_id
               and resp.team_id = ${teamId} and resp.standup_date between ${weekStart} and ${today}
             where run.team_id = ${teamId} and run.local_date between ${weekStart} and ${today})::int as answered,
          (select count(*) from (
             select distinct on (user_id) user_id, has_blocker from responses
             where team_id = ${teamId} and standup_date between ${weekStart} and ${today}
             order by user_id, standup_date desc, submitted_at desc) latest
           where latest.has_blocker)::int as active_blockers`,
  );
  return row!;
}

/** Members whose latest response in the window has an active blocker, with that blocker. */
export function activeBlockers(ex: Executor, teamId: string, from: string, to: string) {
  return rows<{ user_id: string; real_name: string; standup_date: string; blockers: string }>(
    ex,
    sql`select latest.user_id, coalesce(m.real_name, latest.user_id) as real_name, latest.standup_date::text as standup_date, latest.blockers
        from (select distinct on (user_id) user_id, standup_date, blockers, has_blocker from responses
              where team_id = ${teamId} and standup_date between ${from} and ${to}
              order by user_id, standup_date desc, submitted_at desc) latest
        left join members m on m.team_id = ${teamId} and m.user_id = latest.user_id
        where latest.has_blocker
        order by latest.standup_date desc, real_name`,
  );
}

export function moodCounts(ex: Executor, teamId: string, from: string, to: string) {
  return rows<{ date: string; mood: string; n: number }>(
    ex,
    sql`select standup_date::text as date, mood, count(*)::int as n from responses
        where team_id = ${teamId} and standup_date between ${from} and ${to} and mood is not null
        group by standup_date, mood order by standup_date`,
  );
}

export function blockersByDay(ex: Executor, teamId: string, from: string, to: string) {
  return rows<{ date: string; count: number }>(
    ex,
    sql`select standup_date::text as date, count(*)::int as count from responses
        where team_id = ${teamId} and standup_date between ${from} and ${to} and has_blocker
        group by standup_date order by standup_date`,
  );
}

/** Per member: runs asked and answered in the window, answered-in-a-row from the newest run back, blockers. */
export function memberParticipation(ex: Executor, teamId: string, from: string, to: string) {
  return rows<{
    user_id: string;
    real_name: string;
    asked: number;
    submitted: number;
    pct: number;
    current_streak: number;
    blockers: number;
  }>(
    ex,
    sql`with asked as (
          select p.user_id, run.id as run_id, run.starts_at, resp.id is not null as answered, coalesce(resp.has_blocker, false) as blocker
          from standup_runs run
          join run_participants p on p.run_id = run.id and p.status <> 'pending'
          left join responses resp on resp.run_id = run.id and resp.user_id = p.user_id
            and resp.team_id = ${teamId} and resp.standup_date between ${from} and ${to}
          where run.team_id = ${teamId} and run.local_date between ${from} and ${to}
        ), ranked as (
          select *, row_number() over (partition by user_id order by starts_at desc) as rn from asked
        )
        select m.user_id, m.real_name,
               count(a.run_id)::int as asked,
               (count(*) filter (where a.answered))::int as submitted,
               ${pctSql(sql`count(*) filter (where a.answered)`, sql`count(a.run_id)`)} as pct,
               coalesce(min(a.rn) filter (where not a.answered) - 1, count(a.run_id))::int as current_streak,
               (count(*) filter (where a.blocker))::int as blockers
        from members m
        left join ranked a on a.user_id = m.user_id
        where m.team_id = ${teamId} and (m.active or a.run_id is not null)
        group by m.user_id, m.real_name
        order by m.real_name, m.user_id`,
  );
}

/** Full-text search over every answer, best matches first, with the matching words highlighted in a snippet. */
export function searchResponses(ex: Executor, teamId: string, query: string, from: string, to: string, limit: number) {
  return rows<StandupRow & { rank: number; snippet: string }>(
    ex,
    sql`select ${RESPONSE_COLUMNS},
               ts_rank(r.search, q.query)::float8 as rank,
               ts_headline('english',
                           (select string_agg(a.value, ' | ' order by a.n)
                            from jsonb_array_elements_text(r.answers) with ordinality a(value, n)),
                           q.query, 'StartSel=**, StopSel=**, MaxWords=30, MinWords=10, MaxFragments=2') as snippet
        from responses r
        cross join (select websearch_to_tsquery('english', ${query}) as query) q
        ${RESPONSE_JOINS}
        where r.team_id = ${teamId} and r.standup_date between ${from} and ${to} and r.search @@ q.query
        order by rank desc, r.standup_date desc
        limit ${limit}`,
  );
}
