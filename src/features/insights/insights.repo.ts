import { sql } from "drizzle-orm";
import { type Executor, rows } from "../../db/client.ts";
import { personNameSql } from "../../lib/person-names.ts";
import { type Filters, matchesSearch, responseFilter } from "./filters.repo.ts";
import { openBlockerCount } from "./open-blockers.repo.ts";
import type { ResponseRecord } from "./responses.presenter.ts";

/**
 * The SQL over the answers behind reports, analytics, the overview and the MCP tools (participation is in
 * participation.repo.ts); every query is scoped by team and bounded by dates. They read the standups'
 * responses and the members' names in single statements: a page is one query, not one per member or day.
 */

/** A response with what presenting it needs (see responses.presenter.ts), and its keyset position. */
export type StandupRow = ResponseRecord & { page_key: string };

/** Where a page of standups starts: after this (standup_date, submitted_at, id). */
export interface PageKey {
  date: string;
  /** submitted_at to the microsecond, ISO 8601 UTC. */
  at: string;
  id: string;
}

/**
 * The columns of a presented response, `r` being the response: the questions and blocker question come from
 * its run (as asked), the name from its schedule. Used with RESPONSE_JOINS.
 */
export const RESPONSE_COLUMNS = sql`r.user_id, ${sql.raw(personNameSql("m"))} as real_name,
  r.standup_date::text as standup_date, r.schedule_id, coalesce(s.name, '') as schedule_name,
  coalesce(s.channel_id, run.channel_id, '') as channel_id, run.questions, r.answers, run.blocker_question,
  run.question_details, r.answer_values,
  r.yesterday, r.today, r.blockers, coalesce(r.mood, '') as mood, r.has_blocker, r.late, r.via,
  to_char(r.submitted_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as submitted_at`;

export const RESPONSE_JOINS = sql`left join members m on m.team_id = r.team_id and m.user_id = r.user_id
  left join standup_runs run on run.id = r.run_id and run.team_id = r.team_id
  left join schedules s on s.id = r.schedule_id and s.team_id = r.team_id`;

/**
 * A page of responses, newest day first, then in the order they came: keyset on (standup_date desc,
 * submitted_at, id), so rows inserted meanwhile never shift a page (no duplicates, no gaps). `page_key`
 * is that position; callers turn the last row's into the next cursor and drop it.
 */
export function standupsBetween(
  ex: Executor,
  teamId: string,
  from: string,
  to: string,
  opts: Filters & { q?: string | undefined; after?: PageKey | undefined; runIds?: string[]; limit?: number } = {},
): Promise<(StandupRow & { page_key: string })[]> {
  const after = opts.after;
  return rows<StandupRow & { page_key: string }>(
    ex,
    sql`select ${RESPONSE_COLUMNS},
               r.standup_date::text || '|' || to_char(r.submitted_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') || '|' || r.id as page_key
        from responses r
        ${RESPONSE_JOINS}
        where r.team_id = ${teamId} and r.standup_date between ${from} and ${to} ${responseFilter(opts)}
          ${opts.q ? sql`and ${matchesSearch(opts.q)}` : sql``}
          ${opts.runIds ? sql`and r.run_id = any(${`{${opts.runIds.join(",")}}`}::int8[])` : sql``}
          ${
            after
              ? sql`and r.standup_date <= ${after.date} and (r.standup_date < ${after.date}
                    or (r.submitted_at, r.id) > (${after.at}::timestamptz, ${after.id}::int8))`
              : sql``
          }
        order by r.standup_date desc, r.submitted_at, r.id
        ${opts.limit ? sql`limit ${opts.limit}` : sql``}`,
  );
}

/** The window's totals behind a report's summary: answers (q applies) and the blocker items open during it. */
export async function responseTotals(
  ex: Executor,
  teamId: string,
  from: string,
  to: string,
  f: Filters & { q?: string | undefined },
): Promise<{ responses: number; members_answered: number; active_blockers: number }> {
  const [row] = await rows<{ responses: number; members_answered: number; active_blockers: number }>(
    ex,
    sql`select c.responses, c.members_answered, b.active_blockers
        from (select count(*)::int as responses, count(distinct r.user_id)::int as members_answered
              from responses r
              where r.team_id = ${teamId} and r.standup_date between ${from} and ${to} ${responseFilter(f)}
                ${f.q ? sql`and ${matchesSearch(f.q)}` : sql``}) c,
             (select ${openBlockerCount(teamId, f, { from, to })} as active_blockers) b`,
  );
  return row!;
}

export function moodCounts(ex: Executor, teamId: string, from: string, to: string, f: Filters = {}) {
  return rows<{ date: string; mood: string; n: number }>(
    ex,
    sql`select r.standup_date::text as date, r.mood, count(*)::int as n from responses r
        where r.team_id = ${teamId} and r.standup_date between ${from} and ${to} and r.mood is not null ${responseFilter(f)}
        group by r.standup_date, r.mood order by r.standup_date`,
  );
}

export function blockersByDay(ex: Executor, teamId: string, from: string, to: string, f: Filters = {}) {
  return rows<{ date: string; count: number }>(
    ex,
    sql`select r.standup_date::text as date, count(*)::int as count from responses r
        where r.team_id = ${teamId} and r.standup_date between ${from} and ${to} and r.has_blocker ${responseFilter(f)}
        group by r.standup_date order by r.standup_date`,
  );
}

/** Full-text search, best matches first, with the matching words highlighted in a snippet. */
export function searchResponses(
  ex: Executor,
  teamId: string,
  query: string,
  from: string,
  to: string,
  limit: number,
  f: Filters = {},
) {
  return rows<ResponseRecord & { rank: number; snippet: string }>(
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
          ${responseFilter(f)}
        order by rank desc, r.standup_date desc
        limit ${limit}`,
  );
}
