import { type SQL, sql } from "drizzle-orm";
import { type Executor, rows } from "../../db/client.ts";
import { type Filters, pctSql, responseFilter, runFilter } from "./filters.repo.ts";
import { openBlockerCount } from "./open-blockers.repo.ts";

/**
 * Participation: who was asked and who answered, per day, per standup and per member, and the stats' last
 * 7 days. Open runs are not misses: one rule (askedRows) decides who counts, in every view.
 */

export interface StandupParticipation {
  schedule_id: string;
  submitted: number;
  total: number;
  pct: number;
  open: boolean;
  awaiting: number;
}

export interface ParticipationRow extends Omit<StandupParticipation, "schedule_id"> {
  date: string;
  standups: StandupParticipation[];
}

/**
 * Participant `p` of run `run` may still answer: the run is open and their window (their own in a
 * member-timezone run) has not ended. Open runs are not misses: such a participant counts once they answered.
 */
const stillOpen = (now: Date) =>
  sql`(run.status = 'open' and coalesce(p.closes_at, run.closes_at) > ${now.toISOString()})`;

/**
 * Every participant of the window's runs who was asked ('pending' = not asked yet, and 'away' = on time off that
 * day, left out: neither asked nor missed, so a week away changes no percentage or streak), with whether
 * they answered and whether they count: closed runs count everyone, open runs only who answered so far.
 * A member answers a run at most once (the unique key: team, standup, member, date), so the answer is looked up
 * per participant by (run, member) in a lateral subquery (responses_run_user_idx, index-only). An answer carries
 * its run's team, standup and date, so the run, already scoped to the team and the window, is the whole key.
 * PostgreSQL's estimate for the former plain join on team, standup and date range multiplied selectivities that
 * are one and the same, guessed 3 answers a run instead of ~1,000 and chose plans that read every answer of each
 * run per participant or the whole index (5,000 members: 0.3–5 s for 7 days). The participants come from the
 * covering run_participants_run_cover_idx. Both indexes: migration 0034.
 */
const askedRows = (teamId: string, from: string, to: string, f: Filters, now: Date) => sql`
  select run.local_date, run.schedule_id, run.id as run_id, coalesce(p.ask_at, run.starts_at) as asked_at, p.user_id, p.status,
         resp.id is not null as answered, coalesce(resp.has_blocker, false) as blocker, ${stillOpen(now)} as open,
         (resp.id is not null or not ${stillOpen(now)}) as counted
  from standup_runs run
  join run_participants p on p.run_id = run.id and p.status not in ('pending', 'away')
  left join lateral (
    select resp.id, resp.has_blocker from responses resp
    where resp.run_id = run.id and resp.user_id = p.user_id
    limit 1) resp on true
  where run.team_id = ${teamId} and run.local_date between ${from} and ${to} ${runFilter(f)}`;

/**
 * One row per day that had a run: participants asked (`total`, the spec's meaning, open run or not), how many of
 * them answered, and whether a run of the day is still open (then `pct` is answered so far); the same per standup.
 * `awaiting` are the asked who do not count yet (not answered, their window still open), so `total - awaiting`
 * is what the window figures, streaks and stats count: nobody still awaiting is missed. One statement grouped
 * by day and standup; the days are the sums of their standups.
 */
export async function participationByDay(
  ex: Executor,
  teamId: string,
  from: string,
  to: string,
  f: Filters,
  now: Date,
): Promise<ParticipationRow[]> {
  return daysOf(await rows<StandupDay>(ex, perStandupSql(sql`(${askedRows(teamId, from, to, f, now)})`)));
}

type StandupDay = Omit<StandupParticipation, "pct"> & { date: string };

/** Per day and standup, over `asked` (the asked rows, a subquery or a CTE's name). */
const perStandupSql = (asked: SQL) =>
  sql`select a.local_date::text as date, a.schedule_id, (count(*) filter (where a.answered))::int as submitted,
             count(*)::int as total, bool_or(a.open) as open,
             (count(*) filter (where not a.counted))::int as awaiting
      from ${asked} a
      group by a.local_date, a.schedule_id
      order by a.local_date, a.schedule_id`;

/** The days, each the sum of its standups (rows ordered by day). */
function daysOf(perStandup: StandupDay[]): ParticipationRow[] {
  const days: ParticipationRow[] = [];
  for (const { date, ...s } of perStandup) {
    let day = days.at(-1);
    if (day?.date !== date) {
      day = { date, submitted: 0, total: 0, pct: 0, open: false, awaiting: 0, standups: [] };
      days.push(day);
    }
    day.submitted += s.submitted;
    day.total += s.total;
    day.open ||= s.open;
    day.awaiting += s.awaiting;
    day.standups.push({ ...s, pct: pct(s.submitted, s.total) });
  }
  for (const day of days) day.pct = pct(day.submitted, day.total);
  return days;
}

/** round(100 × part / whole), 0 when whole is 0: the same rounding as SQL's round(). */
export function pct(part: number, whole: number): number {
  return whole === 0 ? 0 : Math.round((100 * part) / whole);
}

/** Today's numbers, the last 7 days' participation (open runs: answers so far) and the open blocker items. */
export async function statsFor(ex: Executor, teamId: string, today: string, weekStart: string, f: Filters, now: Date) {
  const [row] = await rows<{
    total_members: number;
    submitted_today: number;
    asked: number;
    answered: number;
    active_blockers: number;
  }>(
    ex,
    sql`select
          (select count(*) from members m
             where m.team_id = ${teamId} and m.active ${f.userId ? sql`and m.user_id = ${f.userId}` : sql``}
             ${
               // One standup: the members its latest run asked.
               f.scheduleId
                 ? sql`and m.user_id in (select p.user_id from run_participants p where p.run_id =
                         (select id from standup_runs where team_id = ${teamId} and schedule_id = ${f.scheduleId}
                          order by local_date desc limit 1))`
                 : sql``
             })::int as total_members,
          (select count(distinct r.user_id) from responses r
             where r.team_id = ${teamId} and r.standup_date = ${today} ${responseFilter(f)})::int as submitted_today,
          a.asked, a.answered,
          ${openBlockerCount(teamId, f)} as active_blockers
        from (select (count(*) filter (where counted))::int as asked, (count(*) filter (where answered))::int as answered
              from (${askedRows(teamId, weekStart, today, f, now)}) w) a`,
  );
  return row!;
}

export interface MemberRow {
  user_id: string;
  real_name: string;
  asked: number;
  submitted: number;
  pct: number;
  current_streak: number;
  blockers: number;
}

/**
 * Per member: runs asked and answered in the window, answered-in-a-row from the newest run back, blockers.
 * A run still open for the member counts only once they answered, so it neither breaks nor pauses a streak.
 * With a standup filter only its participants are listed; otherwise every active member too.
 */
export function memberParticipation(ex: Executor, teamId: string, from: string, to: string, f: Filters, now: Date) {
  return rows<MemberRow>(
    ex,
    sql`with asked as (${askedRows(teamId, from, to, f, now)}), ${byMemberSql(teamId, f)}
        select * from by_member order by real_name, user_id`,
  );
}

/** The CTEs `ranked` and `by_member` (one row per member) over a CTE named `asked`. */
const byMemberSql = (teamId: string, f: Filters) =>
  sql`ranked as (
          select *, case when counted
                      then row_number() over (partition by user_id, counted order by asked_at desc, run_id desc) end as rn
          from asked
        ),
        by_member as (
          select m.user_id, m.real_name,
                 (count(*) filter (where a.counted))::int as asked,
                 (count(*) filter (where a.answered))::int as submitted,
                 ${pctSql(sql`count(*) filter (where a.answered)`, sql`count(*) filter (where a.counted)`)} as pct,
                 coalesce(min(a.rn) filter (where a.counted and not a.answered) - 1,
                          count(*) filter (where a.counted))::int as current_streak,
                 (count(*) filter (where a.blocker))::int as blockers
          from members m
          left join ranked a on a.user_id = m.user_id
          where m.team_id = ${teamId} ${f.userId ? sql`and m.user_id = ${f.userId}` : sql``}
            and (a.run_id is not null ${f.scheduleId ? sql`` : sql`or m.active`})
          group by m.user_id, m.real_name
        )`;

/**
 * participationByDay and memberParticipation of one window in one statement (the asked rows are read once, and a
 * caller that shows both pays one round trip): the same rows, in the same order, as the two.
 */
export async function participationWindow(
  ex: Executor,
  teamId: string,
  from: string,
  to: string,
  f: Filters,
  now: Date,
): Promise<{ daily: ParticipationRow[]; members: MemberRow[] }> {
  const [row] = await rows<{ per_standup: StandupDay[]; members: MemberRow[] }>(
    ex,
    sql`with asked as materialized (${askedRows(teamId, from, to, f, now)}),
             per_standup as (${perStandupSql(sql`asked`)}), ${byMemberSql(teamId, f)}
        select (select coalesce(json_agg(d order by d.date, d.schedule_id), '[]') from per_standup d) as per_standup,
               (select coalesce(json_agg(m order by m.real_name, m.user_id), '[]') from by_member m) as members`,
  );
  return { daily: daysOf(row!.per_standup), members: row!.members };
}
