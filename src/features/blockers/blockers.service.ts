import { BLOCKERS_PAGE_DEFAULT, type BlockerItem } from "../../contract/index.ts";
import type { Deps } from "../../deps.ts";
import type { SessionUser } from "../../http/auth.ts";
import { conflict, forbidden, notFound } from "../../http/errors.ts";
import { displayName, standupChannelNames } from "../schedules/index.ts";
import { resolveBlocker } from "../standups/index.ts";
import { type BlockerFilters, type BlockerRow, blockerCount, blockerRows } from "./blockers.repo.ts";

/** Without chat (MCP) an unnamed standup is called as its channel is unknown: MCP never waits on Slack. */
type ReadDeps = Pick<Deps, "db" | "clock"> & Partial<Pick<Deps, "chat">>;

function channelNamesOf(deps: ReadDeps, teamId: string) {
  return deps.chat ? standupChannelNames({ ...deps, chat: deps.chat }, teamId) : undefined;
}

export interface BlockerQuery {
  status?: "open" | "resolved" | "all" | undefined;
  standup?: string | undefined;
  member?: string | undefined;
  /** Only items reported (or confirmed) on or after this standup date. */
  reportedSince?: string | undefined;
}

export function filtersOf(q: BlockerQuery): BlockerFilters {
  return { status: q.status ?? "open", scheduleId: q.standup, userId: q.member, reportedSince: q.reportedSince };
}

export function presentBlocker(r: BlockerRow, channels?: ReadonlyMap<string, string>): BlockerItem {
  const { schedule_id, schedule_name, ...rest } = r;
  return {
    ...rest,
    standup_id: schedule_id,
    standup_name: displayName({ name: schedule_name, channelId: r.channel_id }, channels),
  };
}

/**
 * A page of the workspace's blocker items. Members see every item, as they see every answer in Reports (blockers
 * are what a team unblocks together); only resolving is limited to one's own.
 */
export async function listBlockers(
  deps: ReadDeps,
  teamId: string,
  q: BlockerQuery & { page?: number | undefined; per_page?: number | undefined },
) {
  const f = filtersOf(q);
  const page = q.page ?? 1;
  const perPage = q.per_page ?? BLOCKERS_PAGE_DEFAULT;
  const [items, total, channels] = await Promise.all([
    blockerRows(deps.db, teamId, f, deps.clock.now(), { limit: perPage, offset: (page - 1) * perPage }),
    blockerCount(deps.db, teamId, f),
    channelNamesOf(deps, teamId),
  ]);
  return { items: items.map((r) => presentBlocker(r, channels)), total, page, per_page: perPage };
}

/** One item as the list shows it (also one whose member has left: the caller just resolved it). */
export async function getBlocker(deps: ReadDeps, teamId: string, id: number): Promise<BlockerItem | undefined> {
  const [[row], channels] = await Promise.all([
    blockerRows(deps.db, teamId, { status: "all", id }, deps.clock.now(), { limit: 1, offset: 0 }),
    channelNamesOf(deps, teamId),
  ]);
  return row ? presentBlocker(row, channels) : undefined;
}

/**
 * Resolve from the dashboard: the blocker's member or an admin. Resolving twice is a 409, not a silent 200: the
 * second person learns someone else already did (the item in the answer would show their name anyway).
 */
export async function resolveFromDashboard(
  deps: Pick<Deps, "db" | "clock" | "chat" | "events">,
  session: SessionUser,
  id: number,
  note: string | null | undefined,
): Promise<BlockerItem> {
  const out = await resolveBlocker(deps, {
    teamId: session.teamId,
    blockerId: id,
    by: session.userId,
    asAdmin: session.role === "admin",
    note: note ?? null,
    via: "dashboard",
  });
  if (!out.ok) {
    if (out.reason === "not_found") throw notFound("No such blocker");
    if (out.reason === "forbidden")
      throw forbidden("Only the member who reported a blocker or an admin can resolve it");
    throw conflict("This blocker is already resolved");
  }
  const item = await getBlocker(deps, session.teamId, id);
  if (!item) throw notFound("No such blocker");
  return item;
}
