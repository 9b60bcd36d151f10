import { IANAZone } from "luxon";
import { findActiveInstallation } from "../../chat/installations.repo.ts";
import { postKey } from "../../chat/post-keys.ts";
import type { Executor } from "../../db/client.ts";
import type { Deps } from "../../deps.ts";
import { adminRequired, badRequest, conflict } from "../../http/errors.ts";
import { holidaysBetween, readCalendar, saveCalendar } from "../calendar/index.ts";
import { requireChannel } from "../channels/index.ts";
import { requireMembers } from "../members/index.ts";
import { WEEKDAYS, type Weekday, type WorkCalendar } from "./celebrations.dates.ts";
import type { CalendarInput, SettingsInput } from "./celebrations.input.ts";
import {
  claimAsks,
  lockSettings,
  membersToAsk,
  type SettingsRow,
  saveSettings,
  selectSettings,
} from "./celebrations.repo.ts";

export const REACTIONS_SCOPE = "reactions:write";
export const DEFAULT_POST_TIME = "09:00";

export interface SettingsView {
  channel_id: string | null;
  timezone: string;
  post_time: string;
  birthdays: boolean;
  anniversaries: boolean;
  working_days: Weekday[];
  admins: string[];
  can_react: boolean;
  can_manage: boolean;
}

export async function canReact(ex: Executor, teamId: string): Promise<boolean> {
  const inst = await findActiveInstallation(ex, teamId);
  return (inst?.scopes ?? "").split(/[\s,]+/).includes(REACTIONS_SCOPE);
}

const asWeekdays = (days: string[]): Weekday[] => WEEKDAYS.filter((d) => days.includes(d));

/** The workspace's calendar as Celebrations uses it, with its holidays between two dates. */
export async function workCalendar(deps: Pick<Deps, "db">, teamId: string, from: string, to: string) {
  const [cal, holidays] = await Promise.all([
    readCalendar(deps.db, teamId),
    holidaysBetween(deps, [teamId], from, to, "celebrations"),
  ]);
  const zone = IANAZone.isValidZone(cal.timezone) ? cal.timezone : "UTC";
  const work: WorkCalendar = {
    workingDays: asWeekdays(cal.workingDays),
    holidays: holidays.get(teamId) ?? new Set(),
  };
  return { zone, saved: cal.saved, work };
}

/** Workspace admins and the people the settings name may change Celebrations. */
export async function mayManage(
  deps: Pick<Deps, "db">,
  session: { teamId: string; userId: string; role: string },
): Promise<boolean> {
  if (session.role === "admin") return true;
  const s = await selectSettings(deps.db, session.teamId);
  return (s?.admins ?? []).includes(session.userId);
}

export async function requireManager(
  deps: Pick<Deps, "db">,
  session: { teamId: string; userId: string; role: string },
): Promise<void> {
  if (!(await mayManage(deps, session))) throw adminRequired("Workspace admin or Celebrations admin required");
}

export async function readSettings(
  deps: Pick<Deps, "db">,
  session: { teamId: string; userId: string; role: string },
): Promise<SettingsView> {
  const { teamId } = session;
  const [s, cal, react] = await Promise.all([
    selectSettings(deps.db, teamId),
    readCalendar(deps.db, teamId),
    canReact(deps.db, teamId),
  ]);
  return {
    channel_id: s?.channelId ?? null,
    timezone: cal.timezone,
    post_time: s?.postTime ?? DEFAULT_POST_TIME,
    birthdays: s?.birthdays ?? true,
    anniversaries: s?.anniversaries ?? true,
    working_days: asWeekdays(cal.workingDays),
    admins: s?.admins ?? [],
    can_react: react,
    can_manage: session.role === "admin" || (s?.admins ?? []).includes(session.userId),
  };
}

/** Saves the settings and the calendar they carry; omitted optional fields keep their saved value. */
export async function writeSettings(
  deps: Pick<Deps, "db" | "chat" | "clock">,
  session: { teamId: string; userId: string; role: string },
  input: SettingsInput,
): Promise<SettingsView> {
  const { teamId } = session;
  if (!IANAZone.isValidZone(input.timezone)) {
    throw badRequest("timezone must be an IANA timezone such as Europe/Paris");
  }
  if (input.admins) await requireMembers(deps, teamId, input.admins, "admins");
  await requireChannel(deps, teamId, input.channel_id, "channel_id", { join: true });
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    // Two saves at once, each leaving out other optional fields, must not undo each other.
    await lockSettings(tx, teamId);
    const before = await selectSettings(tx, teamId);
    const admins = input.admins ? [...new Set(input.admins)] : (before?.admins ?? []);
    const adminsChanged = JSON.stringify([...admins].sort()) !== JSON.stringify([...(before?.admins ?? [])].sort());
    // Who may read everyone's birthdays is a workspace admin's decision.
    if (adminsChanged && session.role !== "admin") {
      throw adminRequired("admins: only a workspace admin can change who the Celebrations admins are");
    }
    await saveSettings(
      tx,
      {
        teamId,
        channelId: input.channel_id,
        postTime: input.post_time ?? before?.postTime ?? DEFAULT_POST_TIME,
        birthdays: input.birthdays ?? before?.birthdays ?? true,
        anniversaries: input.anniversaries ?? before?.anniversaries ?? true,
        admins,
      },
      now,
    );
    await saveCalendar(tx, teamId, { timezone: input.timezone, workingDays: asWeekdays(input.working_days) }, now);
  });
  return readSettings(deps, session);
}

/** Saves the workspace calendar alone: Celebrations need not be set up (no channel), and stay as they are. */
export async function writeCalendar(
  deps: Pick<Deps, "db" | "clock">,
  teamId: string,
  input: CalendarInput,
): Promise<{ timezone: string; working_days: Weekday[] }> {
  if (!IANAZone.isValidZone(input.timezone)) {
    throw badRequest("timezone must be an IANA timezone such as Europe/Paris");
  }
  const working = asWeekdays(input.working_days);
  await saveCalendar(deps.db, teamId, { timezone: input.timezone, workingDays: working }, deps.clock.now());
  const saved = await readCalendar(deps.db, teamId);
  return { timezone: saved.timezone, working_days: asWeekdays(saved.workingDays) };
}

// ---- Asking for dates -----------------------------------------------------------------------------

export function askDatesText(channelId: string | null): string {
  const where = channelId ? ` in <#${channelId}>` : "";
  return (
    `Hi! Your team celebrates birthdays and work anniversaries${where}. ` +
    "Add your birthday (just the day and month, never the year) and the date you started, so we can celebrate you too. " +
    "Rather not? You can turn celebrations off for yourself in the same place."
  );
}

export async function askDatesPreview(deps: Pick<Deps, "db" | "clock">, teamId: string) {
  const [people, s] = await Promise.all([
    membersToAsk(deps.db, teamId, deps.clock.now()),
    selectSettings(deps.db, teamId),
  ]);
  return { count: people.length, text: askDatesText(s?.channelId ?? null) };
}

/**
 * Claims the ask of everyone still missing dates (at most once per person per 30 days) and queues one DM each, in
 * one transaction: parallel requests and instances ask each person once. 409 until a channel and a timezone are saved.
 */
export async function sendAskDates(deps: Deps, teamId: string): Promise<{ sent: number }> {
  const [s, cal] = await Promise.all([selectSettings(deps.db, teamId), readCalendar(deps.db, teamId)]);
  if (!s?.channelId || !cal.saved) {
    throw conflict("Save the Celebrations settings (a channel and a timezone) before asking for dates");
  }
  const now = deps.clock.now();
  const claimed = await deps.db.transaction(async (tx) => {
    const won = await claimAsks(tx, teamId, now);
    const jobs = won.map((userId) => ({
      teamId,
      userId,
      key: celebrationAskKey(teamId, userId, now),
    }));
    await deps.queue.enqueueMany("celebrations.ask", jobs, { tx });
    return won.length;
  });
  return { sent: claimed };
}

export type { SettingsRow };

/** The claim of one ask-for-dates DM (a person is asked again after ASK_INTERVAL_DAYS, under a new key). */
export const celebrationAskKey = (teamId: string, userId: string, at: Date) =>
  postKey("celebrations", "ask", teamId, userId, at.toISOString());
