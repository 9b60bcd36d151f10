import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { type TestApp, useTestApp } from "../../../test/support/app.ts";
import { rows } from "../../db/client.ts";
import { upsertPeople } from "../members/index.ts";
import { membersMissingDates, profilesForCelebration } from "./index.ts";

const TEAM = "T0PROF";
const OTHER = "T0PROFOTHER";
const ADMIN = "U0PROFADMIN";
const MEMBER = "U0PROFMEM";
const SECOND = "U0PROFSECOND";
const GONE = "U0PROFGONE";
const OTHER_MEMBER = "U0PROFOTHERMEM";

type Res = { statusCode: number; json(): unknown; body: string };

function expectError(res: Res, status: number): string {
  expect(res.statusCode, res.body).toBe(status);
  const body = res.json() as Record<string, unknown>;
  expect(Object.keys(body)).toEqual(["error"]);
  return String(body.error);
}

describe("profiles API", async () => {
  const t: TestApp = await useTestApp();
  await t.installTeam(TEAM, { installer: ADMIN });
  await t.installTeam(OTHER);
  await t.addMember(TEAM, MEMBER, { realName: "Mia Member" });
  await t.addMember(TEAM, SECOND, { realName: "Sam Second" });
  await t.addMember(OTHER, OTHER_MEMBER);
  await upsertPeople(
    t.deps.db,
    TEAM,
    [
      {
        userId: GONE,
        realName: "Gone",
        displayName: "gone",
        email: "gone@example.com",
        tz: "UTC",
        active: false,
        slackAdmin: false,
      },
    ],
    t.clock.now(),
  );
  const admin = await t.signIn(TEAM, ADMIN);
  const member = await t.signIn(TEAM, MEMBER);

  const send = (method: "GET" | "PUT" | "POST", url: string, cookie: string, payload?: unknown) =>
    t.inject({
      method,
      url,
      headers: { cookie, ...(payload === undefined ? {} : { "content-type": "application/json" }) },
      ...(payload === undefined ? {} : { payload: typeof payload === "string" ? payload : JSON.stringify(payload) }),
    });
  const putOwn = (body: unknown, cookie = member) => send("PUT", "/dashboard/api/profile", cookie, body);
  const stored = (teamId: string, userId: string) =>
    rows<Record<string, unknown>>(
      t.deps.db,
      sql`select * from profiles where team_id = ${teamId} and user_id = ${userId}`,
    ).then((r) => r[0]);

  it("a profile never set is answered with nulls, empty texts and celebrate true, and nothing is stored", async () => {
    const res = await send("GET", "/dashboard/api/profile", member);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      user_id: MEMBER,
      birth_month: null,
      birth_day: null,
      start_date: null,
      role: "",
      location: "",
      ask_me_about: "",
      celebrate: true,
      set_by_admin: false,
      updated_at: null,
    });
    expect(await stored(TEAM, MEMBER)).toBeUndefined();
  });

  it("PUT stores the fields sent, answers the stored profile, and drops unknown keys such as birth_year", async () => {
    const res = await putOwn({
      birth_month: 2,
      birth_day: 29,
      birth_year: 1990,
      user_id: "U0SOMEONEELSE",
      set_by_admin: true,
      start_date: "2024-05-06",
      role: "  Engineer  ",
      location: "Lisbon",
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      user_id: MEMBER,
      birth_month: 2,
      birth_day: 29,
      start_date: "2024-05-06",
      role: "Engineer",
      location: "Lisbon",
      ask_me_about: "",
      celebrate: true,
      set_by_admin: false,
      updated_at: t.clock.now().toISOString(),
    });
    const row = await stored(TEAM, MEMBER);
    expect(Object.keys(row!).sort()).toEqual(
      [
        "team_id",
        "user_id",
        "birth_month",
        "birth_day",
        "start_date",
        "role",
        "location",
        "ask_me_about",
        "celebrate",
        "set_by_admin",
        "updated_at",
      ].sort(),
    );
    expect(JSON.stringify(row)).not.toContain("1990");
    expect(row).toMatchObject({ birth_month: 2, birth_day: 29, role: "Engineer", set_by_admin: false });
    expect(await stored(TEAM, "U0SOMEONEELSE")).toBeUndefined();
  });

  it("only the fields sent change", async () => {
    const res = await putOwn({ ask_me_about: "Sourdough", celebrate: false });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      birth_month: 2,
      birth_day: 29,
      start_date: "2024-05-06",
      role: "Engineer",
      location: "Lisbon",
      ask_me_about: "Sourdough",
      celebrate: false,
    });
    const again = await send("GET", "/dashboard/api/profile", member);
    expect(again.json()).toMatchObject({ ask_me_about: "Sourdough", celebrate: false, birth_day: 29 });
  });

  it("null birth_month and birth_day together remove the birthday; null texts become empty", async () => {
    const res = await putOwn({ birth_month: null, birth_day: null, role: null, start_date: null });
    expect(res.json()).toMatchObject({ birth_month: null, birth_day: null, role: "", start_date: null });
    await putOwn({ birth_month: 2, birth_day: 29, start_date: "2024-05-06", role: "Engineer", celebrate: true });
  });

  it.each([
    [{ birth_month: 13, birth_day: 1 }, "birth_month"],
    [{ birth_month: 0, birth_day: 1 }, "birth_month"],
    [{ birth_month: 1.5, birth_day: 1 }, "birth_month"],
    [{ birth_month: "2", birth_day: 1 }, "birth_month"],
    [{ birth_month: 2, birth_day: 30 }, "birth_day"],
    [{ birth_month: 4, birth_day: 31 }, "birth_day"],
    [{ birth_month: 1, birth_day: 0 }, "birth_day"],
    [{ birth_month: 1, birth_day: 32 }, "birth_day"],
    [{ birth_month: 3 }, "birth_day"],
    [{ birth_day: 3 }, "birth_month"],
    [{ birth_month: 3, birth_day: null }, "birth_day"],
    [{ start_date: "2024-02-30" }, "start_date"],
    [{ start_date: "2024-5-6" }, "start_date"],
    [{ start_date: 20240506 }, "start_date"],
    [{ start_date: "1899-12-31" }, "start_date"],
    [{ start_date: "2027-03-03" }, "start_date"],
    [{ role: "x".repeat(81) }, "role"],
    [{ role: 5 }, "role"],
    [{ location: "y".repeat(81) }, "location"],
    [{ ask_me_about: "z".repeat(201) }, "ask_me_about"],
    [{ celebrate: "yes" }, "celebrate"],
    [{ celebrate: null }, "celebrate"],
  ])("400 naming the field for %j", async (body, field) => {
    const before = await stored(TEAM, MEMBER);
    const message = expectError(await putOwn(body), 400);
    expect(message).toContain(field);
    expect(await stored(TEAM, MEMBER)).toEqual(before);
  });

  it("accepts the limits themselves: 29 February, 80/80/200 characters, a start date exactly a year ahead", async () => {
    const res = await putOwn({
      birth_month: 12,
      birth_day: 31,
      role: "r".repeat(80),
      location: "l".repeat(80),
      ask_me_about: "a".repeat(200),
      start_date: "2027-03-02",
    });
    expect(res.statusCode, res.body).toBe(200);
    await putOwn({
      birth_month: 2,
      birth_day: 29,
      role: "Engineer",
      location: "Lisbon",
      ask_me_about: "",
      start_date: "2024-05-06",
    });
  });

  it("400 for malformed JSON, a body that is not an object, and 415 for a body that is not JSON", async () => {
    expectError(await putOwn("{not json"), 400);
    expect(expectError(await putOwn("[1,2]"), 400)).toMatch(/JSON object/);
    expectError(await putOwn('"text"'), 400);
    const form = await t.inject({
      method: "PUT",
      url: "/dashboard/api/profile",
      headers: { cookie: member, "content-type": "application/x-www-form-urlencoded" },
      payload: "role=x",
    });
    expectError(form, 415);
  });

  it("401 without a session on every profile route; 403 for a member on the admin ones", async () => {
    for (const [method, url] of [
      ["GET", "/dashboard/api/profile"],
      ["PUT", "/dashboard/api/profile"],
      ["GET", "/dashboard/api/profiles"],
      ["PUT", `/dashboard/api/profiles/${MEMBER}`],
      ["POST", "/dashboard/api/profiles/import"],
    ] as const) {
      expect(expectError(await send(method, url, "", method === "GET" ? undefined : {}), 401)).toBe("Unauthorized");
    }
    expectError(await send("GET", "/dashboard/api/profiles", member), 403);
    expectError(await send("PUT", `/dashboard/api/profiles/${SECOND}`, member, { role: "Boss" }), 403);
    expectError(
      await send("POST", "/dashboard/api/profiles/import", member, { csv: "email,birthday,start_date\n" }),
      403,
    );
    expect(await stored(TEAM, SECOND)).toBeUndefined();
  });

  it("set_by_admin says who last set the dates: only a date that changes moves it, either way", async () => {
    const byAdmin = async () => (await stored(TEAM, MEMBER))?.set_by_admin;
    await putOwn({ birth_month: 4, birth_day: 4, start_date: "2021-04-04" });
    expect(await byAdmin()).toBe(false);
    // An admin's PUT of other fields, of nothing, or of the same dates leaves the dates the member's.
    const res = await send("PUT", `/dashboard/api/profiles/${MEMBER}`, admin, { location: "Porto", birth_year: 1980 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ user_id: MEMBER, location: "Porto", role: "Engineer", set_by_admin: false });
    expect((await send("PUT", `/dashboard/api/profiles/${MEMBER}`, admin, {})).json()).toMatchObject({
      set_by_admin: false,
    });
    const same = { birth_month: 4, birth_day: 4, start_date: "2021-04-04", role: "Engineer" };
    expect((await send("PUT", `/dashboard/api/profiles/${MEMBER}`, admin, same)).json()).toMatchObject({
      set_by_admin: false,
    });
    // An admin changing a date makes the dates admin-set; the member's save of other fields does not undo that.
    expect(
      (await send("PUT", `/dashboard/api/profiles/${MEMBER}`, admin, { start_date: "2021-05-05" })).json(),
    ).toMatchObject({ start_date: "2021-05-05", set_by_admin: true });
    expect((await putOwn({ location: "Lisbon" })).json()).toMatchObject({ set_by_admin: true });
    expect((await putOwn({})).json()).toMatchObject({ set_by_admin: true });
    // The member changing a date makes them theirs again.
    expect((await putOwn({ birth_month: 4, birth_day: 5 })).json()).toMatchObject({ set_by_admin: false });
  });

  it("an admin may opt a member out of Celebrations, never back in (400 naming celebrate)", async () => {
    const put = (body: unknown) => send("PUT", `/dashboard/api/profiles/${MEMBER}`, admin, body);
    expect((await put({ celebrate: false })).json()).toMatchObject({ celebrate: false });
    expect(expectError(await put({ celebrate: true, role: "Lead" }), 400)).toBe(
      "celebrate: only the member can opt back in",
    );
    expect(await stored(TEAM, MEMBER)).toMatchObject({ celebrate: false, role: "Engineer" });
    // Sending false again (a form that sends every field) is fine.
    expect((await put({ celebrate: false, role: "Lead" })).json()).toMatchObject({ celebrate: false, role: "Lead" });
    // The member opts back in; then true from an admin is accepted (nothing to change).
    expect((await putOwn({ celebrate: true, role: "Engineer" })).json()).toMatchObject({ celebrate: true });
    expect((await put({ celebrate: true })).json()).toMatchObject({ celebrate: true });
    // Someone without a profile is celebrated already: true is accepted and stores the default.
    expect((await send("PUT", `/dashboard/api/profiles/${SECOND}`, admin, { celebrate: true })).statusCode).toBe(200);
    expect((await send("PUT", `/dashboard/api/profiles/${SECOND}`, admin, { celebrate: true })).statusCode).toBe(200);
  });

  it("an admin's PUT for another workspace's member, a deactivated member or an unknown id is 404 and stores nothing", async () => {
    for (const id of [OTHER_MEMBER, GONE, "U0NOBODY", "not-a-user"]) {
      expectError(await send("PUT", `/dashboard/api/profiles/${id}`, admin, { role: "Boss" }), 404);
    }
    expect(await stored(OTHER, OTHER_MEMBER)).toBeUndefined();
    expect(await stored(TEAM, GONE)).toBeUndefined();
    expect(await stored(TEAM, "U0NOBODY")).toBeUndefined();
  });

  it("an admin's PUT validates like the member's", async () => {
    expect(
      expectError(
        await send("PUT", `/dashboard/api/profiles/${SECOND}`, admin, { birth_month: 2, birth_day: 30 }),
        400,
      ),
    ).toContain("birth_day");
    expectError(await send("PUT", `/dashboard/api/profiles/${SECOND}`, admin, "{oops"), 400);
  });

  it("GET /profiles lists every current member of this workspace (profile or defaults), not deactivated or other workspaces'", async () => {
    const res = await send("GET", "/dashboard/api/profiles", admin);
    expect(res.statusCode).toBe(200);
    const list = res.json() as { user_id: string; name: string; email: string; celebrate: boolean; role: string }[];
    expect(list.map((p) => p.user_id)).toEqual([ADMIN, MEMBER, SECOND].sort());
    expect(list.find((p) => p.user_id === MEMBER)).toMatchObject({
      name: "Mia Member",
      role: "Engineer",
      email: "u0profmem@example.com",
    });
    expect(list.find((p) => p.user_id === SECOND)).toMatchObject({ name: "Sam Second", role: "", celebrate: true });
  });

  it("GET /profiles pages by user id: limit and after", async () => {
    const first = (await send("GET", "/dashboard/api/profiles?limit=2", admin)).json() as { user_id: string }[];
    expect(first).toHaveLength(2);
    const rest = (
      await send("GET", `/dashboard/api/profiles?limit=2&after=${first.at(-1)!.user_id}`, admin)
    ).json() as { user_id: string }[];
    expect([...first, ...rest].map((p) => p.user_id)).toEqual([ADMIN, MEMBER, SECOND].sort());
    for (const q of ["limit=0", "limit=1001", "limit=abc", "limit=1.5"]) {
      expect(expectError(await send("GET", `/dashboard/api/profiles?${q}`, admin), 400)).toContain("limit");
    }
  });

  it("profilesForCelebration and membersMissingDates honour celebrate false and deactivation", async () => {
    await send("PUT", `/dashboard/api/profiles/${SECOND}`, admin, {
      birth_month: 7,
      birth_day: 1,
      start_date: "2020-01-01",
    });
    expect((await profilesForCelebration(t.deps, TEAM)).map((p) => p.userId)).toEqual([MEMBER, SECOND].sort());
    expect(await membersMissingDates(t.deps, TEAM)).toEqual([ADMIN]);
    await send("PUT", `/dashboard/api/profiles/${SECOND}`, admin, { celebrate: false });
    await send("PUT", `/dashboard/api/profiles/${ADMIN}`, admin, { celebrate: false });
    expect((await profilesForCelebration(t.deps, TEAM)).map((p) => p.userId)).toEqual([MEMBER]);
    expect(await membersMissingDates(t.deps, TEAM)).toEqual([]);
  });
});
