import { type SQL, sql } from "drizzle-orm";
import { type Executor, rows } from "../../db/client.ts";
import { type Filters, pctSql, responseFilter } from "./filters.repo.ts";
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
 * Whether a participant answered (and reported a blocker) is on their row, kept exact by triggers on the answers
 * (migration 0035), so a window is its runs and one covering index read by run (run_participants_run_cover_idx,
 * index-only), with no join to the answers. 5,000 members × 30 days (~105k participants): the join to the answers
 * it replaces was ~90 of the statement's ~220 ms; before that, a plain join on team, standup and date range took
 * 0.3–5 s when PostgreSQL guessed 3 answers a run instead of ~1,000.
 */
const askedRows = (teamId: string, from: string, to: string, f: Filters, now: Date) => sql`
  with run as materialized (
    select run.id, run.local_date, run.schedule_id, run.starts_at, run.status, run.closes_at from standup_runs run
    where run.team_id = ${teamId} and run.local_date between ${from} and ${to} ${f.scheduleId ? sql`and run.schedule_id = ${f.scheduleId}` : sql``})
  select run.local_date, run.schedule_id, run.id as run_id, coalesce(p.ask_at, run.starts_at) as asked_at, p.user_id, p.status,
         p.answered, p.has_blocker as blocker, ${stillOpen(now)} as open,
         (p.answered or not ${stillOpen(now)}) as counted
  from run
  join run_participants p on p.run_id = run.id and p.status not in ('pending', 'away') ${f.userId ? sql`and p.user_id = ${f.userId}` : sql``}`;

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
  return daysFrom(
    await rows<StandupDay>(
      ex,
      sql`${perStandupSql(sql`(${askedRows(teamId, from, to, f, now)})`)} order by date, schedule_id`,
    ),
  );
}

type StandupDay = Omit<StandupParticipation, "pct"> & { date: string };

/** Per day and standup over the asked rows `source` (a relation): columns date, schedule_id and the counts. */
const perStandupSql = (source: SQL) =>
  sql`select a.local_date::text as date, a.schedule_id, (count(*) filter (where a.answered))::int as submitted,
             count(*)::int as total, bool_or(a.open) as open, (count(*) filter (where not a.counted))::int as awaiting
      from ${source} a
      group by a.local_date, a.schedule_id`;

/** Days from their standups' rows (ordered by date): each day the sum of its standups. */
function daysFrom(perStandup: StandupDay[]): ParticipationRow[] {
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
 * Per member over the asked rows in the CTE `asked`: runs asked and answered in the window, answered-in-a-row
 * from the newest run back, blockers. A run still open for the member counts only once they answered, so it
 * neither breaks nor pauses a streak. The streak is the answers newer, by (asked_at, run_id), than the member's
 * newest miss (all of their answers without one): a hash aggregate and a join, where numbering every row with a
 * window function sorted all ~100k rows of 5,000 members' month on disk (issue 27: 0.47 s of 0.62 s).
 * With a standup filter only its participants are listed; otherwise every active member too.
 */
const memberRowsSql = (teamId: string, f: Filters) => sql`
  select m.user_id, m.real_name, coalesce(pm.asked, 0) as asked, coalesce(pm.submitted, 0) as submitted,
         ${pctSql(sql`coalesce(pm.submitted, 0)`, sql`coalesce(pm.asked, 0)`)} as pct,
         coalesce(pm.current_streak, 0) as current_streak, coalesce(pm.blockers, 0) as blockers
  from members m
  left join (
    select a.user_id, (count(*) filter (where a.counted))::int as asked,
           (count(*) filter (where a.answered))::int as submitted,
           (count(*) filter (where a.answered
                             and (miss.user_id is null or (a.asked_at, a.run_id) > (miss.asked_at, miss.run_id))))::int
             as current_streak,
           (count(*) filter (where a.blocker))::int as blockers
    from asked a
    left join (
      select distinct on (user_id) user_id, asked_at, run_id from asked
      where counted and not answered
      order by user_id, asked_at desc, run_id desc) miss on miss.user_id = a.user_id
    group by a.user_id) pm on pm.user_id = m.user_id
  where m.team_id = ${teamId} ${f.userId ? sql`and m.user_id = ${f.userId}` : sql``}
    and (pm.user_id is not null ${f.scheduleId ? sql`` : sql`or m.active`})`;

/**
 * The window's asked rows for every view of a statement. Not materialized: since the answers are on the participant
 * rows (0035) each view reads the window's participants again from the covering index, which is cheaper than storing
 * ~105k rows once and scanning them three times (5,000 members: 30 days 128 -> 100 ms, 7 days 48 -> 39 ms, a year
 * 1.5 -> 1.16 s; the same output).
 */
const askedCte = (teamId: string, from: string, to: string, f: Filters, now: Date) =>
  sql`asked as not materialized (${askedRows(teamId, from, to, f, now)})`;

/** Per member (see memberRowsSql), by name. */
export function memberParticipation(ex: Executor, teamId: string, from: string, to: string, f: Filters, now: Date) {
  return rows<MemberRow>(
    ex,
    sql`with ${askedCte(teamId, from, to, f, now)}
        ${memberRowsSql(teamId, f)}
        order by m.real_name, m.user_id`,
  );
}

/**
 * Analytics' participation per day and per member in one statement (issue 27: 5,000 members, 30 days, ~105k asked
 * rows). Both come back as JSON in one row, as participationByDay and memberParticipation give them.
 */
export async function participationAndMembers(
  ex: Executor,
  teamId: string,
  from: string,
  to: string,
  f: Filters,
  now: Date,
): Promise<{ daily: ParticipationRow[]; members: MemberRow[] }> {
  const [row] = await rows<{ standups: StandupDay[]; members: MemberRow[] }>(
    ex,
    sql`with ${askedCte(teamId, from, to, f, now)}
        select coalesce((select json_agg(d order by d.date, d.schedule_id) from (${perStandupSql(sql`asked`)}) d),
                        '[]'::json) as standups,
               coalesce((select json_agg(x order by x.real_name, x.user_id) from (${memberRowsSql(teamId, f)}) x),
                        '[]'::json) as members`,
  );
  return { daily: daysFrom(row!.standups), members: row!.members };
}
