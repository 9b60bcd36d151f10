import { and, eq, isNull } from "drizzle-orm";
import { DateTime } from "luxon";
import type { FakeSlack } from "../dev/fake-slack/index.ts";
import { findInstallation, upsertInstallation } from "../src/chat/installations.repo.ts";
import { standupRuns } from "../src/db/schema.ts";
import type { Deps } from "../src/deps.ts";
import { upsertPeople } from "../src/features/members/index.ts";
import {
  listScheduleRows,
  runStartFor,
  type ScheduleRow,
  scheduleCreateInput,
  storeSchedule,
} from "../src/features/schedules/index.ts";
import { importHistory, openBlockersFromHistory, type PastRun } from "../src/features/standups/index.ts";
import { encryptSecret } from "../src/lib/crypto.ts";
import {
  ADMIN,
  BLOCKERS_NONE,
  BLOCKERS_REAL,
  DEMO_BOT,
  DEMO_CHANNELS,
  DEMO_PEOPLE,
  DEMO_TEAM,
  DEPARTED,
  type DemoPerson,
  MOOD_WEIGHTS,
  PLATFORM_CHANNEL,
  PRODUCT_CHANNEL,
  pick,
  pickWeighted,
  rng,
  TODAY,
  teamOf,
  YESTERDAY,
} from "./people.ts";
import { seedPeopleExtras } from "./seed-people.ts";

const HISTORY_DAYS = 42;
export const PRODUCT_STANDUP = "Product team standup";
export const PLATFORM_STANDUP = "Platform standup";
/** Who leaves the last product run unanswered, so its participation is below the demo rule's threshold. */
const SILENT_ON_LAST_RUN = 4;

/** The simulated Slack side lives in memory: it is rebuilt, identically, at every start. */
export function populateFakeSlack(fake: FakeSlack): void {
  fake.addTeam({
    id: DEMO_TEAM.id,
    name: DEMO_TEAM.name,
    domain: DEMO_TEAM.domain,
    botToken: DEMO_BOT.token,
    botUserId: DEMO_BOT.userId,
  });
  for (const p of DEMO_PEOPLE) {
    fake.addUser(DEMO_TEAM.id, {
      id: p.id,
      name: p.name,
      real_name: p.realName,
      email: `${p.name}@northwind.example`,
      tz: p.tz,
      ...(p.admin ? { is_admin: true } : {}),
      ...(p === DEPARTED ? { deleted: true } : {}),
    });
  }
  const membersOf = (id: string) =>
    id === PRODUCT_CHANNEL.id ? teamOf("product") : id === PLATFORM_CHANNEL.id ? teamOf("platform") : DEMO_PEOPLE;
  for (const c of DEMO_CHANNELS) {
    // The admin sits in both team channels, as a team lead over both would.
    const people = new Set([ADMIN, ...membersOf(c.id)].filter((p) => p !== DEPARTED).map((p) => p.id));
    fake.addChannel(DEMO_TEAM.id, { id: c.id, name: c.name, members: [...people, DEMO_BOT.userId] });
  }
}

/**
 * Installation, members, the two teams' standups and six weeks of their answers, then profiles, time off and
 * kudos. Idempotent: each part is looked up before it is made, so a second start (or a second call) adds nothing;
 * the dated parts (birthdays this week, someone away today) are moved to the current week on every start.
 */
export async function seedDemo(deps: Deps): Promise<void> {
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    if (!(await findInstallation(tx, DEMO_TEAM.id))) {
      await upsertInstallation(
        tx,
        {
          teamId: DEMO_TEAM.id,
          teamName: DEMO_TEAM.name,
          botUserId: DEMO_BOT.userId,
          botTokenEnc: encryptSecret(deps.keys.tokenEncryption, DEMO_BOT.token),
          scopes: "chat:write,commands,reactions:write,users:read,channels:read",
          installerUserId: ADMIN.id,
        },
        now,
      );
    }
    const people = DEMO_PEOPLE.map((p) => ({
      userId: p.id,
      realName: p.realName,
      displayName: p.name,
      email: `${p.name}@northwind.example`,
      tz: p.tz,
      active: true,
      slackAdmin: Boolean(p.admin),
    }));
    // The departed person worked here first: a deactivated person is only ever stored as someone known before.
    await upsertPeople(tx, DEMO_TEAM.id, people, now);
    await upsertPeople(
      tx,
      DEMO_TEAM.id,
      people.filter((p) => p.userId === DEPARTED.id).map((p) => ({ ...p, active: false })),
      now,
    );
    const existing = await listScheduleRows({ db: tx }, DEMO_TEAM.id);
    const named = (name: string) => existing.find((s) => s.name === name);
    if (!named(PRODUCT_STANDUP)) {
      // 09:30 in London every weekday, run by the scheduler like any standup; whatever the hour the demo starts,
      // today's run is opened at start (openTodaysRuns in seed-live.ts), so the visitor sees it live.
      const product = await storeSchedule(
        { db: tx, clock: deps.clock },
        DEMO_TEAM.id,
        scheduleCreateInput.parse({
          channel_id: PRODUCT_CHANNEL.id,
          name: PRODUCT_STANDUP,
          schedule_time: "09:30",
          schedule_tz: "Europe/London",
        }),
      );
      await importHistory(tx, DEMO_TEAM.id, pastRuns(product, teamOf("product"), now, 20260301));
      // importHistory stores closed runs: the last one is reopened (already past its close) for the scheduler.
      await tx
        .update(standupRuns)
        .set({ status: "open", closedAt: null })
        .where(
          and(
            eq(standupRuns.teamId, DEMO_TEAM.id),
            eq(standupRuns.scheduleId, product.id),
            isNull(standupRuns.closedAt),
          ),
        );
    }
    if (!named(PLATFORM_STANDUP)) {
      // Asks each person at 09:30 in their own Slack timezone: the platform team spans Auckland to Los Angeles.
      const platform = await storeSchedule(
        { db: tx, clock: deps.clock },
        DEMO_TEAM.id,
        scheduleCreateInput.parse({
          channel_id: PLATFORM_CHANNEL.id,
          name: PLATFORM_STANDUP,
          schedule_time: "09:30",
          ask_in_member_timezone: true,
        }),
      );
      await importHistory(tx, DEMO_TEAM.id, pastRuns(platform, teamOf("platform"), now, 20260302));
    }
    // Blockers still reported at the end of the history are open items on the Blockers page, with their age.
    await openBlockersFromHistory(tx, DEMO_TEAM.id);
  });
  await seedPeopleExtras(deps);
}

/**
 * The standup's weekdays before today, each closed the next midnight, ~82% answered. The product standup's last
 * one is left for the scheduler to close at the demo's first start: closing it is what fires the demo's rule and
 * sends the webhook's `standup.completed`, through the product's own path.
 */
function* pastRuns(s: ScheduleRow, people: DemoPerson[], now: Date, seed: number): Generator<PastRun> {
  const r = rng(seed);
  const timing = { time: s.scheduleTime, tz: s.scheduleTz };
  const today = DateTime.fromJSDate(now, { zone: timing.tz }).startOf("day");
  const days: DateTime[] = [];
  for (let back = HISTORY_DAYS; back >= 1; back--) {
    const day = today.minus({ days: back });
    if (day.weekday <= 5) days.push(day);
  }
  for (const [i, day] of days.entries()) {
    const last = i === days.length - 1 && s.name === PRODUCT_STANDUP;
    const date = day.toISODate()!;
    const startsAt = runStartFor(timing, date).toJSDate();
    const closedAt = day.plus({ days: 1 }).toJSDate();
    const answered = new Set(
      people.filter((p, n) => (last ? n >= SILENT_ON_LAST_RUN && !p.admin : r() < 0.82)).map((p) => p.id),
    );
    yield {
      scheduleId: s.id,
      channelId: s.channelId,
      localDate: date,
      questions: s.questions,
      scheduleTz: timing.tz,
      startsAt,
      remindAt: new Date(startsAt.getTime() + 2 * 3600_000),
      closesAt: last ? new Date(Math.min(closedAt.getTime(), now.getTime() - 60_000)) : closedAt,
      closedAt: last ? null : closedAt,
      parentTs: `${Math.floor(startsAt.getTime() / 1000)}.000100`,
      asked: people.map((p) => {
        if (!answered.has(p.id)) return { userId: p.id };
        const blockers = r() < 0.12 ? pick(r, BLOCKERS_REAL) : pick(r, BLOCKERS_NONE);
        const answers = [pick(r, YESTERDAY), pick(r, TODAY), blockers];
        const mood = pickWeighted(r, MOOD_WEIGHTS);
        const submittedAt = new Date(startsAt.getTime() + Math.floor(r() * 3 * 3600_000));
        return { userId: p.id, answer: { answers, mood, submittedAt } };
      }),
    };
  }
}
