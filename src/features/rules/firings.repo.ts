import { and, eq, sql } from "drizzle-orm";
import { anyOf } from "../../db/arrays.ts";
import { type Executor, rows } from "../../db/client.ts";
import { type RuleTrigger, ruleFirings, rules } from "../../db/schema.ts";
import { liveBlockerSql } from "../standups/index.ts";
import type { RuleRow } from "./rules.repo.ts";

export interface FiringSubject {
  teamId: string;
  scheduleId: string;
  runId: number;
  /** The response a blocker_reported firing is about; null for the close triggers (one firing per run). */
  responseId: number | null;
  at: Date;
}

/**
 * One firing per active rule of the workspace with one of these triggers that covers the standup, claimed under
 * its unique key (rule, response) or (rule, run) in one statement: an event seen twice, or by two instances,
 * fires each rule once. Returns the new firings' ids.
 */
export async function claimFirings(ex: Executor, triggers: RuleTrigger[], s: FiringSubject): Promise<number[]> {
  const inserted = await rows<{ id: number | string }>(
    ex,
    sql`insert into rule_firings (team_id, rule_id, run_id, response_id, created_at)
        select r.team_id, r.id, ${s.runId}::bigint, ${s.responseId}::bigint, ${s.at.toISOString()}::timestamptz
        from rules r
        where r.team_id = ${s.teamId} and r.active
          and ${anyOf(sql`r.trigger`, triggers)}
          and (r.schedule_id is null or r.schedule_id = ${s.scheduleId})
        order by r.id
        on conflict do nothing
        returning id`,
  );
  return inserted.map((r) => Number(r.id));
}

/**
 * blocker_open_days: one firing per active rule covering the standup and open blocker item of that standup open at
 * least the rule's days on `localDate` (the standup's date), claimed under (rule, blocker) in one statement: a close
 * seen twice, or by two instances, and every later close fire each pair once. run_id: the run that last reported it.
 * Only live items (liveBlockerSql: an active member, a standup not deleted), as the Blockers page counts them.
 */
export async function claimBlockerFirings(
  ex: Executor,
  s: { teamId: string; scheduleId: string; runId: number; localDate: string; at: Date },
): Promise<number[]> {
  const inserted = await rows<{ id: number | string }>(
    ex,
    sql`insert into rule_firings (team_id, rule_id, run_id, blocker_id, created_at)
        select r.team_id, r.id, coalesce(resp.run_id, ${s.runId}::bigint), b.id, ${s.at.toISOString()}::timestamptz
        from rules r
        join blockers b on b.team_id = r.team_id and b.schedule_id = ${s.scheduleId} and b.status = 'open'
        left join responses resp on resp.team_id = b.team_id and resp.id = b.last_response_id
        where r.team_id = ${s.teamId} and r.active and r.trigger = 'blocker_open_days'
          and (r.schedule_id is null or r.schedule_id = ${s.scheduleId})
          and ${s.localDate}::date - b.opened_date >= r.trigger_threshold
          and ${liveBlockerSql("b")}
        order by r.id, b.id
        on conflict do nothing
        returning id`,
  );
  return inserted.map((r) => Number(r.id));
}

export interface FiringStats {
  lastFiredAt: Date | null;
  firedCount: number;
}

/**
 * How often each of the workspace's rules acted (posted its alert) and when last, by rule id. A firing that found
 * nothing to say (not below the threshold, blocker cleared, gave up) did not fire; firings older than the retention
 * are pruned, so the count covers that window. Rules that never acted are absent.
 */
export async function firingStats(ex: Executor, teamId: string, ruleId?: number): Promise<Map<number, FiringStats>> {
  const found = await rows<{ rule_id: number; last: string | Date; n: number }>(
    ex,
    sql`select rule_id, max(done_at) as last, count(*)::int as n from rule_firings
        where team_id = ${teamId} and outcome = 'posted' ${ruleId === undefined ? sql`` : sql`and rule_id = ${ruleId}`}
        group by rule_id`,
  );
  return new Map(found.map((r) => [Number(r.rule_id), { lastFiredAt: new Date(r.last), firedCount: Number(r.n) }]));
}

export interface FiringRow {
  id: number;
  teamId: string;
  runId: number;
  responseId: number | null;
  /** The blocker item a blocker_open_days firing is about. */
  blockerId: number | null;
  doneAt: Date | null;
  /** Null when the rule was deleted after it fired. */
  rule: RuleRow | undefined;
}

export async function findFiring(ex: Executor, teamId: string, id: number): Promise<FiringRow | undefined> {
  const [row] = await ex
    .select({ firing: ruleFirings, rule: rules })
    .from(ruleFirings)
    .leftJoin(rules, and(eq(rules.teamId, ruleFirings.teamId), eq(rules.id, ruleFirings.ruleId)))
    .where(and(eq(ruleFirings.teamId, teamId), eq(ruleFirings.id, id)))
    .limit(1);
  if (!row) return undefined;
  const f = row.firing;
  return {
    id: f.id,
    teamId: f.teamId,
    runId: f.runId,
    responseId: f.responseId,
    blockerId: f.blockerId,
    doneAt: f.doneAt,
    rule: row.rule ?? undefined,
  };
}

export async function finishFiring(ex: Executor, teamId: string, id: number, outcome: string, now: Date) {
  await ex
    .update(ruleFirings)
    .set({ outcome, doneAt: now })
    .where(and(eq(ruleFirings.teamId, teamId), eq(ruleFirings.id, id)));
}

export interface RunFacts {
  id: number;
  scheduleId: string;
  channelId: string;
  localDate: string;
  /** The standup's own name ('' for the default), also when it was deleted since. */
  scheduleName: string | null;
}

export async function findRunFacts(ex: Executor, teamId: string, runId: number): Promise<RunFacts | undefined> {
  const [row] = await rows<{
    id: number | string;
    schedule_id: string;
    channel_id: string;
    local_date: string;
    name: string | null;
  }>(
    ex,
    sql`select run.id, run.schedule_id, run.channel_id, run.local_date::text as local_date, s.name
        from standup_runs run
        left join schedules s on s.id = run.schedule_id and s.team_id = run.team_id
        where run.team_id = ${teamId} and run.id = ${runId}`,
  );
  if (!row) return undefined;
  return {
    id: Number(row.id),
    scheduleId: row.schedule_id,
    channelId: row.channel_id,
    localDate: row.local_date,
    scheduleName: row.name,
  };
}

/**
 * Who the run asked and who of them answered, as the reports count a closed run: every participant who was asked
 * (a member-timezone participant never asked, 'pending', is left out; one who skipped counts as asked).
 */
export async function runParticipation(
  ex: Executor,
  teamId: string,
  runId: number,
): Promise<{ asked: number; answered: number }> {
  const [row] = await rows<{ asked: number; answered: number }>(
    ex,
    sql`select count(*)::int as asked, count(resp.id)::int as answered
        from run_participants p
        left join responses resp on resp.run_id = p.run_id and resp.user_id = p.user_id and resp.team_id = p.team_id
        where p.team_id = ${teamId} and p.run_id = ${runId} and p.status not in ('pending', 'away')`,
  );
  return { asked: Number(row?.asked ?? 0), answered: Number(row?.answered ?? 0) };
}

/** How many of the run's responses carry each mood (responses without a mood are left out). */
export async function runMoodCounts(ex: Executor, teamId: string, runId: number): Promise<Map<string, number>> {
  const found = await rows<{ mood: string; n: number }>(
    ex,
    sql`select mood, count(*)::int as n from responses
        where team_id = ${teamId} and run_id = ${runId} and mood is not null
        group by mood`,
  );
  return new Map(found.map((r) => [r.mood, Number(r.n)]));
}

/** The standup's date of its latest closed run: the day a blocker_open_days firing judged (closes claim them). */
export async function lastClosedDate(ex: Executor, teamId: string, scheduleId: string): Promise<string | undefined> {
  const [row] = await rows<{ d: string | null }>(
    ex,
    sql`select max(local_date)::text as d from standup_runs
        where team_id = ${teamId} and schedule_id = ${scheduleId} and closed_at is not null`,
  );
  return row?.d ?? undefined;
}

export interface BlockerFacts {
  userId: string;
  blockers: string;
  hasBlocker: boolean;
}

export async function findBlocker(ex: Executor, teamId: string, responseId: number): Promise<BlockerFacts | undefined> {
  const [row] = await rows<{ user_id: string; blockers: string; has_blocker: boolean }>(
    ex,
    sql`select user_id, blockers, has_blocker from responses where team_id = ${teamId} and id = ${responseId}`,
  );
  return row ? { userId: row.user_id, blockers: row.blockers, hasBlocker: row.has_blocker } : undefined;
}
