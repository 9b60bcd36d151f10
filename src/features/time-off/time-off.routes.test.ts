import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import { rows } from "../../db/client.ts";

const TEAM = "T0OFFA";
const OTHER = "T0OFFB";
const ADMIN = "U0OFFADMIN";
const ANA = "U0OFFANA";
const BEN = "U0OFFBEN";
const STRANGER = "U0OFFSTRANGER";

interface RangeJson {
  id: number;
  user_id: string;
  real_name: string;
  start_date: string;
  end_date: string;
  reason: string;
  current: boolean;
  created_by: string;
}

describe("/dashboard/api/time-off", async () => {
  const t = await useTestApp();
  t.clock.set("2026-03-02T12:00:00Z");
  await t.installTeam(TEAM, { installer: ADMIN });
  await t.installTeam(OTHER, { installer: STRANGER });
  await t.addMember(TEAM, ANA, { realName: "Ana" });
  await t.addMember(TEAM, BEN, { realName: "Ben" });
  const admin = await t.signIn(TEAM, ADMIN);
  const ana = await t.signIn(TEAM, ANA);
  const ben = await t.signIn(TEAM, BEN);
  const stranger = await t.signIn(OTHER, STRANGER);

  const post = (cookie: string | undefined, payload: unknown, raw?: string) =>
    t.inject({
      method: "POST",
      url: "/dashboard/api/time-off",
      headers: { ...(cookie ? { cookie } : {}), "content-type": "application/json" },
      payload: raw ?? JSON.stringify(payload),
    });
  const list = (cookie: string | undefined, query = "") =>
    t.inject({ method: "GET", url: `/dashboard/api/time-off${query}`, headers: cookie ? { cookie } : {} });
  const del = (cookie: string | undefined, id: number | string) =>
    t.inject({ method: "DELETE", url: `/dashboard/api/time-off/${id}`, headers: cookie ? { cookie } : {} });
  const stored = (user: string) =>
    rows<{ start_date: string; end_date: string }>(
      t.deps.db,
      sql`select start_date::text, end_date::text from time_off where team_id = ${TEAM} and user_id = ${user}
          order by start_date`,
    );

  it("401 without a session on every method", async () => {
    expect((await list(undefined)).statusCode).toBe(401);
    expect((await post(undefined, { start_date: "2026-03-10", end_date: "2026-03-11" })).statusCode).toBe(401);
    expect((await del(undefined, 1)).statusCode).toBe(401);
  });

  it("a member adds their own range: 201 with the range", async () => {
    const res = await post(ana, { start_date: "2026-03-02", end_date: "2026-03-06", reason: "Holiday" });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      user_id: ANA,
      real_name: "Ana",
      start_date: "2026-03-02",
      end_date: "2026-03-06",
      reason: "Holiday",
      current: true,
      created_by: ANA,
    });
  });

  it("400 for malformed JSON, wrong types and bad dates, naming the field", async () => {
    const cases: [unknown, RegExp][] = [
      [{ start_date: 20260310, end_date: "2026-03-11" }, /^start_date/],
      [{ start_date: "2026-03-10", end_date: null }, /^end_date/],
      [{ start_date: "2026-03-10" }, /^end_date/],
      [{ start_date: "10/03/2026", end_date: "2026-03-11" }, /^start_date must be a date as YYYY-MM-DD/],
      [{ start_date: "2026-02-29", end_date: "2026-03-11" }, /^start_date: not a real date/],
      [{ start_date: "2026-03-10", end_date: "2026-03-09" }, /^end_date: must be on or after start_date/],
      [{ start_date: "2026-03-10", end_date: "2027-03-11" }, /^end_date: a range covers at most 366 days/],
      [{ start_date: "2026-02-20", end_date: "2026-02-28" }, /^end_date: must not be in the past/],
      [{ start_date: "2026-03-10", end_date: "2026-03-11", reason: 5 }, /^reason/],
      [{ start_date: "2026-03-10", end_date: "2026-03-11", reason: "x".repeat(201) }, /^reason must be at most 200/],
      [{ user_id: 7, start_date: "2026-03-10", end_date: "2026-03-11" }, /^user_id/],
      [[], /.+/],
    ];
    for (const [body, error] of cases) {
      const res = await post(ana, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error, JSON.stringify(body)).toMatch(error);
    }
    const malformed = await post(ana, undefined, '{"start_date": "2026-03-10",');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toHaveProperty("error");
    // A 366-day range (2028 is a leap year) is fine.
    expect((await post(ben, { start_date: "2028-01-01", end_date: "2028-12-31" })).statusCode).toBe(201);
    expect((await list(ben)).json().items.map((r: RangeJson) => r.end_date)).toEqual(["2028-12-31"]);
  });

  it("members set and see only their own (403 for someone else's); admins anyone's, validated against the workspace", async () => {
    const setOthers = await post(ana, { user_id: BEN, start_date: "2026-03-10", end_date: "2026-03-11" });
    expect(setOthers.statusCode).toBe(403);
    expect(setOthers.json()).toEqual({ error: "Admin required", detail: "Only admins set other members' time off" });
    const seeOthers = await list(ana, `?user_id=${BEN}`);
    expect(seeOthers.statusCode).toBe(403);
    expect(seeOthers.json()).toEqual({ error: "Admin required", detail: "Only admins see other members' time off" });
    const mine = (await list(ana)).json() as { items: RangeJson[]; truncated: boolean };
    expect(mine.items.map((r) => r.user_id)).toEqual([ANA]);
    expect(mine.truncated).toBe(false);
    const forBen = await post(admin, { user_id: BEN, start_date: "2026-04-01", end_date: "2026-04-03" });
    expect(forBen.statusCode).toBe(201);
    expect(forBen.json()).toMatchObject({ user_id: BEN, created_by: ADMIN, current: false });
    const unknown = await post(admin, { user_id: STRANGER, start_date: "2026-04-01", end_date: "2026-04-03" });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error).toBe("user_id: no such member in this workspace");
    const all = (await list(admin)).json() as { items: RangeJson[] };
    expect(all.items.map((r) => [r.user_id, r.start_date])).toEqual([
      [ANA, "2026-03-02"],
      [BEN, "2026-04-01"],
      [BEN, "2028-01-01"],
    ]);
    const bens = (await list(admin, `?user_id=${BEN}&limit=1`)).json() as { items: RangeJson[]; truncated: boolean };
    expect(bens.items.map((r) => r.start_date)).toEqual(["2026-04-01"]);
    expect(bens.truncated).toBe(true);
    expect((await list(admin, "?limit=0")).statusCode).toBe(400);
    expect((await list(admin, "?limit=501")).json().error).toMatch(/^limit/);
    expect((await list(admin, "?include_past=yes")).json().error).toMatch(/^include_past must be one of true, false/);
    // Another workspace sees none of it.
    expect((await list(stranger)).json().items).toEqual([]);
  });

  it("overlapping and adjacent ranges merge into one; past ones only with include_past", async () => {
    await post(ana, { start_date: "2026-03-09", end_date: "2026-03-10" }); // touches 2-6? no: 7 and 8 lie between
    await post(ana, { start_date: "2026-03-12", end_date: "2026-03-13" });
    expect(await stored(ANA)).toEqual([
      { start_date: "2026-03-02", end_date: "2026-03-06" },
      { start_date: "2026-03-09", end_date: "2026-03-10" },
      { start_date: "2026-03-12", end_date: "2026-03-13" },
    ]);
    const merged = await post(ana, { start_date: "2026-03-07", end_date: "2026-03-11", reason: "Long trip" });
    expect(merged.statusCode).toBe(201);
    expect(merged.json()).toMatchObject({ start_date: "2026-03-02", end_date: "2026-03-13", reason: "Long trip" });
    expect(await stored(ANA)).toEqual([{ start_date: "2026-03-02", end_date: "2026-03-13" }]);
  });

  it("concurrent POSTs of overlapping ranges leave one range", async () => {
    const bodies = Array.from({ length: 8 }, (_, i) => ({
      start_date: `2026-05-${String(1 + i * 2).padStart(2, "0")}`,
      end_date: `2026-05-${String(3 + i * 2).padStart(2, "0")}`,
    }));
    const results = await Promise.all(bodies.map((b) => post(ben, b)));
    expect(results.map((r) => r.statusCode)).toEqual(bodies.map(() => 201));
    expect((await stored(BEN)).filter((r) => r.start_date.startsWith("2026-05"))).toEqual([
      { start_date: "2026-05-01", end_date: "2026-05-17" },
    ]);
  });

  it("concurrent POSTs at the cap: only one gets the last place (the member's lock comes before the count)", async () => {
    const CAP = "U0OFFCAP";
    await t.addMember(TEAM, CAP, { realName: "Cap" });
    const cap = await t.signIn(TEAM, CAP);
    // 49 single days, three days apart (never merging), from 2026-04-01: one place left under the cap of 50.
    await t.deps.db.execute(
      sql`insert into time_off (team_id, user_id, start_date, end_date, reason, created_by, created_at, updated_at)
          select ${TEAM}, ${CAP}, d, d, '', ${CAP}, now(), now()
          from (select ('2026-04-01'::date + i * 3) as d from generate_series(0, 48) as i) days`,
    );
    const bodies = Array.from({ length: 6 }, (_, i) => {
      const day = `2026-12-${String(1 + i * 4).padStart(2, "0")}`;
      return { start_date: day, end_date: day };
    });
    const results = await Promise.all(bodies.map((b) => post(cap, b)));
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(1);
    expect(results.filter((r) => r.statusCode === 400)).toHaveLength(5);
    expect(await stored(CAP)).toHaveLength(50);
  });

  it("DELETE: own or admin; someone else's 403; unknown, malformed and other workspaces' ids 404", async () => {
    const [anaRange] = ((await list(ana)).json() as { items: RangeJson[] }).items;
    const benRange = ((await list(ben)).json() as { items: RangeJson[] }).items[0]!;
    const removeOthers = await del(ben, anaRange!.id);
    expect(removeOthers.statusCode).toBe(403);
    expect(removeOthers.json()).toEqual({
      error: "Admin required",
      detail: "Only admins remove other members' time off",
    });
    expect((await del(stranger, anaRange!.id)).statusCode).toBe(404);
    expect((await del(ana, 999999)).statusCode).toBe(404);
    expect((await del(ana, "abc")).statusCode).toBe(404);
    expect((await del(ana, anaRange!.id)).json()).toEqual({ ok: true });
    expect((await del(ana, anaRange!.id)).statusCode).toBe(404);
    expect((await del(admin, benRange.id)).statusCode).toBe(200);
    expect(await stored(ANA)).toEqual([]);
  });

  it("past ranges are listed with include_past and pruned a year after they ended", async () => {
    await post(ana, { start_date: "2026-03-02", end_date: "2026-03-02" });
    t.clock.set("2026-03-20T12:00:00Z");
    expect(((await list(ana)).json() as { items: RangeJson[] }).items).toEqual([]);
    expect(((await list(ana, "?include_past=true")).json() as { items: RangeJson[] }).items).toHaveLength(1);
    // Every write prunes the workspace's ranges that ended more than 366 days before today.
    t.clock.set("2027-02-20T12:00:00Z");
    const later = await t.signIn(TEAM, ANA); // sessions last 30 days
    expect((await post(later, { start_date: "2027-03-20", end_date: "2027-03-20" })).json()).toMatchObject({
      start_date: "2027-03-20",
    });
    expect((await stored(ANA)).map((r) => r.start_date)).toEqual(["2026-03-02", "2027-03-20"]);
    t.clock.set("2027-03-05T12:00:00Z");
    await post(later, { start_date: "2027-04-20", end_date: "2027-04-20" });
    expect((await stored(ANA)).map((r) => r.start_date)).toEqual(["2027-03-20", "2027-04-20"]);
  });
});
