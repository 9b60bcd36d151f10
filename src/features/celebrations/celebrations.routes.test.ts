import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import { setProfile } from "../../../test/support/celebrations.ts";
import { createSchedule } from "../../../test/support/factories.ts";
import { rows } from "../../db/client.ts";
import { tick } from "../standups/index.ts";

const API = "/dashboard/api/celebrations";

describe("Celebrations endpoints", async () => {
  const t = await useTestApp();
  const TEAM = "T0CELAPI";
  const OTHER = "T0CELOTH";
  const ADMIN = "U0CELAPIADMIN";
  const MEMBER = "U0CELMEM";
  const CELEB = "U0CELCEL";
  await t.installTeam(TEAM);
  t.fake.addChannel(TEAM, { id: "C0CELAPI", name: "celebrations", members: [ADMIN, "B0CELAPIBOT"] });
  t.fake.addChannel(TEAM, { id: "C0CELPUB", name: "random", members: [ADMIN] });
  t.fake.addChannel(TEAM, { id: "C0CELSTD", name: "standup", members: ["B0CELAPIBOT"] });
  const person = async (u: string) => {
    await t.addMember(TEAM, u);
    t.fake.addUser(TEAM, { id: u, name: u.toLowerCase(), real_name: u });
  };
  for (const u of [ADMIN, MEMBER, CELEB]) t.fake.addUser(TEAM, { id: u, name: u.toLowerCase(), real_name: u });
  await t.addMember(TEAM, MEMBER);
  await t.addMember(TEAM, CELEB);
  await t.installTeam(OTHER);
  t.fake.addChannel(OTHER, { id: "C0CELOTH", name: "celebrations", members: ["B0CELOTHBOT"] });
  let admin = await t.signIn(TEAM, ADMIN);
  let member = await t.signIn(TEAM, MEMBER);
  let celeb = await t.signIn(TEAM, CELEB);
  let otherAdmin = await t.signIn(OTHER, "U0CELOTHADMIN");
  /** The clock moved past the sessions' 30 days: sign everyone in again. */
  const signInAgain = async () => {
    admin = await t.signIn(TEAM, ADMIN);
    member = await t.signIn(TEAM, MEMBER);
    celeb = await t.signIn(TEAM, CELEB);
    otherAdmin = await t.signIn(OTHER, "U0CELOTHADMIN");
  };

  const call = (method: "GET" | "PUT" | "POST" | "DELETE", url: string, cookie?: string, payload?: unknown) =>
    t.inject({
      method,
      url,
      headers: {
        ...(cookie ? { cookie } : {}),
        ...(payload !== undefined ? { "content-type": "application/json" } : {}),
      },
      ...(payload !== undefined ? { payload: typeof payload === "string" ? payload : JSON.stringify(payload) } : {}),
    });
  const valid = { channel_id: "C0CELAPI", timezone: "Europe/Paris", working_days: ["mon", "tue", "wed", "thu", "fri"] };

  /** Every change, and what only admins read: a workspace admin or a Celebrations admin (the spec's "admins"). */
  const managed: ["PUT" | "POST" | "DELETE" | "GET", string, unknown][] = [
    ["PUT", `${API}/settings`, valid],
    ["POST", `${API}/holidays`, { date: "2026-12-24", name: "Eve" }],
    ["DELETE", `${API}/holidays/2026-12-24`, undefined],
    ["POST", `${API}/holidays/import`, { csv: "date,name\n2026-12-24,Eve\n", preview: false }],
    ["GET", `${API}/upcoming`, undefined],
    ["GET", `${API}/ask-dates`, undefined],
    ["POST", `${API}/ask-dates`, undefined],
  ];

  it("answers GET settings with the defaults before anything is saved", async () => {
    const res = await call("GET", `${API}/settings`, member);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      channel_id: null,
      timezone: "UTC",
      post_time: "09:00",
      birthdays: true,
      anniversaries: true,
      working_days: ["mon", "tue", "wed", "thu", "fri"],
      admins: [],
      can_react: true,
      can_manage: false,
    });
  });

  it("answers 401 without a session on every route", async () => {
    for (const [method, url, body] of [...managed, ["GET", `${API}/settings`, undefined] as const]) {
      const res = await call(method, url, undefined, body);
      expect(res.statusCode, `${method} ${url}`).toBe(401);
    }
    expect((await call("GET", `${API}/holidays`)).statusCode).toBe(401);
  });

  it("answers 403 to a member on every change, even with a malformed body, and lets members read", async () => {
    for (const [method, url, body] of managed) {
      const res = await call(method, url, member, body);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json()).toEqual({ error: "Admin required", detail: "Workspace admin or Celebrations admin required" });
    }
    // Nothing was written by the refused calls.
    expect((await call("GET", `${API}/holidays`, member)).json()).toEqual([]);
    expect((await call("PUT", `${API}/settings`, member, "{not json")).statusCode).toBe(403);
    expect((await call("GET", `${API}/settings`, member)).statusCode).toBe(200);
    expect((await call("GET", `${API}/holidays`, member)).statusCode).toBe(200);
  });

  it("rejects bad settings with 400 naming the field", async () => {
    const cases: [unknown, RegExp][] = [
      ["{not json", /.+/],
      [[], /JSON object/],
      [{ ...valid, channel_id: undefined }, /channel_id is required/],
      [{ ...valid, timezone: undefined }, /timezone is required/],
      [{ ...valid, working_days: undefined }, /working_days is required/],
      [{ ...valid, channel_id: 42 }, /channel_id/],
      [{ ...valid, timezone: "Mars/Olympus" }, /timezone must be an IANA timezone/],
      [{ ...valid, working_days: [] }, /working_days must list at least one day/],
      [{ ...valid, working_days: ["monday"] }, /working_days.*mon, tue, wed, thu, fri, sat, sun/],
      [{ ...valid, working_days: ["mon", "mon"] }, /at most once/],
      [{ ...valid, post_time: "9am" }, /post_time must be a time as HH:MM/],
      [{ ...valid, post_time: "24:00" }, /post_time/],
      [{ ...valid, birthdays: "yes" }, /birthdays must be true or false/],
      [{ ...valid, admins: "U0CELCEL" }, /admins must be an array/],
      [{ ...valid, admins: ["U0NOSUCH"] }, /admins\[0\]: no such member/],
      [{ ...valid, channel_id: "C0CELOTH" }, /channel_id: no such channel/],
    ];
    for (const [body, message] of cases) {
      const res = await call("PUT", `${API}/settings`, admin, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error, JSON.stringify(body)).toMatch(message);
    }
  });

  it("PUT /calendar saves the zone and working days without a Celebrations channel, and starts no posts", async () => {
    expect(
      (await call("PUT", "/dashboard/api/calendar", member, { timezone: "Asia/Tokyo", working_days: ["mon"] }))
        .statusCode,
    ).toBe(403);
    expect(
      (await call("PUT", "/dashboard/api/calendar", undefined, { timezone: "Asia/Tokyo", working_days: ["mon"] }))
        .statusCode,
    ).toBe(401);
    const bad = await call("PUT", "/dashboard/api/calendar", admin, {
      timezone: "Mars/Olympus",
      working_days: ["mon"],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe("timezone must be an IANA timezone such as Europe/Paris");
    const noDays = await call("PUT", "/dashboard/api/calendar", admin, { timezone: "Asia/Tokyo", working_days: [] });
    expect(noDays.json().error).toMatch(/^working_days must list at least one day/);
    const res = await call("PUT", "/dashboard/api/calendar", admin, {
      timezone: "Asia/Tokyo",
      working_days: ["sat", "mon", "tue", "wed", "thu"],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ timezone: "Asia/Tokyo", working_days: ["mon", "tue", "wed", "thu", "sat"] });
    expect((await call("GET", `${API}/settings`, member)).json()).toMatchObject({
      channel_id: null,
      timezone: "Asia/Tokyo",
      working_days: ["mon", "tue", "wed", "thu", "sat"],
    });
    const [stored] = await rows<{ n: number }>(
      t.deps.db,
      sql`select count(*)::int as n from celebration_settings where team_id = ${TEAM}`,
    );
    expect(stored!.n).toBe(0);
    await call("PUT", "/dashboard/api/calendar", admin, {
      timezone: "UTC",
      working_days: ["mon", "tue", "wed", "thu", "fri"],
    });
  });

  it("409s ask-dates until a channel and a timezone are saved", async () => {
    const res = await call("POST", `${API}/ask-dates`, admin);
    expect(res.statusCode).toBe(409);
    expect(t.fake.callsTo("chat.postMessage")).toHaveLength(0);
  });

  it("saves settings (joining the channel), then a Celebrations admin may change them", async () => {
    const res = await call("PUT", `${API}/settings`, admin, {
      channel_id: "C0CELPUB",
      timezone: "America/New_York",
      working_days: ["sun", "mon", "tue"],
      post_time: "10:30",
      birthdays: false,
      admins: [CELEB],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      channel_id: "C0CELPUB",
      timezone: "America/New_York",
      working_days: ["mon", "tue", "sun"],
      post_time: "10:30",
      birthdays: false,
      anniversaries: true,
      admins: [CELEB],
      can_manage: true,
    });
    expect(t.fake.channelMembers(TEAM, "C0CELPUB")).toContain("B0CELAPIBOT");
    // The Celebrations admin changes them; omitted optional fields keep their values.
    const byCeleb = await call("PUT", `${API}/settings`, celeb, valid);
    expect(byCeleb.statusCode, byCeleb.body).toBe(200);
    expect(byCeleb.json()).toMatchObject({ ...valid, post_time: "10:30", birthdays: false, admins: [CELEB] });
    expect((await call("GET", `${API}/settings`, member)).json()).toMatchObject({ ...valid, can_manage: false });
    // Another workspace sees its own (default) settings.
    expect((await call("GET", `${API}/settings`, otherAdmin)).json().channel_id).toBeNull();
    // Who may read everyone's birthdays is a workspace admin's decision, not a Celebrations admin's.
    const grant = await call("PUT", `${API}/settings`, celeb, { ...valid, admins: [CELEB, MEMBER] });
    expect(grant.statusCode).toBe(403);
    expect(grant.json()).toEqual({
      error: "Admin required",
      detail: "admins: only a workspace admin can change who the Celebrations admins are",
    });
    // Two saves at once, each leaving out what the other changes, both count.
    const [a, b] = await Promise.all([
      call("PUT", `${API}/settings`, admin, { ...valid, post_time: "08:15" }),
      call("PUT", `${API}/settings`, admin, { ...valid, anniversaries: false }),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect((await call("GET", `${API}/settings`, member)).json()).toMatchObject({
      post_time: "08:15",
      anniversaries: false,
    });
    await call("PUT", `${API}/settings`, admin, { ...valid, post_time: "10:30", anniversaries: true });
  });

  it("adds, renames, lists and deletes holidays; another workspace's are 404", async () => {
    const add = await call("POST", `${API}/holidays`, admin, { date: "2026-12-24", name: "Christmas Eve" });
    expect(add.statusCode).toBe(201);
    expect(add.json()).toEqual({ date: "2026-12-24", name: "Christmas Eve" });
    const rename = await call("POST", `${API}/holidays`, admin, { date: "2026-12-24", name: "Eve" });
    expect(rename.statusCode).toBe(200);
    expect((await call("GET", `${API}/holidays`, member)).json()).toEqual([
      { date: "2026-12-24", name: "Eve", skips_standups: true },
    ]);
    expect((await call("GET", `${API}/holidays`, otherAdmin)).json()).toEqual([]);
    expect((await call("DELETE", `${API}/holidays/2026-12-24`, otherAdmin)).statusCode).toBe(404);
    for (const [body, message] of [
      [{ date: "2026-02-30", name: "x" }, /date must be a real date/],
      [{ name: "x" }, /date is required/],
      [{ date: "2026-12-01", name: "" }, /name must not be empty/],
      [{ date: "2026-12-01", name: 5 }, /name must be/],
      [{ date: "2026-12-01", name: "x".repeat(101) }, /at most 100/],
      ["[1,", /.+/],
    ] as const) {
      const res = await call("POST", `${API}/holidays`, admin, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error).toMatch(message);
    }
    expect((await call("DELETE", `${API}/holidays/not-a-date`, admin)).statusCode).toBe(400);
    expect((await call("DELETE", `${API}/holidays/2026-12-24`, admin)).json()).toEqual({ ok: true });
    expect((await call("DELETE", `${API}/holidays/2026-12-24`, admin)).statusCode).toBe(404);
  });

  it("imports holidays from CSV: BOM, CRLF, quoted commas, each status, preview first", async () => {
    await call("POST", `${API}/holidays`, admin, { date: "2027-01-01", name: "New Year" });
    await call("POST", `${API}/holidays`, admin, { date: "2027-05-01", name: "May Day" });
    const csv =
      "\uFEFFdate,name\r\n" +
      '2027-12-25,"Christmas, the day"\r\n' +
      "2027-01-01,New Year\r\n" +
      "2027-05-01,Labour Day\r\n" +
      "2027-02-30,Nope\r\n" +
      "2027-12-25,Again\r\n" +
      "2027-07-14,\r\n";
    const preview = await call("POST", `${API}/holidays/import`, admin, { csv });
    expect(preview.statusCode, preview.body).toBe(200);
    const body = preview.json();
    expect(body).toMatchObject({ preview: true, ready: 1, renamed: 1, unchanged: 1, invalid: 3, written: 0 });
    expect(body.rows.map((r: { line: number; status: string }) => [r.line, r.status])).toEqual([
      [2, "ready"],
      [3, "unchanged"],
      [4, "renamed"],
      [5, "invalid"],
      [6, "invalid"],
      [7, "invalid"],
    ]);
    expect(body.rows[0].name).toBe("Christmas, the day");
    expect(body.rows[4].error).toMatch(/repeats line 2/);
    expect((await call("GET", `${API}/holidays`, member)).json()).toHaveLength(2);
    const saved = await call("POST", `${API}/holidays/import`, admin, { csv, preview: false });
    expect(saved.json()).toMatchObject({ preview: false, written: 2 });
    expect((await call("GET", `${API}/holidays`, member)).json()).toEqual([
      { date: "2027-01-01", name: "New Year", skips_standups: true },
      { date: "2027-05-01", name: "Labour Day", skips_standups: true },
      { date: "2027-12-25", name: "Christmas, the day", skips_standups: true },
    ]);
  });

  it("refuses imports over 5,000 rows, without the header, and of the wrong types", async () => {
    const rowsCsv = (n: number) =>
      `date,name\n${Array.from({ length: n }, (_, i) => `${2030 + Math.floor(i / 365)}-01-01,Day ${i}`).join("\n")}`;
    const big = await call("POST", `${API}/holidays/import`, admin, { csv: rowsCsv(5_001) });
    expect(big.statusCode).toBe(400);
    expect(big.json().error).toMatch(/at most 5000 rows/);
    expect((await call("POST", `${API}/holidays/import`, admin, { csv: rowsCsv(5_000) })).statusCode).toBe(200);
    const noHeader = await call("POST", `${API}/holidays/import`, admin, { csv: "2027-01-01,New Year\n" });
    expect(noHeader.json().error).toMatch(/header date,name/);
    expect((await call("POST", `${API}/holidays/import`, admin, { csv: 5 })).statusCode).toBe(400);
    expect(
      (await call("POST", `${API}/holidays/import`, admin, { csv: "date,name\n", preview: "no" })).json().error,
    ).toMatch(/preview must be true or false/);
  });

  it("a holiday added here skips that day's standup", async () => {
    const scheduleId = await createSchedule(t.deps.db, t.clock, { teamId: TEAM, channelId: "C0CELSTD", time: "09:00" });
    expect(
      (await call("POST", `${API}/holidays`, admin, { date: "2026-03-03", name: "Founders' day" })).statusCode,
    ).toBe(201);
    for (const at of ["2026-03-02T09:00:10Z", "2026-03-03T09:00:10Z", "2026-03-04T09:00:10Z"]) {
      t.clock.set(at);
      await tick(t.deps);
    }
    const runs = await rows<{ local_date: string }>(
      t.deps.db,
      sql`select local_date::text from standup_runs where schedule_id = ${scheduleId} order by local_date`,
    );
    expect(runs.map((r) => r.local_date)).toEqual(["2026-03-02", "2026-03-04"]);
    // Reports show the day as a holiday.
    const reports = await call("GET", "/dashboard/api/reports?from=2026-03-02&to=2026-03-04", member);
    expect(reports.json().holidays).toEqual([{ date: "2026-03-03", name: "Founders' day" }]);
    // Deleting it brings the day back for a schedule that runs later.
    expect((await call("DELETE", `${API}/holidays/2026-03-03`, admin)).statusCode).toBe(200);
  });

  it("lists upcoming celebrations by real name (as every page names people) with the real date and the posting day", async () => {
    // Paris, Monday to Friday; today is Thursday 2026-06-04.
    t.clock.set("2026-06-04T12:00:00Z");
    await signInAgain();
    await call("PUT", `${API}/settings`, admin, { ...valid, birthdays: true, anniversaries: true });
    await person("U0UPSAT");
    await setProfile(t.deps.db, TEAM, "U0UPSAT", { birthday: "06-06", startDate: "2024-06-10" });
    await person("U0UPOUT");
    await setProfile(t.deps.db, TEAM, "U0UPOUT", { birthday: "06-06", celebrate: false });
    await person("U0UPFAR");
    await setProfile(t.deps.db, TEAM, "U0UPFAR", { birthday: "07-05" });
    const res = await call("GET", `${API}/upcoming`, celeb);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      {
        user_id: "U0UPSAT",
        name: "Person U0UPSAT",
        kind: "birthday",
        years: null,
        date: "2026-06-06",
        post_date: "2026-06-05",
        post_status: "planned",
      },
      {
        user_id: "U0UPSAT",
        name: "Person U0UPSAT",
        kind: "anniversary",
        years: 2,
        date: "2026-06-10",
        post_date: "2026-06-10",
        post_status: "planned",
      },
    ]);
    expect((await call("GET", `${API}/upcoming`, otherAdmin)).json()).toEqual([]);
  });

  it("asks people missing dates once per 30 days, with the profile button", async () => {
    const preview = await call("GET", `${API}/ask-dates`, admin);
    expect(preview.statusCode).toBe(200);
    const { count, text } = preview.json();
    // Everyone active but U0UPSAT (both dates) and U0UPOUT (opted out): the admin, the member, the Celebrations
    // admin and U0UPFAR (no start date).
    expect(count).toBe(4);
    expect(text).toContain("<#C0CELAPI>");
    expect(t.fake.callsTo("chat.postMessage").filter((c) => String(c.args.channel).startsWith("D"))).toHaveLength(0);

    const [a, b] = await Promise.all([
      call("POST", `${API}/ask-dates`, admin),
      call("POST", `${API}/ask-dates`, celeb),
    ]);
    expect(a.json().sent + b.json().sent).toBe(4);
    await t.deps.queue.drain();
    for (const u of [ADMIN, MEMBER, CELEB, "U0UPFAR"]) {
      const dm = t.fake.messages(t.fake.dmFor(TEAM, u));
      expect(dm, u).toHaveLength(1);
      expect(JSON.stringify(dm[0]!.blocks)).toContain('"action_id":"open_profile_modal"');
    }
    expect(t.fake.messages(t.fake.dmFor(TEAM, "U0UPSAT"))).toHaveLength(0);

    t.clock.set("2026-07-03T12:00:00Z"); // 29 days later
    await signInAgain();
    expect((await call("GET", `${API}/ask-dates`, admin)).json().count).toBe(0);
    expect((await call("POST", `${API}/ask-dates`, admin)).json()).toEqual({ sent: 0 });
    t.clock.set("2026-07-04T12:00:01Z"); // 30 days later
    await signInAgain();
    expect((await call("POST", `${API}/ask-dates`, admin)).json()).toEqual({ sent: 4 });
    await t.deps.queue.drain();
    expect(t.fake.messages(t.fake.dmFor(TEAM, MEMBER))).toHaveLength(2);
  });
});
