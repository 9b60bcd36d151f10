import { sql } from "drizzle-orm";
import { DateTime } from "luxon";
import { type Executor, rows, type Tx } from "../../db/client.ts";
import type { BlockerResolvedVia, BlockerStatus } from "../../db/schema.ts";
import type { Deps } from "../../deps.ts";

/**
 * Blockers with a life (issue 25): each blocker a member reports becomes an item, `open` until resolved. One open
 * item per member and standup: reporting a blocker again while one is open is the same item (its text follows the
 * latest answer, its age counts from the first report); answering the blocker question with "none" resolves it.
 */

export interface BlockerItem {
  id: number;
  teamId: string;
  scheduleId: string;
  userId: string;
  text: string;
  status: BlockerStatus;
  openedAt: Date;
  openedDate: string;
  lastDate: string;
  lastReportedAt: Date;
  resolvedAt: Date | null;
  resolvedBy: string | null;
  resolutionNote: string | null;
  resolvedVia: BlockerResolvedVia | null;
}

/** What `blocker.resolved` carries (webhooks build their payload from the row). */
export interface BlockerResolvedEvent {
  blockerId: number;
  scheduleId: string;
  userId: string;
  resolvedBy: string;
  via: BlockerResolvedVia;
}

declare module "../../jobs/events.ts" {
  interface DomainEvents {
    /** An open blocker item was resolved (by its member, an admin, or an answer saying there is none). */
    "blocker.resolved": BlockerResolvedEvent;
  }
}

export const MAX_RESOLUTION_NOTE = 500;

const COLUMNS = sql`id::int as id, team_id as "teamId", schedule_id as "scheduleId", user_id as "userId", text, status,
  opened_at as "openedAt", opened_date::text as "openedDate", last_date::text as "lastDate",
  last_reported_at as "lastReportedAt", resolved_at as "resolvedAt", resolved_by as "resolvedBy",
  resolution_note as "resolutionNote", resolved_via as "resolvedVia"`;

/** Dates come back as Date from pg and PGlite alike; timestamps in raw SQL may arrive as strings on one of them. */
function item(row: BlockerItem): BlockerItem {
  const date = (v: Date | string | null) => (v === null ? null : v instanceof Date ? v : new Date(v));
  return {
    ...row,
    openedAt: date(row.openedAt)!,
    lastReportedAt: date(row.lastReportedAt)!,
    resolvedAt: date(row.resolvedAt),
  };
}

/** Whole days a blocker has been open on `today` (the standup's local date): 0 on the day it was reported. */
export function blockerAgeDays(openedDate: string, today: string): number {
  const days = DateTime.fromISO(today).diff(DateTime.fromISO(openedDate), "days").days;
  return Math.max(0, Math.round(days));
}

export async function openBlockerOf(
  ex: Executor,
  teamId: string,
  scheduleId: string,
  userId: string,
): Promise<BlockerItem | undefined> {
  const [row] = await rows<BlockerItem>(
    ex,
    sql`select ${COLUMNS} from blockers
        where team_id = ${teamId} and schedule_id = ${scheduleId} and user_id = ${userId} and status = 'open'`,
  );
  return row ? item(row) : undefined;
}

export async function findBlocker(ex: Executor, teamId: string, id: number): Promise<BlockerItem | undefined> {
  const [row] = await rows<BlockerItem>(
    ex,
    sql`select ${COLUMNS} from blockers where team_id = ${teamId} and id = ${id}`,
  );
  return row ? item(row) : undefined;
}

type EventDeps = Pick<Deps, "events">;

/**
 * Whether the blocker item aliased `b` counts as open to anyone: its member is active and its standup still exists.
 * The Blockers page and `active_blockers` (blockers.repo.ts, insights' openBlockerCount) count by the same rule, and
 * so do the close summary and the blocker_open_days escalation: a member who left or a deleted standup blocks nobody.
 */
export const liveBlockerSql = (b: string) =>
  sql.raw(`(exists (select 1 from schedules live_s where live_s.team_id = ${b}.team_id and live_s.id = ${b}.schedule_id
      and live_s.deleted_at is null)
    and exists (select 1 from members live_m where live_m.team_id = ${b}.team_id and live_m.user_id = ${b}.user_id
      and live_m.active))`);

/**
 * In the transaction that stores a response: a blocker answer opens the member's item for the standup or, when one is
 * open, becomes its latest text; an answer with no blocker resolves the open one ("via answer"). Returns the open
 * item's id, or undefined when none is open after the answer.
 *
 * Answers may arrive out of order (late answers, edits of an older day): an answer never moves an item back. An older
 * day's blocker answer leaves the open item's latest text as it is, and opens no item for a day its member already
 * settled: on or before the last day a resolved item of the standup was reported, or before the day (in the
 * standup's zone) it was resolved by hand. An empty blocker answer (an optional question left blank) says nothing.
 */
export async function trackBlocker(
  deps: EventDeps,
  tx: Tx,
  r: {
    teamId: string;
    scheduleId: string;
    userId: string;
    responseId: number;
    standupDate: string;
    text: string;
    hasBlocker: boolean;
    at: Date;
  },
): Promise<number | undefined> {
  if (r.hasBlocker) {
    const at = r.at.toISOString();
    // The conflict update runs whenever an item is open (the insert's row is then always proposed); without one,
    // an answer for a settled day proposes none, so it opens nothing. An item this very answer resolved (its ticked
    // box, same instant) settles nothing: the new blocker beside it is a new item.
    const [row] = await rows<{ id: number }>(
      tx,
      sql`insert into blockers (team_id, schedule_id, user_id, text, opened_at, opened_date, first_response_id,
            last_response_id, last_reported_at, last_date)
          select ${r.teamId}, ${r.scheduleId}, ${r.userId}, ${r.text}, ${at}::timestamptz, ${r.standupDate}::date,
            ${r.responseId}, ${r.responseId}, ${at}::timestamptz, ${r.standupDate}::date
          where exists (select 1 from blockers o where o.team_id = ${r.teamId} and o.schedule_id = ${r.scheduleId}
                  and o.user_id = ${r.userId} and o.status = 'open')
            or not exists (select 1 from blockers d
                  left join schedules s on s.team_id = d.team_id and s.id = d.schedule_id
                  where d.team_id = ${r.teamId} and d.schedule_id = ${r.scheduleId} and d.user_id = ${r.userId}
                    and d.status = 'resolved' and d.resolved_at < ${at}::timestamptz
                    and (d.last_date >= ${r.standupDate}::date
                      or (d.resolved_via <> 'answer'
                        and (d.resolved_at at time zone coalesce(s.schedule_tz, 'UTC'))::date > ${r.standupDate}::date)))
          on conflict (team_id, schedule_id, user_id) where status = 'open'
          do update set
            text = case when excluded.last_date >= blockers.last_date then excluded.text else blockers.text end,
            last_response_id = case when excluded.last_date >= blockers.last_date
              then excluded.last_response_id else blockers.last_response_id end,
            last_reported_at = case when excluded.last_date >= blockers.last_date
              then excluded.last_reported_at else blockers.last_reported_at end,
            last_date = greatest(blockers.last_date, excluded.last_date)
          returning id::int as id`,
    );
    return row?.id;
  }
  const open = await openBlockerOf(tx, r.teamId, r.scheduleId, r.userId);
  // A blank answer is no answer: only one that says there is nothing resolves.
  if (r.text.trim() === "") return open?.id;
  // Only an answer for a day after the blocker was reported says it is gone; an older run answered late does not.
  if (open && r.standupDate >= open.lastDate) {
    await resolveInTx(deps, tx, open, { by: r.userId, note: null, via: "answer", at: r.at });
    return undefined;
  }
  return open?.id;
}

export type ResolveOutcome =
  | { ok: true; blocker: BlockerItem }
  | { ok: false; reason: "not_found" | "forbidden" | "already_resolved" };

/** Resolves `open` in the caller's transaction; undefined when it was no longer open (resolved once). */
export async function resolveInTx(
  deps: EventDeps,
  tx: Tx,
  open: BlockerItem,
  how: { by: string; note: string | null; via: BlockerResolvedVia; at: Date },
): Promise<BlockerItem | undefined> {
  const [row] = await rows<BlockerItem>(
    tx,
    sql`update blockers set status = 'resolved', resolved_at = ${how.at.toISOString()}::timestamptz,
          resolved_by = ${how.by}, resolution_note = ${how.note}, resolved_via = ${how.via}
        where team_id = ${open.teamId} and id = ${open.id} and status = 'open'
        returning ${COLUMNS}`,
  );
  if (!row) return undefined;
  await deps.events.emit(tx, {
    type: "blocker.resolved",
    teamId: open.teamId,
    data: { blockerId: open.id, scheduleId: open.scheduleId, userId: open.userId, resolvedBy: how.by, via: how.via },
    at: how.at,
  });
  return item(row);
}

/**
 * Resolves an open blocker: its member may, and an admin may resolve anyone's (`asAdmin`). Once: a second resolve
 * (a double click, two instances) finds it resolved. The note is trimmed and capped; empty means none.
 */
export async function resolveBlocker(
  deps: Pick<Deps, "db" | "clock" | "events">,
  input: {
    teamId: string;
    blockerId: number;
    by: string;
    asAdmin: boolean;
    note?: string | null;
    via: BlockerResolvedVia;
  },
): Promise<ResolveOutcome> {
  return deps.db.transaction(async (tx) => {
    const found = await findBlocker(tx, input.teamId, input.blockerId);
    if (!found) return { ok: false as const, reason: "not_found" as const };
    if (found.userId !== input.by && !input.asAdmin) return { ok: false as const, reason: "forbidden" as const };
    if (found.status !== "open") return { ok: false as const, reason: "already_resolved" as const };
    const note = input.note?.trim().slice(0, MAX_RESOLUTION_NOTE) || null;
    const done = await resolveInTx(deps, tx, found, { by: input.by, note, via: input.via, at: deps.clock.now() });
    return done ? { ok: true as const, blocker: done } : { ok: false as const, reason: "already_resolved" as const };
  });
}

/** "Still blocked": the member confirms the item is open; it counts as reported again today. */
export async function confirmStillBlocked(
  deps: Pick<Deps, "db" | "clock">,
  teamId: string,
  blockerId: number,
  userId: string,
  today: string,
): Promise<boolean> {
  const [row] = await rows<{ id: number }>(
    deps.db,
    sql`update blockers set last_reported_at = ${deps.clock.now().toISOString()}::timestamptz,
          last_date = greatest(last_date, ${today}::date)
        where team_id = ${teamId} and id = ${blockerId} and user_id = ${userId} and status = 'open'
        returning id::int as id`,
  );
  return row !== undefined;
}

/**
 * Imported history (importHistory: imports, the demo, benchmarks) goes through no submission, so its blockers are
 * tracked here in one statement: a member's latest answer in a standup that reports a blocker, within a week of
 * that standup's latest run, opens an item dated from the first of the unbroken run of blocker answers before it.
 * Items already open are left as they are.
 */
export async function openBlockersFromHistory(ex: Executor, teamId: string): Promise<void> {
  await ex.execute(sql`
    insert into blockers (team_id, schedule_id, user_id, text, opened_at, opened_date, first_response_id,
      last_response_id, last_reported_at, last_date)
    select last.team_id, last.schedule_id, last.user_id, last.blockers, first.submitted_at, first.standup_date,
      first.id, last.id, last.submitted_at, last.standup_date
    from (
      select distinct on (r.schedule_id, r.user_id) r.*
      from responses r
      where r.team_id = ${teamId}
      order by r.schedule_id, r.user_id, r.standup_date desc, r.id desc
    ) last
    cross join lateral (
      select f.id, f.standup_date, f.submitted_at from responses f
      where f.team_id = last.team_id and f.schedule_id = last.schedule_id and f.user_id = last.user_id
        and f.has_blocker
        and f.standup_date > coalesce((select max(c.standup_date) from responses c
          where c.team_id = last.team_id and c.schedule_id = last.schedule_id and c.user_id = last.user_id
            and not c.has_blocker), '1900-01-01'::date)
      order by f.standup_date, f.id
      limit 1
    ) first
    where last.has_blocker
      and last.standup_date >= (select max(run.local_date) from standup_runs run
        where run.team_id = last.team_id and run.schedule_id = last.schedule_id) - 7
    on conflict do nothing`);
}
