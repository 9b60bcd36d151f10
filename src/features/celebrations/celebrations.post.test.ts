import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import { setProfile, setUpCelebrations } from "../../../test/support/celebrations.ts";
import { addHoliday } from "../../../test/support/factories.ts";
import { celebrationsTick } from "./celebrations.scheduler.ts";

/** The daily post, driven by the injected clock: what is posted, on which day, once. */
describe("the daily Celebrations post", async () => {
  const t = await useTestApp();
  const TEAM = "T0CELPOST";
  const { channel } = await setUpCelebrations(t, TEAM, { timezone: "Europe/Paris" });
  const people = {
    sat: "U0CELSAT",
    monHoliday: "U0CELMONH",
    one: "U0CELONE",
    ten: "U0CELTEN",
    gone: "U0CELGONE",
    optOut: "U0CELOPT",
    hol: "U0CELHOL",
    dst: "U0CELDST",
  };
  for (const u of Object.values(people)) await t.addMember(TEAM, u);
  await setProfile(t.deps.db, TEAM, people.sat, { birthday: "11-28" }); // Saturday 28 Nov 2026
  await setProfile(t.deps.db, TEAM, people.monHoliday, { birthday: "05-25" }); // Monday 25 May 2026, a holiday
  await setProfile(t.deps.db, TEAM, people.one, { startDate: "2025-06-04" });
  await setProfile(t.deps.db, TEAM, people.ten, { startDate: "2016-06-04" });
  // 4 June 2026 (Thursday): a start on that day this year is no anniversary yet.
  await setProfile(t.deps.db, TEAM, "U0CELNEW", { startDate: "2026-06-04" });
  await t.addMember(TEAM, "U0CELNEW");
  await setProfile(t.deps.db, TEAM, people.gone, { birthday: "11-28" });
  await setProfile(t.deps.db, TEAM, people.optOut, { birthday: "11-28", celebrate: false });
  await setProfile(t.deps.db, TEAM, people.hol, { birthday: "12-25" });
  await setProfile(t.deps.db, TEAM, people.dst, { birthday: "03-30" });
  await t.deps.db.execute(
    `update members set active = false where team_id = '${TEAM}' and user_id = '${people.gone}'` as never,
  );
  await addHoliday(t.deps.db, TEAM, "2026-05-25", "Whit Monday");
  await addHoliday(t.deps.db, TEAM, "2026-12-25", "Christmas");

  const postsOn = async (iso: string) => {
    t.clock.set(iso);
    const before = t.fake.messages(channel).length;
    await celebrationsTick(t.deps);
    await t.deps.queue.drain();
    return t.fake.messages(channel).slice(before);
  };

  it("settings saved after the day's post time post nothing that day: the first post is the next one", async () => {
    const late = "T0CELLATE";
    t.clock.set("2026-11-26T14:00:00Z"); // Thursday, 15:00 in Paris: past 09:00
    const { channel: lateChannel, cookie } = await setUpCelebrations(t, late, { timezone: "Europe/Paris" });
    await t.addMember(late, "U0CELLATEBDAY");
    await setProfile(t.deps.db, late, "U0CELLATEBDAY", { birthday: "11-26" });
    t.clock.set("2026-11-26T14:01:00Z");
    await celebrationsTick(t.deps);
    await t.deps.queue.drain();
    expect(t.fake.messages(lateChannel)).toHaveLength(0);
    // Moving the post time later that day posts at the new time.
    const res = await t.inject({
      method: "PUT",
      url: "/dashboard/api/celebrations/settings",
      headers: { cookie, "content-type": "application/json" },
      payload: {
        channel_id: lateChannel,
        timezone: "Europe/Paris",
        working_days: ["mon", "tue", "wed", "thu", "fri"],
        post_time: "16:00",
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    t.clock.set("2026-11-26T15:00:00Z");
    await celebrationsTick(t.deps);
    await t.deps.queue.drain();
    const posted = t.fake.messages(lateChannel);
    expect(posted).toHaveLength(1);
    expect(posted[0]!.text).toContain("<@U0CELLATEBDAY>");
  });

  it("posts a Saturday birthday on the Friday before, not on Saturday; skips the deactivated and the opted out", async () => {
    expect(await postsOn("2026-11-26T09:00:00Z")).toHaveLength(0); // Thursday: nobody
    const friday = await postsOn("2026-11-27T08:00:00Z"); // 09:00 in Paris
    expect(friday).toHaveLength(1);
    expect(friday[0]!.text).toContain("Happy birthday");
    expect(friday[0]!.text).toContain(`<@${people.sat}>`);
    expect(friday[0]!.text).toContain("Saturday");
    expect(friday[0]!.text).not.toContain(people.gone);
    expect(friday[0]!.text).not.toContain(people.optOut);
    expect(await postsOn("2026-11-28T09:00:00Z")).toHaveLength(0); // Saturday itself: nothing
    expect(await postsOn("2026-11-27T15:00:00Z")).toHaveLength(0); // later ticks of Friday: nothing more
  });

  it("posts a birthday on a Monday holiday on the Friday before", async () => {
    const friday = await postsOn("2026-05-22T08:30:00Z");
    expect(friday).toHaveLength(1);
    expect(friday[0]!.text).toContain(`<@${people.monHoliday}>`);
    expect(await postsOn("2026-05-25T08:30:00Z")).toHaveLength(0);
  });

  it("posts nothing on a holiday; a birthday on it goes out the working day before", async () => {
    const thursday = await postsOn("2026-12-24T08:30:00Z");
    expect(thursday.map((m) => m.text).join()).toContain(`<@${people.hol}>`);
    expect(await postsOn("2026-12-25T08:30:00Z")).toHaveLength(0);
    const claims = await t.deps.db.execute(
      `select count(*)::int as n from celebration_posts where team_id = '${TEAM}' and post_date = '2026-12-25'` as never,
    );
    expect((claims as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(0);
  });

  it("celebrates anniversaries of 1 and 10 whole years in one post, with the 🎉 reaction", async () => {
    const posts = await postsOn("2026-06-04T08:00:00Z");
    expect(posts).toHaveLength(1);
    expect(posts[0]!.text).toContain("anniversary");
    expect(posts[0]!.text).toContain(`<@${people.one}>: 1 year`);
    expect(posts[0]!.text).toContain(`<@${people.ten}>: 10 years`);
    expect(posts[0]!.text).not.toContain("U0CELNEW");
    expect(posts[0]!.reactions.map((r) => r.name)).toEqual(["tada"]);
  });

  it("posts at post_time in the calendar zone across the DST change", async () => {
    // Friday 27 March 2026, Paris on UTC+1: 09:00 is 08:00Z. Monday 30 March, UTC+2: 09:00 is 07:00Z.
    await setProfile(t.deps.db, TEAM, "U0CELMAR", { birthday: "03-27" });
    await t.addMember(TEAM, "U0CELMAR");
    expect(await postsOn("2026-03-27T07:59:00Z")).toHaveLength(0);
    expect(await postsOn("2026-03-27T08:00:00Z")).toHaveLength(1);
    expect(await postsOn("2026-03-30T06:59:00Z")).toHaveLength(0);
    const monday = await postsOn("2026-03-30T07:00:00Z");
    expect(monday).toHaveLength(1);
    expect(monday[0]!.text).toContain(`<@${people.dst}>`);
  });
});

describe("29 February birthdays", async () => {
  const t = await useTestApp();
  const TEAM = "T0CELLEAP";
  const { channel } = await setUpCelebrations(t, TEAM, {
    timezone: "UTC",
    workingDays: ["mon", "tue", "wed", "thu", "fri", "sat", "sun"],
  });
  await t.addMember(TEAM, "U0LEAP");
  await setProfile(t.deps.db, TEAM, "U0LEAP", { birthday: "02-29" });

  const postsOn = async (iso: string) => {
    t.clock.set(iso);
    const before = t.fake.messages(channel).length;
    await celebrationsTick(t.deps);
    await t.deps.queue.drain();
    return t.fake.messages(channel).slice(before);
  };

  it("are celebrated on 28 February in 2027 and on 29 February in 2028", async () => {
    expect(await postsOn("2027-02-27T10:00:00Z")).toHaveLength(0);
    expect((await postsOn("2027-02-28T10:00:00Z"))[0]?.text).toContain("<@U0LEAP>");
    expect(await postsOn("2027-03-01T10:00:00Z")).toHaveLength(0);
    expect(await postsOn("2028-02-28T10:00:00Z")).toHaveLength(0);
    expect((await postsOn("2028-02-29T10:00:00Z"))[0]?.text).toContain("<@U0LEAP>");
  });
});

describe("the reaction needs the scope", async () => {
  const t = await useTestApp();
  const TEAM = "T0CELNORX";
  const { channel, cookie } = await setUpCelebrations(t, TEAM, {
    timezone: "UTC",
    scopes: "channels:history,channels:join,channels:read,chat:write,commands,groups:read,im:write",
  });
  await t.addMember(TEAM, "U0NORX");
  await setProfile(t.deps.db, TEAM, "U0NORX", { birthday: "06-03" });

  it("posts without 🎉 when reactions:write was not granted, and says so in can_react", async () => {
    const settings = await t.inject({
      method: "GET",
      url: "/dashboard/api/celebrations/settings",
      headers: { cookie },
    });
    expect(settings.json().can_react).toBe(false);
    t.clock.set("2026-06-03T10:00:00Z");
    await celebrationsTick(t.deps);
    await t.deps.queue.drain();
    const posts = t.fake.messages(channel);
    expect(posts).toHaveLength(1);
    expect(posts[0]!.reactions).toEqual([]);
    expect(t.fake.callsTo("reactions.add")).toHaveLength(0);
  });
});

describe("kinds switched off", async () => {
  const t = await useTestApp();
  const TEAM = "T0CELOFF";
  const { channel } = await setUpCelebrations(t, TEAM, { timezone: "UTC", birthdays: false });
  await t.addMember(TEAM, "U0OFF");
  await setProfile(t.deps.db, TEAM, "U0OFF", { birthday: "06-03", startDate: "2020-06-03" });

  it("posts only the kinds that are on", async () => {
    t.clock.set("2026-06-03T10:00:00Z");
    await celebrationsTick(t.deps);
    await t.deps.queue.drain();
    const posts = t.fake.messages(channel);
    expect(posts).toHaveLength(1);
    expect(posts[0]!.text).toContain("<@U0OFF>: 6 years");
    expect(posts[0]!.text).not.toContain("birthday");
  });
});
