import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import { seedBlocker } from "../../../test/support/blockers.ts";
import { createSchedule } from "../../../test/support/factories.ts";
import type { BlockerItem, BlockerPage } from "../../contract/index.ts";

const TEAM = "T0BLKA";
const OTHER = "T0BLKB";
const ADMIN = "U0BLKADMIN";
const ANA = "U0BLKANA";
const BEN = "U0BLKBEN";
const CAT = "U0BLKCAT";
const STRANGER = "U0BLKSTRANGER";

describe("/dashboard/api/blockers", async () => {
  const t = await useTestApp();
  t.clock.set("2026-03-05T12:00:00Z");
  await t.installTeam(TEAM, { installer: ADMIN });
  await t.installTeam(OTHER, { installer: STRANGER });
  await t.addMember(TEAM, ANA, { realName: "Ana" });
  await t.addMember(TEAM, BEN, { realName: "Ben" });
  await t.addMember(TEAM, CAT, { realName: "Cat" });
  const admin = await t.signIn(TEAM, ADMIN);
  const ana = await t.signIn(TEAM, ANA);
  const stranger = await t.signIn(OTHER, STRANGER);
  const web = await createSchedule(t.deps.db, t.clock, { teamId: TEAM, channelId: "C0WEB", time: "09:00" });
  // Auckland is already on 6 March at 12:00 UTC: ages there count one day more.
  const nz = await createSchedule(t.deps.db, t.clock, {
    teamId: TEAM,
    channelId: "C0NZ",
    time: "09:00",
    tz: "Pacific/Auckland",
  });
  await t.deps.db.execute(sql`update schedules set name = 'Web team' where id = ${web}`);
  await t.deps.db.execute(sql`update schedules set name = 'Kiwi team' where id = ${nz}`);
  const foreign = await createSchedule(t.deps.db, t.clock, { teamId: OTHER, channelId: "C0X", time: "09:00" });
  const seed = (b: Omit<Parameters<typeof seedBlocker>[1], "teamId"> & { teamId?: string }) =>
    seedBlocker(t.deps.db, { teamId: TEAM, ...b });
  const benNz = await seed({ scheduleId: nz, userId: BEN, text: "Waiting on the VPN", openedDate: "2026-03-01" });
  const anaWeb = await seed({
    scheduleId: web,
    userId: ANA,
    text: '=HYPERLINK("x")',
    openedDate: "2026-03-02",
    lastDate: "2026-03-05",
  });
  const benWeb = await seed({ scheduleId: web, userId: BEN, text: "Staging is down", openedDate: "2026-03-04" });
  const old = await seed({
    scheduleId: web,
    userId: ANA,
    text: "Laptop broken",
    openedDate: "2026-02-20",
    resolved: { by: ADMIN, at: "2026-02-23T10:00:00Z", note: "New laptop" },
  });
  // Cat left the workspace: her open item is nobody's active blocker any more.
  await seed({ scheduleId: web, userId: CAT, text: "Gone", openedDate: "2026-03-03" });
  await t.deps.db.execute(sql`update members set active = false where team_id = ${TEAM} and user_id = ${CAT}`);
  const foreignId = await seed({
    teamId: OTHER,
    scheduleId: foreign,
    userId: STRANGER,
    text: "x",
    openedDate: "2026-03-01",
  });

  const resolvedEvents: unknown[] = [];
  t.deps.events.onAny(async (_tx, event) => {
    if (event.type === "blocker.resolved") resolvedEvents.push(event.data);
  });

  const get = (cookie: string | undefined, path: string) =>
    t.inject({ method: "GET", url: `/dashboard/api/${path}`, headers: cookie ? { cookie } : {} });
  const list = async (cookie: string, query = "") => {
    const res = await get(cookie, `blockers${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as BlockerPage;
  };
  const resolve = (cookie: string, id: number | string, body: unknown = {}, headers: Record<string, string> = {}) =>
    t.inject({
      method: "POST",
      url: `/dashboard/api/blockers/${id}/resolve`,
      headers: { cookie, "content-type": "application/json", ...headers },
      payload: JSON.stringify(body),
    });
  const activeBlockers = async (query = "") =>
    ((await get(admin, `stats${query}`)).json() as { active_blockers: number }).active_blockers;

  it("lists open items first, the longest open first, with names and ages in the standup's timezone", async () => {
    const page = await list(ana);
    expect(page).toMatchObject({ total: 3, page: 1, per_page: 50 });
    expect(page.items.map((b) => [b.id, b.real_name, b.standup_name, b.age_days])).toEqual([
      [benNz, "Ben", "Kiwi team", 5],
      [anaWeb, "Ana", "Web team", 3],
      [benWeb, "Ben", "Web team", 1],
    ]);
    expect(page.items[1]).toMatchObject({
      standup_id: web,
      channel_id: "C0WEB",
      user_id: ANA,
      text: '=HYPERLINK("x")',
      status: "open",
      opened_date: "2026-03-02",
      opened_at: "2026-03-02T09:10:00Z",
      last_date: "2026-03-05",
      resolved_at: null,
      resolved_by: null,
      resolved_by_name: null,
      resolution_note: null,
      resolved_via: null,
    });
  });

  it("pages, filters by standup, member and status", async () => {
    const second = await list(admin, "?per_page=2&page=2");
    expect(second).toMatchObject({ total: 3, page: 2, per_page: 2 });
    expect(second.items.map((b) => b.id)).toEqual([benWeb]);
    expect((await list(admin, `?standup=${web}`)).items.map((b) => b.id)).toEqual([anaWeb, benWeb]);
    expect((await list(admin, `?member=${BEN}`)).items.map((b) => b.id)).toEqual([benNz, benWeb]);
    const resolved = await list(admin, "?status=resolved");
    expect(resolved.items).toEqual([
      expect.objectContaining({
        id: old,
        status: "resolved",
        age_days: 3,
        resolved_at: "2026-02-23T10:00:00Z",
        resolved_by: ADMIN,
        resolution_note: "New laptop",
        resolved_via: "dashboard",
      }),
    ]);
    expect(resolved.items[0]!.resolved_by_name).not.toBe(ADMIN);
    const all = await list(admin, `?status=all&member=${ANA}`);
    expect(all.items.map((b) => b.id)).toEqual([anaWeb, old]);
  });

  it("400 for a bad query, 404 for another workspace's standup", async () => {
    for (const q of ["?status=closed", "?page=0", "?page=x", "?per_page=201", "?member=a%20b", "?standup=%27%3B"]) {
      const res = await get(admin, `blockers${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(res.json().error, q).toEqual(expect.any(String));
    }
    expect((await get(admin, `blockers?standup=${foreign}`)).statusCode).toBe(404);
    expect((await get(admin, `blockers.csv?standup=${foreign}`)).statusCode).toBe(404);
    expect((await get(undefined, "blockers")).statusCode).toBe(401);
  });

  it("another workspace sees only its own items", async () => {
    const theirs = await list(stranger, "?status=all");
    expect(theirs.items.map((b) => b.id)).toEqual([foreignId]);
    expect((await list(admin, "?status=all")).items.map((b) => b.id)).not.toContain(foreignId);
  });

  it("active_blockers in the stats counts the open items of active members", async () => {
    expect(await activeBlockers()).toBe(3);
    expect(await activeBlockers(`?schedule_id=${web}`)).toBe(2);
    expect(await activeBlockers(`?user_id=${BEN}`)).toBe(2);
    // Reports: the items open during the window (first reported by its end, last reported in it or later).
    const summary = async (q: string) =>
      ((await get(admin, `reports?${q}`)).json() as { summary: { active_blockers: number } }).summary.active_blockers;
    expect(await summary("from=2026-03-01&to=2026-03-05")).toBe(3);
    expect(await summary("from=2026-02-20&to=2026-03-01")).toBe(1);
  });

  it("CSV: the filters, the columns, guarded formulas", async () => {
    const res = await get(admin, `blockers.csv?standup=${web}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
    const lines = res.body.split("\r\n");
    expect(lines[0]).toBe(
      "\ufeffid,standup,user_id,real_name,text,status,opened_date,age_days,resolved_at,resolved_by,resolution_note",
    );
    expect(lines[1]).toBe(`${anaWeb},Web team,${ANA},Ana,"'=HYPERLINK(""x"")",open,2026-03-02,3,,,`);
    expect(lines[2]).toBe(`${benWeb},Web team,${BEN},Ben,Staging is down,open,2026-03-04,1,,,`);
    expect(lines.slice(3)).toEqual([""]);
    const resolved = await get(admin, "blockers.csv?status=resolved");
    expect(resolved.body).toContain(
      `${old},Web team,${ANA},Ana,Laptop broken,resolved,2026-02-20,3,2026-02-23T10:00:00Z,${ADMIN},New laptop`,
    );
    expect((await get(admin, "blockers.csv?status=nope")).statusCode).toBe(400);
  });

  it("resolve: someone else's is a 403 for a member; bad ids and notes a 400; another workspace's a 404", async () => {
    const res = await resolve(ana, benWeb);
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toMatch(/member who reported/);
    expect((await resolve(ana, "abc")).statusCode).toBe(400);
    expect((await resolve(ana, "0")).statusCode).toBe(400);
    expect((await resolve(ana, anaWeb, { note: "x".repeat(501) })).statusCode).toBe(400);
    expect((await resolve(ana, anaWeb, { note: 5 })).statusCode).toBe(400);
    expect((await resolve(admin, foreignId)).statusCode).toBe(404);
    expect((await resolve(stranger, anaWeb)).statusCode).toBe(404);
    expect((await resolve(ana, 999999)).statusCode).toBe(404);
    // Cross-site: refused before anything is read.
    expect((await resolve(ana, anaWeb, {}, { origin: "https://evil.example" })).statusCode).toBe(403);
    expect((await list(admin)).total).toBe(3);
  });

  it("resolve: the member resolves their own with a note, once (409 again); an admin anyone's", async () => {
    t.clock.set("2026-03-05T13:00:00Z");
    const res = await resolve(ana, anaWeb, { note: "  Fixed by ops  " });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json() as BlockerItem).toMatchObject({
      id: anaWeb,
      status: "resolved",
      resolved_by: ANA,
      resolved_by_name: "Ana",
      resolution_note: "Fixed by ops",
      resolved_via: "dashboard",
      resolved_at: "2026-03-05T13:00:00Z",
      age_days: 3,
    });
    const again = await resolve(ana, anaWeb, { note: "twice" });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toMatch(/already resolved/);
    const byAdmin = await resolve(admin, benWeb);
    expect(byAdmin.statusCode).toBe(200);
    expect(byAdmin.json()).toMatchObject({ resolved_by: ADMIN, resolution_note: null });
    expect((await list(admin)).items.map((b) => b.id)).toEqual([benNz]);
    expect(await activeBlockers()).toBe(1);
    // blocker.resolved went out once for each (not for the refused second resolve).
    expect(resolvedEvents).toEqual([
      { blockerId: anaWeb, scheduleId: web, userId: ANA, resolvedBy: ANA, via: "dashboard" },
      { blockerId: benWeb, scheduleId: web, userId: BEN, resolvedBy: ADMIN, via: "dashboard" },
    ]);
  });
});
