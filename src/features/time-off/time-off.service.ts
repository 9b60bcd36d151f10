import { IANAZone } from "luxon";
import {
  TIME_OFF_LIST_DEFAULT,
  TIME_OFF_MAX_DAYS,
  TIME_OFF_MAX_UPCOMING,
  TIME_OFF_REASON_MAX,
  type TimeOffRange,
} from "../../contract/index.ts";
import type { Tx } from "../../db/client.ts";
import type { AnswerVia } from "../../db/schema.ts";
import type { Deps } from "../../deps.ts";
import { adminRequired, badRequest, notFound } from "../../http/errors.ts";
import { FORMER_MEMBER } from "../../lib/person-names.ts";
import { daysBetween, isRealDate, shiftDate, todayIn, workspaceToday } from "../calendar/index.ts";
import { memberTimezone, requireMember } from "../members/index.ts";
import {
  countUpcoming,
  deleteRange,
  endRangeFrom,
  findRange,
  insertMerged,
  type ListedRange,
  lockMember,
  openRunDates,
  pruneEnded,
  selectRanges,
  selectUpcoming,
  type TimeOffRow,
} from "./time-off.repo.ts";

/**
 * Time off: a member's away ranges, both dates included, compared with the date each run is for (the schedule's
 * date, or the member's own date in a member-timezone standup). "Today" (not ending in the past, `back`, `current`)
 * is the workspace calendar's date. While away a member is not asked, not reminded, not counted in participation
 * or streaks, and listed as away in the run summary and the overview (the standups feature reads the ranges).
 */

/** Ranges that ended more than this many days ago are pruned. */
export const TIME_OFF_RETENTION_DAYS = 366;

declare module "../../jobs/events.ts" {
  interface DomainEvents {
    /** A member's time off changed: the standups feature brings their part in open runs in line. */
    "time-off.changed": { userId: string };
  }
}

export interface RangeInput {
  startDate: string;
  endDate: string;
  reason?: string | undefined;
  /** 'mcp' when an AI client sets it for the member; the merged range takes the latest writer's. */
  via?: AnswerVia | null;
}

/** The problem with these dates (a message naming the field), or undefined when they can be stored. */
export function rangeProblem(r: RangeInput, today: string): string | undefined {
  if (!isRealDate(r.startDate)) return "start_date: not a real date (YYYY-MM-DD)";
  if (!isRealDate(r.endDate)) return "end_date: not a real date (YYYY-MM-DD)";
  if (r.endDate < r.startDate) return "end_date: must be on or after start_date";
  if (daysBetween(r.startDate, r.endDate) > TIME_OFF_MAX_DAYS)
    return `end_date: a range covers at most ${TIME_OFF_MAX_DAYS} days`;
  // One day of leeway: a run still open west of the calendar's zone may be for yesterday (see earliestToday).
  if (r.endDate < shiftDate(today, -1)) return `end_date: must not be in the past (today is ${today})`;
  if ((r.reason ?? "").length > TIME_OFF_REASON_MAX) return `reason: at most ${TIME_OFF_REASON_MAX} characters`;
  return undefined;
}

async function changed(deps: Deps, tx: Tx, teamId: string, userId: string): Promise<void> {
  await deps.events.emit(tx, { type: "time-off.changed", teamId, data: { userId }, at: deps.clock.now() });
}

export type SetAwayOutcome = { ok: true; range: TimeOffRow } | { ok: false; error: string };

/**
 * Stores a range for `userId` (set by `by`), merged with the member's overlapping or adjacent ones; the workspace's
 * ranges past retention are pruned in the same transaction. The member must be an active member (checked by the
 * caller for outside input).
 */
export async function setAway(
  deps: Deps,
  input: { teamId: string; userId: string; by: string } & RangeInput,
): Promise<SetAwayOutcome> {
  const today = await workspaceToday(deps, input.teamId);
  const problem = rangeProblem(input, today);
  if (problem) return { ok: false, error: problem };
  const range = await deps.db.transaction(async (tx) => {
    // The member's lock before counting: two requests at once cannot both see room under the cap.
    await lockMember(tx, input.teamId, input.userId);
    const upcoming = await countUpcoming(tx, input.teamId, input.userId, today);
    if (upcoming >= TIME_OFF_MAX_UPCOMING) return undefined;
    const now = deps.clock.now();
    const row = await insertMerged(
      tx,
      {
        teamId: input.teamId,
        userId: input.userId,
        startDate: input.startDate,
        endDate: input.endDate,
        reason: (input.reason ?? "").trim(),
        createdBy: input.by,
        via: input.via ?? null,
      },
      now,
    );
    await pruneEnded(tx, input.teamId, shiftDate(today, -TIME_OFF_RETENTION_DAYS));
    await changed(deps, tx, input.teamId, input.userId);
    return row;
  });
  if (!range) return { ok: false, error: `at most ${TIME_OFF_MAX_UPCOMING} current and upcoming ranges per member` };
  return { ok: true, range };
}

/**
 * The member's earliest "today": the workspace calendar's date, the member's own date and the dates of their open
 * runs (a schedule in another zone), never more than a day before the workspace's. `back` ends time off before it,
 * so no run still open sees the member away.
 */
export async function earliestToday(deps: Deps, teamId: string, userId: string, today: string): Promise<string> {
  const floor = shiftDate(today, -1);
  const zone = await memberTimezone(deps, teamId, userId);
  const own = IANAZone.isValidZone(zone) ? todayIn(zone, deps.clock.now()) : today;
  const runs = await openRunDates(deps.db, teamId, userId, floor);
  const earliest = [today, own, ...runs].sort()[0]!;
  return [earliest, floor].sort().at(-1)!;
}

/**
 * `back`: the range covering today ends before the member's earliest today (removed when it started then or
 * later), so an open run for that date asks them; later ranges stay. Undefined when the member was not away.
 * `endsOn` is the range's new last day.
 */
export async function comeBack(
  deps: Deps,
  teamId: string,
  userId: string,
): Promise<{ range: TimeOffRow; removed: boolean; endsOn: string; today: string } | undefined> {
  const today = await workspaceToday(deps, teamId);
  const from = await earliestToday(deps, teamId, userId, today);
  return deps.db.transaction(async (tx) => {
    const ended = await endRangeFrom(tx, teamId, userId, from, today, deps.clock.now());
    if (!ended) return undefined;
    await changed(deps, tx, teamId, userId);
    return { range: ended, removed: ended.startDate >= from, endsOn: shiftDate(from, -1), today };
  });
}

/** The member's current and upcoming ranges, oldest first (at most `limit`). */
export async function upcomingRanges(deps: Deps, teamId: string, userId: string, limit = 3): Promise<TimeOffRow[]> {
  return selectUpcoming(deps.db, teamId, userId, await workspaceToday(deps, teamId), limit);
}

export function presentRange(r: TimeOffRow & { realName?: string }, today: string): TimeOffRange {
  return {
    id: Number(r.id),
    user_id: r.userId,
    real_name: r.realName?.trim() || FORMER_MEMBER,
    start_date: r.startDate,
    end_date: r.endDate,
    reason: r.reason,
    current: r.startDate <= today && today <= r.endDate,
    created_by: r.createdBy,
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
    via: r.via === "mcp" ? "mcp" : null,
  };
}

interface Caller {
  teamId: string;
  userId: string;
  role: "admin" | "member";
}

/** GET: members see their own ranges (another `user_id` → 403), admins everyone's or one member's. */
export async function listRanges(
  deps: Deps,
  caller: Caller,
  q: { user_id?: string | undefined; include_past?: boolean | undefined; limit?: number | undefined },
) {
  if (caller.role !== "admin" && q.user_id !== undefined && q.user_id !== caller.userId)
    throw adminRequired("Only admins see other members' time off");
  const userId = caller.role === "admin" ? q.user_id : caller.userId;
  const today = await workspaceToday(deps, caller.teamId);
  const limit = q.limit ?? TIME_OFF_LIST_DEFAULT;
  const found: ListedRange[] = await selectRanges(deps.db, caller.teamId, {
    ...(userId ? { userId } : {}),
    from: q.include_past ? null : today,
    limit,
  });
  return { items: found.slice(0, limit).map((r) => presentRange(r, today)), truncated: found.length > limit };
}

/** POST: a member for themselves, an admin for anyone active in the workspace. */
export async function createRange(
  deps: Deps,
  caller: Caller,
  body: { user_id?: string | undefined; start_date: string; end_date: string; reason?: string | undefined },
): Promise<TimeOffRange> {
  const userId = body.user_id ?? caller.userId;
  if (userId !== caller.userId && caller.role !== "admin")
    throw adminRequired("Only admins set other members' time off");
  await requireMember(deps, caller.teamId, userId, "user_id");
  const outcome = await setAway(deps, {
    teamId: caller.teamId,
    userId,
    by: caller.userId,
    startDate: body.start_date,
    endDate: body.end_date,
    reason: body.reason,
  });
  if (!outcome.ok) throw badRequest(outcome.error);
  const [named] = await selectRanges(deps.db, caller.teamId, { userId, from: outcome.range.startDate, limit: 1 });
  return presentRange(
    named?.id === outcome.range.id ? named : outcome.range,
    await workspaceToday(deps, caller.teamId),
  );
}

/** DELETE: the member's own range, or any as an admin (others' → 403); another workspace's id → 404. */
export async function removeRange(deps: Deps, caller: Caller, id: number): Promise<void> {
  const found = await findRange(deps.db, caller.teamId, id);
  if (!found) throw notFound("No such time off");
  if (caller.role !== "admin" && found.userId !== caller.userId)
    throw adminRequired("Only admins remove other members' time off");
  await deps.db.transaction(async (tx) => {
    const gone = await deleteRange(tx, caller.teamId, id);
    if (gone) await changed(deps, tx, caller.teamId, gone.userId);
  });
}
