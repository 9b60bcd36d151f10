import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import { setProfile, setUpCelebrations } from "../../../test/support/celebrations.ts";
import { createSchedule } from "../../../test/support/factories.ts";
import { rows } from "../../db/client.ts";
import { tick } from "../standups/index.ts";
import { celebrationsTick } from "./celebrations.scheduler.ts";

const API = "/dashboard/api/celebrations";

/**
 * Holidays by who adds them: workspace admins' skip standups and move Celebrations; Celebrations admins (ordinary
 * members the settings name) keep holidays too, as the spec says, but theirs move Celebrations only.
 */
describe("holidays by workspace admins and by Celebrations admins", async () => {
  const t = await useTestApp();
  const TEAM = "T0HOLROLE";
  const CELEB = "U0HOLCELEB";
  const MEMBER = "U0HOLMEMBER";
  t.clock.set("2026-03-01T12:00:00Z");
  const { channel, admin: ADMIN } = await setUpCelebrations(t, TEAM, { timezone: "UTC" });
  t.fake.addChannel(TEAM, { id: "C0HOLSTD", name: "standup", members: ["B0HOLROLEBOT"] });
  for (const u of [CELEB, MEMBER]) {
    await t.addMember(TEAM, u);
    t.fake.addUser(TEAM, { id: u, name: u.toLowerCase(), real_name: u });
  }

  const call = (method: "GET" | "POST" | "PUT" | "DELETE", url: string, cookie: string, payload?: unknown) =>
    t.inject({
      method,
      url,
      headers: { cookie, ...(payload !== undefined ? { "content-type": "application/json" } : {}) },
      ...(payload !== undefined ? { payload: JSON.stringify(payload) } : {}),
    });
  /** Sessions last 30 days: each test signs in again at its own clock. */
  const signInAll = async () => ({
    admin: await t.signIn(TEAM, ADMIN),
    celeb: await t.signIn(TEAM, CELEB),
    member: await t.signIn(TEAM, MEMBER),
  });
  let s = await signInAll();
  const saved = await call("PUT", `${API}/settings`, s.admin, {
    channel_id: channel,
    timezone: "UTC",
    working_days: ["mon", "tue", "wed", "thu", "fri"],
    admins: [CELEB],
  });
  if (saved.statusCode !== 200) throw new Error(`settings not saved: ${saved.body}`);
  const list = async () => (await call("GET", `${API}/holidays`, s.member)).json();
  const clear = () => t.deps.db.execute(sql`delete from holidays where team_id = ${TEAM}`);

  it("a Celebrations admin's holiday is listed as Celebrations only and the standup that day still runs", async () => {
    t.clock.set("2026-03-01T12:00:00Z");
    s = await signInAll();
    const scheduleId = await createSchedule(t.deps.db, t.clock, { teamId: TEAM, channelId: "C0HOLSTD", time: "09:00" });
    const byCeleb = await call("POST", `${API}/holidays`, s.celeb, { date: "2026-03-03", name: "Offsite" });
    expect(byCeleb.statusCode, byCeleb.body).toBe(201);
    expect(byCeleb.json()).toEqual({ date: "2026-03-03", name: "Offsite" });
    const byAdmin = await call("POST", `${API}/holidays`, s.admin, { date: "2026-03-04", name: "Founders' day" });
    expect(byAdmin.statusCode, byAdmin.body).toBe(201);
    expect(await list()).toEqual([
      { date: "2026-03-03", name: "Offsite", skips_standups: false },
      { date: "2026-03-04", name: "Founders' day", skips_standups: true },
    ]);

    for (const at of ["2026-03-02", "2026-03-03", "2026-03-04", "2026-03-05"]) {
      t.clock.set(`${at}T09:00:10Z`);
      await tick(t.deps);
    }
    const runs = await rows<{ local_date: string }>(
      t.deps.db,
      sql`select local_date::text from standup_runs where schedule_id = ${scheduleId} order by local_date`,
    );
    // The Celebrations admin's day (the 3rd) runs; the workspace admin's (the 4th) is skipped.
    expect(runs.map((r) => r.local_date)).toEqual(["2026-03-02", "2026-03-03", "2026-03-05"]);
    // Reports mark only the day standups skipped.
    s = await signInAll();
    const reports = await call("GET", "/dashboard/api/reports?from=2026-03-02&to=2026-03-05", s.member);
    expect(reports.json().holidays).toEqual([{ date: "2026-03-04", name: "Founders' day" }]);
    await t.deps.db.execute(sql`update schedules set active = false where id = ${scheduleId}`);
    await clear();
  });

  it("renaming: a Celebrations admin's keeps whether standups skip it, a workspace admin's makes them skip it", async () => {
    await call("POST", `${API}/holidays`, s.admin, { date: "2026-04-01", name: "Standup day off" });
    await call("POST", `${API}/holidays`, s.celeb, { date: "2026-04-02", name: "Party" });
    const renames: [string, string, string, number][] = [
      [s.celeb, "2026-04-01", "Day off", 200],
      [s.celeb, "2026-04-02", "Big party", 200],
    ];
    for (const [cookie, date, name, status] of renames) {
      const res = await call("POST", `${API}/holidays`, cookie, { date, name });
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json()).toEqual({ date, name });
    }
    expect(await list()).toEqual([
      { date: "2026-04-01", name: "Day off", skips_standups: true },
      { date: "2026-04-02", name: "Big party", skips_standups: false },
    ]);
    // A workspace admin's word makes it a standup holiday, even under the same name.
    expect((await call("POST", `${API}/holidays`, s.admin, { date: "2026-04-02", name: "Big party" })).statusCode).toBe(
      200,
    );
    expect((await list())[1]).toEqual({ date: "2026-04-02", name: "Big party", skips_standups: true });
    await clear();
  });

  it("a Celebrations admin deletes Celebrations-only holidays but not one standups skip (403 Admin required)", async () => {
    await call("POST", `${API}/holidays`, s.admin, { date: "2026-05-01", name: "May Day" });
    await call("POST", `${API}/holidays`, s.celeb, { date: "2026-05-04", name: "Star Wars day" });
    await call("POST", `${API}/holidays`, s.celeb, { date: "2026-05-05", name: "Cinco" });

    const refused = await call("DELETE", `${API}/holidays/2026-05-01`, s.celeb);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ error: "Admin required" });
    const byMember = await call("DELETE", `${API}/holidays/2026-05-04`, s.member);
    expect(byMember.statusCode).toBe(403);
    expect(byMember.json()).toEqual({
      error: "Admin required",
      detail: "Workspace admin or Celebrations admin required",
    });
    expect((await list()).map((h: { date: string }) => h.date)).toEqual(["2026-05-01", "2026-05-04", "2026-05-05"]);

    expect((await call("DELETE", `${API}/holidays/2026-05-04`, s.celeb)).json()).toEqual({ ok: true });
    expect((await call("DELETE", `${API}/holidays/2026-05-04`, s.celeb)).statusCode).toBe(404);
    expect((await call("DELETE", `${API}/holidays/2026-05-06`, s.celeb)).statusCode).toBe(404);
    // A workspace admin removes either kind.
    expect((await call("DELETE", `${API}/holidays/2026-05-05`, s.admin)).statusCode).toBe(200);
    expect((await call("DELETE", `${API}/holidays/2026-05-01`, s.admin)).statusCode).toBe(200);
    expect(await list()).toEqual([]);
  });

  it("imports follow the same rule per row, for each role", async () => {
    await call("POST", `${API}/holidays`, s.admin, { date: "2027-01-01", name: "New Year" });
    await call("POST", `${API}/holidays`, s.celeb, { date: "2027-05-01", name: "May Day" });
    const csv = "date,name\n2027-01-01,New Year's Day\n2027-05-01,May Day\n2027-07-14,Bastille Day\n2027-02-30,Nope\n";
    const preview = await call("POST", `${API}/holidays/import`, s.celeb, { csv });
    expect(preview.statusCode, preview.body).toBe(200);
    const rowsOf = (body: { rows: { date: string; status: string; skips_standups: boolean | null }[] }) =>
      body.rows.map((r) => [r.date, r.status, r.skips_standups]);
    expect(rowsOf(preview.json())).toEqual([
      ["2027-01-01", "renamed", true],
      ["2027-05-01", "unchanged", false],
      ["2027-07-14", "ready", false],
      ["2027-02-30", "invalid", null],
    ]);
    expect(preview.json()).toMatchObject({ preview: true, written: 0 });
    const byCeleb = await call("POST", `${API}/holidays/import`, s.celeb, { csv, preview: false });
    expect(byCeleb.json()).toMatchObject({ ready: 1, renamed: 1, unchanged: 1, invalid: 1, written: 2 });
    expect(await list()).toEqual([
      { date: "2027-01-01", name: "New Year's Day", skips_standups: true },
      { date: "2027-05-01", name: "May Day", skips_standups: false },
      { date: "2027-07-14", name: "Bastille Day", skips_standups: false },
    ]);

    // The same file from a workspace admin makes every row a standup holiday, also the unchanged ones.
    const byAdmin = await call("POST", `${API}/holidays/import`, s.admin, { csv, preview: false });
    expect(rowsOf(byAdmin.json()).slice(0, 3)).toEqual([
      ["2027-01-01", "unchanged", true],
      ["2027-05-01", "unchanged", true],
      ["2027-07-14", "unchanged", true],
    ]);
    expect(byAdmin.json()).toMatchObject({ unchanged: 3, written: 2 });
    expect((await list()).every((h: { skips_standups: boolean }) => h.skips_standups)).toBe(true);
    expect((await call("POST", `${API}/holidays/import`, s.admin, { csv, preview: false })).json().written).toBe(0);
    // A member imports nothing.
    const byMember = await call("POST", `${API}/holidays/import`, s.member, { csv: "date,name\n2027-08-01,X\n" });
    expect(byMember.statusCode).toBe(403);
    await clear();
  });

  it("the Celebrations post moves before both kinds of holiday", async () => {
    t.clock.set("2026-06-01T12:00:00Z");
    s = await signInAll();
    for (const [u, birthday] of [
      ["U0HOLBDAYA", "06-10"], // Wednesday: a Celebrations admin's holiday
      ["U0HOLBDAYB", "06-12"], // Friday: a workspace admin's holiday
    ] as const) {
      await t.addMember(TEAM, u);
      await setProfile(t.deps.db, TEAM, u, { birthday });
    }
    expect((await call("POST", `${API}/holidays`, s.celeb, { date: "2026-06-10", name: "Offsite" })).statusCode).toBe(
      201,
    );
    expect((await call("POST", `${API}/holidays`, s.admin, { date: "2026-06-12", name: "Feast" })).statusCode).toBe(
      201,
    );
    const postsOn = async (date: string) => {
      t.clock.set(`${date}T09:00:10Z`);
      const before = t.fake.messages(channel).length;
      await celebrationsTick(t.deps);
      await t.deps.queue.drain();
      return t.fake
        .messages(channel)
        .slice(before)
        .map((m) => m.text ?? "")
        .join("\n");
    };
    expect(await postsOn("2026-06-09")).toContain("<@U0HOLBDAYA>");
    expect(await postsOn("2026-06-10")).toBe("");
    expect(await postsOn("2026-06-11")).toContain("<@U0HOLBDAYB>");
    expect(await postsOn("2026-06-12")).toBe("");
  });
});
