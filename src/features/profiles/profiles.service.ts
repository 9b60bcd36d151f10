import { DateTime } from "luxon";
import type { z } from "zod";
import type { memberProfile, profile } from "../../contract/index.ts";
import type { Deps } from "../../deps.ts";
import { badRequest, notFound } from "../../http/errors.ts";
import { nameOfRow } from "../../lib/person-names.ts";
import { workspaceToday } from "../calendar/index.ts";
import { findMember } from "../members/index.ts";
import type { ProfileInput } from "./profiles.input.ts";
import {
  type CelebrationProfile,
  findProfile,
  listMemberProfiles,
  type ProfileChanges,
  type ProfileRow,
  selectCelebrationProfiles,
  selectMissingDates,
  upsertProfile,
} from "./profiles.repo.ts";

export type ProfileView = z.output<typeof profile>;
export type MemberProfileView = z.output<typeof memberProfile>;

/** A page of the admin list holds at most this many members; the dashboard follows `after` for the rest. */
export const MAX_PAGE = 1000;

/** The profile as the API shows it; a member who never set one gets the defaults (celebrated, nothing else). */
export function presentProfile(userId: string, row: ProfileRow | null | undefined): ProfileView {
  return {
    user_id: userId,
    birth_month: row?.birthMonth ?? null,
    birth_day: row?.birthDay ?? null,
    start_date: row?.startDate ?? null,
    role: row?.role ?? "",
    location: row?.location ?? "",
    ask_me_about: row?.askMeAbout ?? "",
    celebrate: row?.celebrate ?? true,
    set_by_admin: row?.setByAdmin ?? false,
    updated_at: row ? row.updatedAt.toISOString() : null,
  };
}

/** The latest start date accepted: one year after today in the workspace calendar (a hire signed well ahead). */
export async function latestStartDate(deps: Pick<Deps, "db" | "clock">, teamId: string): Promise<string> {
  return DateTime.fromISO(await workspaceToday(deps, teamId), { zone: "UTC" })
    .plus({ years: 1 })
    .toISODate()!;
}

export async function getProfile(deps: Pick<Deps, "db">, teamId: string, userId: string): Promise<ProfileView> {
  return presentProfile(userId, await findProfile(deps.db, teamId, userId));
}

/** Saves the fields sent (validated by profileInput) and answers the stored profile. */
export async function saveProfile(
  deps: Pick<Deps, "db" | "clock">,
  teamId: string,
  userId: string,
  input: ProfileInput,
  setByAdmin: boolean,
): Promise<ProfileView> {
  if (typeof input.start_date === "string") {
    const latest = await latestStartDate(deps, teamId);
    if (input.start_date > latest) {
      throw badRequest(`start_date must be at most a year from today (${latest} at the latest)`);
    }
  }
  const changes: ProfileChanges = {};
  if (input.birth_month !== undefined) changes.birthMonth = input.birth_month;
  if (input.birth_day !== undefined) changes.birthDay = input.birth_day;
  if (input.start_date !== undefined) changes.startDate = input.start_date;
  if (input.role !== undefined) changes.role = input.role;
  if (input.location !== undefined) changes.location = input.location;
  if (input.ask_me_about !== undefined) changes.askMeAbout = input.ask_me_about;
  if (input.celebrate !== undefined) changes.celebrate = input.celebrate;
  const row = await upsertProfile(deps.db, teamId, userId, changes, setByAdmin, deps.clock.now());
  return presentProfile(userId, row);
}

/** An admin saves a member's profile: only a current (active) member of this workspace has one; others are 404. */
export async function saveMemberProfile(
  deps: Pick<Deps, "db" | "clock">,
  teamId: string,
  userId: string,
  input: ProfileInput,
): Promise<ProfileView> {
  const member = await findMember(deps.db, teamId, userId);
  if (!member?.active) throw notFound("No such member in this workspace");
  if (input.celebrate === true) {
    // Opting out is the member's choice: an admin may opt someone out, never back in. `true` is never written
    // here (it is the default, or refused), so a member opting out at the same moment is not undone.
    if ((await findProfile(deps.db, teamId, userId))?.celebrate === false) {
      throw badRequest("celebrate: only the member can opt back in");
    }
    const { celebrate: _, ...rest } = input;
    return saveProfile(deps, teamId, userId, rest, true);
  }
  return saveProfile(deps, teamId, userId, input, true);
}

export async function listProfiles(
  deps: Pick<Deps, "db">,
  teamId: string,
  after: string | undefined,
  limit: number,
): Promise<MemberProfileView[]> {
  const found = await listMemberProfiles(deps.db, teamId, after, Math.min(limit, MAX_PAGE));
  return found.map((m) => ({
    ...presentProfile(m.userId, m.profile),
    name: nameOfRow(m),
    email: m.email,
  }));
}

/**
 * For Celebrations: every active member of the workspace who has not opted out (`celebrate` true) and has a
 * birthday or a start date. Deactivated and opted-out people are never in it.
 */
export function profilesForCelebration(deps: Pick<Deps, "db">, teamId: string): Promise<CelebrationProfile[]> {
  return selectCelebrationProfiles(deps.db, teamId);
}

/** For Celebrations' ask-for-dates: active, not opted-out members missing a birthday or a start date. */
export function membersMissingDates(deps: Pick<Deps, "db">, teamId: string): Promise<string[]> {
  return selectMissingDates(deps.db, teamId);
}
