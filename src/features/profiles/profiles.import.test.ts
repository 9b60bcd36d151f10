import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { type TestApp, useTestApp } from "../../../test/support/app.ts";
import { rows } from "../../db/client.ts";
import { upsertPeople } from "../members/index.ts";

const TEAM = "T0PIMP";
const OTHER = "T0PIMPOTHER";
const ADMIN = "U0PIMPADMIN";

interface ImportJson {
  preview: boolean;
  overwrite: boolean;
  counts: Record<"ready" | "unchanged" | "kept" | "unmatched" | "invalid" | "written", number>;
  rows: { line: number; email: string; user_id: string | null; status: string; error: string | null }[];
}

describe("profile CSV import", async () => {
  const t: TestApp = await useTestApp();
  await t.installTeam(TEAM, { installer: ADMIN });
  await t.installTeam(OTHER);
  // ada: no profile; bob: admin-set profile; cy: member-written profile; dee: already what the file says.
  await t.addMember(TEAM, "U0ADA", { email: "Ada@Example.com" });
  await t.addMember(TEAM, "U0BOB", { email: "bob@example.com" });
  await t.addMember(TEAM, "U0CY", { email: "cy@example.com" });
  await t.addMember(TEAM, "U0DEE", { email: "dee@example.com" });
  await t.addMember(OTHER, "U0OTHERONE", { email: "other@example.com" });
  await upsertPeople(
    t.deps.db,
    TEAM,
    [
      {
        userId: "U0GONE",
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
  const bob = await t.signIn(TEAM, "U0BOB");
  const cy = await t.signIn(TEAM, "U0CY");
  const dee = await t.signIn(TEAM, "U0DEE");

  const put = (cookie: string, url: string, body: unknown) =>
    t.inject({
      method: "PUT",
      url,
      headers: { cookie, "content-type": "application/json" },
      payload: JSON.stringify(body),
    });
  // bob's profile was last written by an admin, cy's by cy, dee's already matches.
  await put(cy, "/dashboard/api/profile", { birth_month: 1, birth_day: 1, role: "Designer" });
  await put(bob, "/dashboard/api/profile", { role: "Ops" });
  await put(admin, "/dashboard/api/profiles/U0BOB", { birth_month: 5, birth_day: 5 });
  await put(dee, "/dashboard/api/profile", { birth_month: 3, birth_day: 4, start_date: "2020-01-02" });

  const importCsv = (body: unknown) =>
    t.inject({
      method: "POST",
      url: "/dashboard/api/profiles/import",
      headers: { cookie: admin, "content-type": "application/json" },
      payload: typeof body === "string" ? body : JSON.stringify(body),
    });
  const snapshot = () =>
    rows<Record<string, unknown>>(t.deps.db, sql`select * from profiles order by team_id, user_id`);

  const FILE = [
    "email,birthday,start_date",
    "ada@example.com,07-14,2023-09-01", // ready (no profile; e-mail in another case)
    "BOB@example.com,06-01,", // ready (admin-set profile)
    "cy@example.com,02-29,", // kept (cy wrote it)
    "dee@example.com,03-04,2020-01-02", // unchanged
    "nobody@example.com,01-01,", // unmatched
    "gone@example.com,01-01,", // unmatched (deactivated)
    "other@example.com,01-01,", // unmatched (another workspace)
    "ada@example.com,08-01,", // invalid: duplicate
    "eve@example.com,02-30,", // invalid birthday
    "fay@example.com,,2024-13-01", // invalid start date
    "gus@example.com,01-01", // invalid: 2 columns
    ",01-01,", // invalid: no e-mail
    "not-an-email,01-01,", // invalid e-mail
  ].join("\n");

  it("a preview judges every row, writes nothing, and produces each status", async () => {
    const before = await snapshot();
    const res = await importCsv({ csv: FILE });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as ImportJson;
    expect(body.preview).toBe(true);
    expect(body.overwrite).toBe(false);
    expect(body.rows.map((r) => [r.line, r.email, r.user_id, r.status])).toEqual([
      [2, "ada@example.com", "U0ADA", "ready"],
      [3, "bob@example.com", "U0BOB", "ready"],
      [4, "cy@example.com", "U0CY", "kept"],
      [5, "dee@example.com", "U0DEE", "unchanged"],
      [6, "nobody@example.com", null, "unmatched"],
      [7, "gone@example.com", null, "unmatched"],
      [8, "other@example.com", null, "unmatched"],
      [9, "ada@example.com", null, "invalid"],
      [10, "eve@example.com", null, "invalid"],
      [11, "fay@example.com", null, "invalid"],
      [12, "gus@example.com", null, "invalid"],
      [13, "", null, "invalid"],
      [14, "not-an-email", null, "invalid"],
    ]);
    expect(body.rows[7]!.error).toContain("line 2");
    expect(body.rows[8]!.error).toContain("birthday");
    expect(body.rows[9]!.error).toContain("start_date");
    expect(body.rows[10]!.error).toContain("columns");
    expect(
      body.rows
        .filter((r) => r.status === "ready" || r.status === "unchanged" || r.status === "kept")
        .every((r) => r.error === null),
    ).toBe(true);
    expect(body.counts).toEqual({ ready: 2, unchanged: 1, kept: 1, unmatched: 3, invalid: 6, written: 0 });
    expect(await snapshot()).toEqual(before);
  });

  it("preview false writes the ready rows in one go, leaves empty cells' fields and member-written profiles alone", async () => {
    const res = await importCsv({ csv: FILE, preview: false });
    const body = res.json() as ImportJson;
    expect(body.counts).toEqual({ ready: 2, unchanged: 1, kept: 1, unmatched: 3, invalid: 6, written: 2 });
    const after = await snapshot();
    const of = (id: string) => after.find((r) => r.user_id === id)!;
    expect(of("U0ADA")).toMatchObject({ birth_month: 7, birth_day: 14, set_by_admin: true });
    expect(String(of("U0ADA").start_date)).toContain("2023");
    // bob's start date cell was empty: nothing to change there; his role stays.
    expect(of("U0BOB")).toMatchObject({
      birth_month: 6,
      birth_day: 1,
      start_date: null,
      role: "Ops",
      set_by_admin: true,
    });
    expect(of("U0CY")).toMatchObject({ birth_month: 1, birth_day: 1, role: "Designer", set_by_admin: false });
    expect(after.some((r) => r.user_id === "U0GONE" || r.user_id === "U0OTHERONE")).toBe(false);
    // The same file again: what was written is now unchanged.
    const again = (await importCsv({ csv: FILE, preview: false })).json() as ImportJson;
    expect(again.counts).toMatchObject({ ready: 0, unchanged: 3, kept: 1, written: 0 });
  });

  it("overwrite true replaces what a member wrote (the dates only)", async () => {
    const res = await importCsv({
      csv: "email,birthday,start_date\ncy@example.com,02-29,\n",
      preview: false,
      overwrite: true,
    });
    const body = res.json() as ImportJson;
    expect(body.rows[0]).toMatchObject({ status: "ready", user_id: "U0CY" });
    expect(body.counts.written).toBe(1);
    const cyRow = (await snapshot()).find((r) => r.user_id === "U0CY")!;
    expect(cyRow).toMatchObject({ birth_month: 2, birth_day: 29, role: "Designer", set_by_admin: true });
  });

  it("one ready row and one kept row write one profile: the kept one stays whole (written: 1)", async () => {
    await t.addMember(TEAM, "U0NEW1", { email: "new1@example.com" }); // no profile: ready
    await t.addMember(TEAM, "U0OWN1", { email: "own1@example.com" }); // set a birthday, no start date: kept
    await put(await t.signIn(TEAM, "U0OWN1"), "/dashboard/api/profile", { birth_month: 7, birth_day: 7 });
    const csv = "email,birthday,start_date\nnew1@example.com,06-01,2021-06-01\nown1@example.com,06-02,2021-06-02\n";
    const before = (await snapshot()).find((r) => r.user_id === "U0OWN1");
    const body = (await importCsv({ csv, preview: false })).json() as ImportJson;
    expect(body.rows.map((r) => [r.user_id, r.status])).toEqual([
      ["U0NEW1", "ready"],
      ["U0OWN1", "kept"],
    ]);
    expect(body.counts).toEqual({ ready: 1, unchanged: 0, kept: 1, unmatched: 0, invalid: 0, written: 1 });
    const after = await snapshot();
    expect(after.find((r) => r.user_id === "U0OWN1")).toEqual(before);
    expect(after.find((r) => r.user_id === "U0NEW1")).toMatchObject({ birth_month: 6, birth_day: 1 });
  });

  it("kept is about the dates: a member's role-only save or an admin's empty PUT does not decide it", async () => {
    await t.addMember(TEAM, "U0RO", { email: "ro@example.com" }); // wrote only a role
    await t.addMember(TEAM, "U0HALF", { email: "half@example.com" }); // set a birthday, no start date
    await t.addMember(TEAM, "U0MINE", { email: "mine@example.com" }); // set both dates; an admin then PUT {}
    const ro = await t.signIn(TEAM, "U0RO");
    const half = await t.signIn(TEAM, "U0HALF");
    const mine = await t.signIn(TEAM, "U0MINE");
    await put(ro, "/dashboard/api/profile", { role: "Support" });
    await put(half, "/dashboard/api/profile", { birth_month: 9, birth_day: 9 });
    await put(mine, "/dashboard/api/profile", { birth_month: 10, birth_day: 10, start_date: "2019-10-10" });
    expect((await put(admin, "/dashboard/api/profiles/U0MINE", {})).statusCode).toBe(200);
    expect((await put(admin, "/dashboard/api/profiles/U0MINE", { role: "Ops" })).statusCode).toBe(200);
    const csv = [
      "email,birthday,start_date",
      "ro@example.com,01-02,2022-01-02", // ready: no date of ro's to keep
      "half@example.com,01-03,2022-01-03", // kept: the birthday is half's, so the profile stays whole
      "mine@example.com,01-04,2022-01-04", // kept: both dates are mine's
      "half@example.com,,", // (duplicate: invalid)
    ].join("\n");
    const preview = (await importCsv({ csv })).json() as ImportJson;
    expect(preview.rows.map((r) => [r.user_id, r.status])).toEqual([
      ["U0RO", "ready"],
      ["U0HALF", "kept"],
      ["U0MINE", "kept"],
      [null, "invalid"],
    ]);
    const body = (await importCsv({ csv, preview: false })).json() as ImportJson;
    expect(body.counts).toMatchObject({ ready: 1, kept: 2, written: 1 });
    const after = await snapshot();
    const of = (id: string) => after.find((r) => r.user_id === id)!;
    expect(of("U0RO")).toMatchObject({ birth_month: 1, birth_day: 2, role: "Support", set_by_admin: true });
    expect(String(of("U0RO").start_date)).toContain("2022");
    // half's profile is kept whole: their birthday stays and the empty start date is not filled either.
    expect(of("U0HALF")).toMatchObject({ birth_month: 9, birth_day: 9, start_date: null, set_by_admin: false });
    expect(of("U0MINE")).toMatchObject({ birth_month: 10, birth_day: 10, role: "Ops", set_by_admin: false });
    expect(String(of("U0MINE").start_date)).toContain("2019");
    // With overwrite the member's dates are replaced, and the dates become admin-set.
    const forced = (await importCsv({ csv, preview: false, overwrite: true })).json() as ImportJson;
    expect(forced.counts).toMatchObject({ ready: 2, kept: 0, unchanged: 1, written: 2 });
    expect((await snapshot()).find((r) => r.user_id === "U0HALF")).toMatchObject({
      birth_month: 1,
      birth_day: 3,
      set_by_admin: true,
    });
  });

  it("parses a BOM, CRLF line ends, quoted fields with commas and a header in capitals", async () => {
    await t.addMember(TEAM, "U0QUO", { email: "quoted,name@example.com" });
    const csv =
      '\uFEFFEmail,Birthday,Start_Date\r\n"quoted,name@example.com","12-25","2022-02-02"\r\n\r\nnobody@example.com,01-01,\r\n';
    const body = (await importCsv({ csv })).json() as ImportJson;
    expect(body.rows).toEqual([
      { line: 2, email: "quoted,name@example.com", user_id: "U0QUO", status: "ready", error: null },
      { line: 4, email: "nobody@example.com", user_id: null, status: "unmatched", error: expect.any(String) },
    ]);
  });

  it("5,000 rows are accepted; 5,001 are a 400 that writes nothing", async () => {
    const lines = (n: number) =>
      ["email,birthday,start_date", ...Array.from({ length: n }, (_, i) => `person${i}@example.com,01-01,`)].join(
        "\r\n",
      );
    const ok = await importCsv({ csv: lines(5000), preview: false });
    expect(ok.statusCode, ok.body.slice(0, 200)).toBe(200);
    expect((ok.json() as ImportJson).counts.unmatched).toBe(5000);
    const before = await snapshot();
    const res = await importCsv({ csv: lines(5001), preview: false });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: expect.stringContaining("5,000") });
    expect(await snapshot()).toEqual(before);
    // Reading stops after row 5,001: an unclosed quote further down is never reached, the answer is the same 400.
    const broken = await importCsv({ csv: `${lines(5001)}\r\n"never,01-01,\r\n${lines(20000)}`, preview: true });
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toEqual({ error: expect.stringContaining("at most 5,000 rows") });
  });

  it("400 for a wrong header, an unclosed quote, malformed JSON and wrong types", async () => {
    for (const body of [
      { csv: "mail,birthday,start_date\nada@example.com,01-01,\n" },
      { csv: "email,birthday\n" },
      { csv: "" },
      { csv: 'email,birthday,start_date\n"ada@example.com,01-01,\n' },
      { csv: 5 },
      {},
      { csv: "email,birthday,start_date\n", preview: "no" },
      { csv: "email,birthday,start_date\n", overwrite: 1 },
      "{oops",
      "[]",
    ]) {
      const res = await importCsv(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(Object.keys(res.json() as object)).toEqual(["error"]);
    }
    const named = (await importCsv({ csv: "email,birthday,start_date\n", preview: "no" })).json() as { error: string };
    expect(named.error).toContain("preview");
    expect(((await importCsv({ csv: 5 })).json() as { error: string }).error).toContain("csv");
  });
});
