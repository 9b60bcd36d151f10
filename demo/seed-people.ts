import { DateTime } from "luxon";
import type { Deps } from "../src/deps.ts";
import { readCalendar, workspaceToday } from "../src/features/calendar/index.ts";
import { readSettings, writeSettings } from "../src/features/celebrations/index.ts";
import { insertKudo } from "../src/features/kudos/index.ts";
import { saveProfile } from "../src/features/profiles/index.ts";
import { setAway, upcomingRanges } from "../src/features/time-off/index.ts";
import { ADMIN, DEMO_PEOPLE, DEMO_TEAM, GENERAL_CHANNEL, pick, rng } from "./people.ts";

const ROLES = ["Engineer", "Product designer", "Engineering manager", "Product manager", "SRE", "QA engineer"];
const PLACES = ["London", "Madrid", "Remote", "Berlin", "Tokyo", "New York", "Lagos", "São Paulo"];
const KUDOS = [
  "Thanks for jumping on the incident at 2am 🙏",
  "Great demo on Thursday, the customers loved it",
  "For untangling the billing migration",
  "Best code review comments I've had all year",
  "For covering my on-call shift",
  "Merci for the accessibility fixes!",
];
/** Kudos of the past weeks, a few per weekday: the leaderboard and the kudos page have something to rank. */
const KUDOS_DAYS = 28;

/** Who is away today, and who celebrates this week (days from today). */
export const AWAY_TODAY = DEMO_PEOPLE[6]!;
const BIRTHDAYS: [number, number][] = [
  [3, 2],
  [8, 5],
];
const ANNIVERSARY: [number, number, number] = [5, 4, 3]; // person, days from today, years

/**
 * Profiles (roles, birthdays, start dates), one person away today, and kudos. Profiles are written on every start
 * (an upsert), so the birthdays and the work anniversary always fall in the coming week; the rest only once.
 */
export async function seedPeopleExtras(deps: Deps): Promise<void> {
  await seedCelebrations(deps);
  const today = DateTime.fromISO(await workspaceToday(deps, DEMO_TEAM.id), { zone: "utc" });
  const r = rng(20260303);
  for (const [i, p] of DEMO_PEOPLE.entries()) {
    // Far from this week unless chosen for it: ~two months on, a stable day per person.
    const birthday = today.plus({ days: BIRTHDAYS.find(([n]) => n === i)?.[1] ?? 40 + ((i * 11) % 200) });
    const [who, inDays, years] = ANNIVERSARY;
    // Everyone else's anniversary is 30 to 280 days past: never this week.
    const start =
      i === who
        ? today.plus({ days: inDays }).minus({ years })
        : today.minus({ years: 1 + (i % 6), days: 30 + ((i * 7) % 250) });
    await saveProfile(
      deps,
      DEMO_TEAM.id,
      p.id,
      {
        birth_month: birthday.month,
        birth_day: birthday.day,
        start_date: start.toISODate()!,
        role: ROLES[i % ROLES.length]!,
        location: PLACES[i % PLACES.length]!,
        celebrate: true,
      },
      true,
    );
  }
  if ((await upcomingRanges(deps, DEMO_TEAM.id, AWAY_TODAY.id)).length === 0) {
    const outcome = await setAway(deps, {
      teamId: DEMO_TEAM.id,
      userId: AWAY_TODAY.id,
      by: ADMIN.id,
      startDate: today.toISODate()!,
      endDate: today.plus({ days: 2 }).toISODate()!,
      reason: "Dentist, then a long weekend",
    });
    if (!outcome.ok) throw new Error(`demo: time off refused: ${outcome.error}`);
  }
  // Past kudos straight into the table (as the history is): a service call would post and notify for each.
  // The source key makes each one once, whatever the number of starts.
  for (let back = KUDOS_DAYS; back >= 1; back--) {
    const day = today.minus({ days: back });
    if (day.weekday > 5) continue;
    for (let n = 0; n < 2; n++) {
      const from = pick(r, DEMO_PEOPLE);
      const to = pick(r, DEMO_PEOPLE);
      const message = pick(r, KUDOS);
      if (from.id === to.id) continue;
      await insertKudo(deps.db, {
        teamId: DEMO_TEAM.id,
        fromUser: from.id,
        toUser: to.id,
        message,
        channelId: GENERAL_CHANNEL.id,
        source: "command",
        sourceKey: `cmd:demo-${day.toISODate()}-${n}`,
        givenOn: day.toISODate()!,
        createdAt: day.plus({ hours: 10 + n * 3 }).toJSDate(),
      });
    }
  }
}

/**
 * Celebrations on, posting in #general at 09:00 in the workspace calendar's zone (as it stands), through the
 * settings service as an admin's save would (it joins the channel). Once: a visitor's own changes are kept.
 */
async function seedCelebrations(deps: Deps): Promise<void> {
  const admin = { teamId: DEMO_TEAM.id, userId: ADMIN.id, role: "admin" };
  if ((await readSettings(deps, admin)).channel_id) return;
  const cal = await readCalendar(deps.db, DEMO_TEAM.id);
  await writeSettings(deps, admin, {
    channel_id: GENERAL_CHANNEL.id,
    timezone: cal.timezone,
    working_days: cal.workingDays as ("mon" | "tue" | "wed" | "thu" | "fri" | "sat" | "sun")[],
    post_time: "09:00",
    birthdays: true,
    anniversaries: true,
  });
}
