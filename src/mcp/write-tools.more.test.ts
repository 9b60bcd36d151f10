import { sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { useTestApp } from "../../test/support/app.ts";
import { seedBlocker } from "../../test/support/blockers.ts";
import { createSchedule } from "../../test/support/factories.ts";
import { useMcpClients } from "../../test/support/mcp-client.ts";
import { rows } from "../db/client.ts";
import { DAILY_KUDOS_LIMIT } from "../features/kudos/index.ts";
import { createKey } from "../features/mcp-keys/index.ts";
import { tick } from "../features/standups/index.ts";

const A = "T0MCPWA";
const B = "T0MCPWB";
const ADMIN = "U0XADMIN";
const ANA = "U0XANA";
const BEN = "U0XBEN";
const ZED = "U0XZED";
const BOTH = ["standups:read", "standups:write"] as const;

/** Time off, kudos and blockers from an MCP client, and no write ever reaching another workspace (issue 26). */
describe("MCP write tools: time off, kudos, blockers, tenancy", async () => {
  const t = await useTestApp();
  t.clock.set("2026-03-01T12:00:00Z"); // Sunday
  await t.installTeam(A, { name: "Acme", installer: ADMIN });
  await t.installTeam(B, { name: "Bravo", installer: "U0XBADMIN" });
  t.fake.addUser(A, { id: ADMIN, name: "boss", real_name: "Boss" });
  await t.addMember(A, ANA, { realName: "Ana" });
  await t.addMember(A, BEN, { realName: "Ben" });
  await t.addMember(B, ZED, { realName: "Zed" });
  t.fake.addChannel(A, { id: "C0XSTAND", name: "standup", members: [ANA, BEN, `B${A}BOT`] });
  t.fake.addChannel(B, { id: "C0XZEBRA", name: "zebra", members: [ZED, `B${B}BOT`] });
  const scheduleA = await createSchedule(t.deps.db, t.clock, { teamId: A, channelId: "C0XSTAND", time: "09:00" });
  const scheduleB = await createSchedule(t.deps.db, t.clock, { teamId: B, channelId: "C0XZEBRA", time: "09:00" });
  t.clock.set("2026-03-02T09:00:10Z"); // Monday
  await tick(t.deps);
  await t.deps.queue.drain();
  const [runB] = await rows<{ id: number }>(
    t.deps.db,
    sql`select id::int as id from standup_runs where team_id = ${B} and schedule_id = ${scheduleB}`,
  );
  const blocker = (teamId: string, scheduleId: string, userId: string, text: string) =>
    seedBlocker(t.deps.db, { teamId, scheduleId, userId, text, openedDate: "2026-02-27" });
  const anaBlocker = await blocker(A, scheduleA, ANA, "Waiting on credentials");
  const benBlocker = await blocker(A, scheduleA, BEN, "Staging is down");
  const zedBlocker = await blocker(B, scheduleB, ZED, "Zebra legal");
  const mcp = await useMcpClients(t);
  const keyOf = async (teamId: string, userId: string) =>
    mcp.connect((await createKey(t.deps, teamId, userId, { name: userId, scopes: [...BOTH] })).key);
  const ana = await keyOf(A, ANA);
  const admin = await keyOf(A, ADMIN);
  const zed = await keyOf(B, ZED);
  const timeOffOf = (userId: string) =>
    rows<{ start_date: string; end_date: string; reason: string; via: string | null }>(
      t.deps.db,
      sql`select start_date::text, end_date::text, reason, via from time_off where user_id = ${userId}
          order by start_date`,
    );
  // Each test in a minute of its own: the per-member write limit is tested in write-tools.test.ts.
  beforeEach(() => t.clock.advance(60_000));

  it("set_time_off sets the member's own time off via MCP, merged with ranges it touches, and clears it", async () => {
    const set = await mcp.call(ana, "set_time_off", {
      start_date: "2026-03-10",
      end_date: "2026-03-12",
      reason: "Holiday",
    });
    expect(set.json.set).toMatchObject({ start_date: "2026-03-10", end_date: "2026-03-12", reason: "Holiday" });
    expect(await timeOffOf(ANA)).toEqual([
      { start_date: "2026-03-10", end_date: "2026-03-12", reason: "Holiday", via: "mcp" },
    ]);
    // The dashboard's time-off list says where it came from.
    const cookie = await t.signIn(A, ANA);
    const listed = await t.inject({ method: "GET", url: "/dashboard/api/time-off", headers: { cookie } });
    expect((listed.json() as { items: unknown[] }).items).toEqual([
      expect.objectContaining({ start_date: "2026-03-10", via: "mcp", created_by: ANA }),
    ]);
    const merged = await mcp.call(ana, "set_time_off", { start_date: "2026-03-13", end_date: "2026-03-14" });
    expect(merged.json.time_off).toEqual([
      { id: expect.any(Number), start_date: "2026-03-10", end_date: "2026-03-14", reason: "Holiday" },
    ]);
    const cleared = await mcp.call(ana, "set_time_off", { clear: true, start_date: "2026-03-11" });
    expect(cleared.json).toMatchObject({ cleared: { start_date: "2026-03-10" }, time_off: [] });
    expect(await timeOffOf(ANA)).toEqual([]);
    // Away today, then back: the range covering today ends before it (as /upbeat back).
    await mcp.call(ana, "set_time_off", { start_date: "2026-03-02", end_date: "2026-03-04" });
    const back = await mcp.call(ana, "set_time_off", { clear: true });
    expect(back.json.cleared).toMatchObject({ start_date: "2026-03-02", end_date: "2026-03-04", ends_on: null });
    expect(await timeOffOf(ANA)).toEqual([]);
  });

  it("set_time_off refuses what the dashboard refuses, in plain words", async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ start_date: "2026-03-12", end_date: "2026-03-10" }, /end_date: must be on or after start_date/],
      [{ start_date: "2026-01-01", end_date: "2026-01-02" }, /end_date: must not be in the past/],
      [{ start_date: "2026-02-30", end_date: "2026-03-02" }, /start_date 2026-02-30 is not a real date/],
      [{ start_date: "2026-03-10" }, /start_date and end_date are required/],
      [{ start_date: "2026-03-10", end_date: "2028-03-10" }, /a range covers at most/],
      [{ clear: true }, /You are not on time off today/],
      [{ clear: true, start_date: "2026-04-01" }, /no current or upcoming time off covering 2026-04-01/],
    ];
    for (const [args, message] of cases) {
      const res = await mcp.call(ana, "set_time_off", args);
      expect(res.isError, JSON.stringify(args)).toBe(true);
      expect(res.text).toMatch(message);
    }
    expect(await timeOffOf(ANA)).toEqual([]);
  });

  it("give_kudos gives one kudo with source mcp in the giver's standup channel, within the same limits", async () => {
    const res = await mcp.call(ana, "give_kudos", { to_user_id: BEN, message: "Thanks for the review" });
    expect(res.json).toEqual({
      kudo_id: expect.any(Number),
      to_user: BEN,
      message: "Thanks for the review",
      channel_id: "C0XSTAND",
    });
    const [kudo] = await rows<{ source: string; source_key: string; from_user: string }>(
      t.deps.db,
      sql`select source, source_key, from_user from kudos where id = ${res.json.kudo_id as number}`,
    );
    expect(kudo).toMatchObject({ source: "mcp", from_user: ANA, source_key: expect.stringMatching(/^mcp:.+/) });
    expect((await mcp.call(ana, "give_kudos", { to_user_id: ANA, message: "me" })).text).toMatch(/yourself/);
    const long = await mcp.call(ana, "give_kudos", { to_user_id: BEN, message: "é".repeat(501) });
    expect(long.text).toMatch(/message is 501 characters; at most 500/);
    for (let i = 1; i < DAILY_KUDOS_LIMIT; i++) {
      expect((await mcp.call(ana, "give_kudos", { to_user_id: BEN, message: `Again ${i}` })).isError).toBe(false);
    }
    const limit = await mcp.call(ana, "give_kudos", { to_user_id: BEN, message: "One more" });
    expect(limit.text).toMatch(`You have given your ${DAILY_KUDOS_LIMIT} kudos for today`);
    // The dashboard's kudos feed lists them like any other (source is no field of it).
    const cookie = await t.signIn(A, ADMIN);
    const feed = await t.inject({ method: "GET", url: "/dashboard/api/kudos", headers: { cookie } });
    expect(feed.statusCode, feed.body).toBe(200);
    expect(feed.body).toContain("Thanks for the review");
  });

  it("resolve_blocker: the member resolves their own, not someone else's; an admin resolves anyone's", async () => {
    const own = await mcp.call(ana, "resolve_blocker", { blocker_id: anaBlocker, note: "Got them" });
    expect(own.json).toMatchObject({
      blocker_id: anaBlocker,
      user_id: ANA,
      status: "resolved",
      resolved_by: ANA,
      resolution_note: "Got them",
    });
    const [row] = await rows<{ resolved_via: string }>(
      t.deps.db,
      sql`select resolved_via from blockers where id = ${anaBlocker}`,
    );
    expect(row!.resolved_via).toBe("mcp");
    const again = await mcp.call(ana, "resolve_blocker", { blocker_id: anaBlocker });
    expect(again.text).toMatch(/already resolved/);
    const others = await mcp.call(ana, "resolve_blocker", { blocker_id: benBlocker });
    expect(others.text).toBe(`Blocker ${benBlocker} is Ben's: only Ben or a workspace admin can resolve it.`);
    const byAdmin = await mcp.call(admin, "resolve_blocker", { blocker_id: benBlocker });
    expect(byAdmin.json).toMatchObject({ user_id: BEN, resolved_by: ADMIN, status: "resolved" });
  });

  it("a key of one workspace cannot submit, skip, resolve or give kudos in another: not found, nothing changed", async () => {
    const before = await rows(t.deps.db, sql`select * from responses where team_id = ${B}`);
    const calls: [string, Record<string, unknown>, RegExp][] = [
      ["submit_standup", { run_id: runB!.id, answers: ["a", "b", "c"] }, /is not a run of this workspace/],
      ["submit_standup", { schedule_id: scheduleB, answers: ["a", "b", "c"] }, /no open run of standup/],
      ["skip_standup", { run_id: runB!.id }, /is not a run of this workspace \(not found\)/],
      ["resolve_blocker", { blocker_id: zedBlocker }, /is not a blocker of this workspace \(not found\)/],
      ["give_kudos", { to_user_id: ZED, message: "Cross-team thanks" }, /U0XZED is not an active member/],
    ];
    for (const [tool, args, message] of calls) {
      const res = await mcp.call(admin, tool, args);
      expect(res.isError, tool).toBe(true);
      expect(res.text).toMatch(message);
    }
    expect(await rows(t.deps.db, sql`select * from responses where team_id = ${B}`)).toEqual(before);
    const [z] = await rows<{ status: string }>(t.deps.db, sql`select status from blockers where id = ${zedBlocker}`);
    expect(z!.status).toBe("open");
    const [p] = await rows<{ status: string }>(
      t.deps.db,
      sql`select status from run_participants where run_id = ${runB!.id} and user_id = ${ZED}`,
    );
    expect(p!.status).toBe("asked");
    expect(await rows(t.deps.db, sql`select 1 from kudos where team_id = ${B} or to_user = ${ZED}`)).toEqual([]);
    // B's own member still writes there.
    const zedAnswer = await mcp.call(zed, "submit_standup", { answers: ["Zebras", "More zebras", "none"] });
    expect(zedAnswer.json).toMatchObject({ run_id: runB!.id, created: true });
  });
});
