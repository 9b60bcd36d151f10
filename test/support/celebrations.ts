import type { Db } from "../../src/db/client.ts";
import { profiles } from "../../src/db/schema.ts";
import type { TestApp } from "./app.ts";

/** A profile row as the profiles feature would store it (birthday month/day, start date, celebrate). */
export async function setProfile(
  db: Db,
  teamId: string,
  userId: string,
  p: { birthday?: string; startDate?: string; celebrate?: boolean },
): Promise<void> {
  const [m, d] = p.birthday ? p.birthday.split("-").map(Number) : [null, null];
  const values = {
    teamId,
    userId,
    birthMonth: m ?? null,
    birthDay: d ?? null,
    startDate: p.startDate ?? null,
    celebrate: p.celebrate ?? true,
    updatedAt: new Date(),
  };
  await db
    .insert(profiles)
    .values(values)
    .onConflictDoUpdate({
      target: [profiles.teamId, profiles.userId],
      set: {
        birthMonth: values.birthMonth,
        birthDay: values.birthDay,
        startDate: values.startDate,
        celebrate: values.celebrate,
      },
    });
}

/** Installs a workspace with an admin and a Celebrations channel the bot is in, and saves settings through PUT. */
export async function setUpCelebrations(
  t: TestApp,
  teamId: string,
  opts: {
    channel?: string;
    timezone?: string;
    workingDays?: string[];
    postTime?: string;
    scopes?: string;
    birthdays?: boolean;
    anniversaries?: boolean;
  } = {},
): Promise<{ admin: string; cookie: string; channel: string }> {
  const admin = `U${teamId.slice(1)}ADMIN`;
  const channel = opts.channel ?? `C${teamId.slice(1)}CEL`;
  await t.installTeam(teamId, opts.scopes !== undefined ? { scopes: opts.scopes } : {});
  t.fake.addChannel(teamId, { id: channel, name: "celebrations", members: [admin, `B${teamId.slice(1)}BOT`] });
  const cookie = await t.signIn(teamId, admin);
  const res = await t.inject({
    method: "PUT",
    url: "/dashboard/api/celebrations/settings",
    headers: { cookie, "content-type": "application/json" },
    payload: {
      channel_id: channel,
      timezone: opts.timezone ?? "Europe/Paris",
      working_days: opts.workingDays ?? ["mon", "tue", "wed", "thu", "fri"],
      post_time: opts.postTime ?? "09:00",
      birthdays: opts.birthdays ?? true,
      anniversaries: opts.anniversaries ?? true,
    },
  });
  if (res.statusCode !== 200) throw new Error(`settings not saved: ${res.statusCode} ${res.body}`);
  return { admin, cookie, channel };
}
