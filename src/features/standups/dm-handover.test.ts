import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { startFakeSlack } from "../../../dev/fake-slack/index.ts";
import { useTestApp } from "../../../test/support/app.ts";
import { createSchedule } from "../../../test/support/factories.ts";
import { failWrites } from "../../../test/support/faults.ts";
import { rows } from "../../db/client.ts";
import { ManualClock } from "../../lib/clock.ts";
import { tick } from "./scheduler.ts";

const TEAM = "T0HANDO";
const RETRY = "U0HRETRY"; // in A and B
const RACE = "U0HRACE"; // in A and C
const TOKYO = "U0HTOKYO"; // in D (member timezone) and E
const LA = "U0HLAX"; // in D: keeps D open after Tokyo's window closes

/**
 * The DM hand-over between two overlapping standups, where it used to go missing: an ask retried after its "waiting"
 * message went out, a hand-over that looked before the waiting ask was recorded, and a member-timezone run that held
 * the DM past the member's own window.
 */
describe("a waiting standup always gets the member's DM", async () => {
  const clock = new ManualClock("2026-03-02T08:00:00Z"); // a Monday
  const fake = await startFakeSlack({ now: () => clock.now().getTime() });
  const t = await useTestApp({ clock, fake });
  await t.installTeam(TEAM);
  for (const [u, tz] of [
    [RETRY, "UTC"],
    [RACE, "UTC"],
    [TOKYO, "Asia/Tokyo"],
    [LA, "America/Los_Angeles"],
  ] as const) {
    t.fake.addUser(TEAM, { id: u, name: u.toLowerCase(), real_name: u, tz });
    await t.addMember(TEAM, u, { tz });
  }
  const channels = { A: [RETRY, RACE], B: [RETRY], C: [RACE], D: [TOKYO, LA], E: [TOKYO] } as const;
  for (const [name, members] of Object.entries(channels)) {
    t.fake.addChannel(TEAM, { id: `C0H${name}`, name: name.toLowerCase(), members: [...members] });
  }
  const schedule = (channel: keyof typeof channels, time: string, days: string, questions: string[]) =>
    createSchedule(t.deps.db, clock, { teamId: TEAM, channelId: `C0H${channel}`, time, days, questions });
  await schedule("A", "09:00", "mon", ["A one?", "A two?"]);
  await schedule("B", "09:30", "mon", ["B one?", "B two?"]);
  await schedule("C", "10:00", "mon", ["C one?", "C two?"]);
  const scheduleD = await schedule("D", "09:30", "tue", ["D one?"]);
  await schedule("E", "10:00", "tue", ["E one?", "E two?"]);
  await t.deps.db.execute(
    sql`update schedules set ask_in_member_timezone = true, schedule_tz = 'Europe/Berlin' where id = ${scheduleD}`,
  );
  // No reminders: the last DM is the one each test looks at.
  await t.deps.db.execute(sql`update schedules set reminder_minutes = null where team_id = ${TEAM}`);

  const botMessages = (u: string) => t.fake.messages(t.fake.dmFor(TEAM, u));
  const textOf = (m: { text: string; blocks?: unknown }) => `${m.text} ${JSON.stringify(m.blocks ?? [])}`;
  const lastBot = (u: string) => textOf(botMessages(u).at(-1)!);
  const botSaid = (u: string, part: string) => botMessages(u).filter((m) => textOf(m).includes(part)).length;
  const runs: Record<string, number> = {};
  const startRun = async (name: string, at: string) => {
    clock.set(at);
    const { started } = await tick(t.deps);
    expect(started).toHaveLength(1);
    runs[name] = started[0]!;
    await t.deps.queue.drain({ only: ["standup.fanout"] });
  };
  const draftOf = async (u: string, run: string) =>
    (
      await rows<{ draft: [string, string][] | null }>(
        t.deps.db,
        sql`select draft from run_participants where run_id = ${runs[run]} and user_id = ${u}`,
      )
    )[0]?.draft?.map((d) => d[1]) ?? [];
  let replies = 0;
  /** The member writes in their DM a minute later; the bot answers it. */
  async function say(u: string, text: string) {
    clock.advance(60_000);
    const before = botMessages(u).length;
    replies += 1;
    const ts = `${Math.floor(clock.now().getTime() / 1000)}.${String(500_000 + replies).padStart(6, "0")}`;
    const res = await t.sendEvent(TEAM, {
      type: "message",
      channel_type: "im",
      channel: t.fake.dmFor(TEAM, u),
      user: u,
      text,
      ts,
    });
    expect(res.statusCode).toBe(200);
    await t.fake.waitFor(() => botMessages(u).length > before);
  }

  it("A asks its first question in both members' DMs", async () => {
    await startRun("A", "2026-03-02T09:00:05Z");
    await t.deps.queue.drain();
    for (const u of channels.A) expect(lastBot(u)).toContain("starting with: *A one?*");
  });

  it("an ask retried after its waiting message went out keeps waiting: B's first question comes by the hand-over", async () => {
    await startRun("B", "2026-03-02T09:30:05Z");
    // The DM channel is known already (from A), so the first write to run_participants is after the post: the first
    // attempt posts "waiting for A" and then fails, as a lost connection after Slack's answer would.
    await t.deps.db.execute(
      sql`update run_participants set dm_channel = ${t.fake.dmFor(TEAM, RETRY)} where run_id = ${runs.B}`,
    );
    // The fan-out's chunk hands this member (another standup open) to the single ask, which meets the fault.
    await t.deps.queue.drain({ only: ["standup.asks"] });
    const fault = await failWrites(t.deps.db, "run_participants", 1);
    await t.deps.queue.drain({ only: ["standup.ask"], maxRounds: 1 });
    await fault.remove();
    expect(lastBot(RETRY)).toContain("once you have finished the <#C0HA> standup");
    // A is over for the member before the ask is retried; the retry runs before the hand-over job.
    await say(RETRY, "skip");
    await t.deps.queue.drain({ only: ["standup.ask"] });
    await t.deps.queue.drain();
    expect(lastBot(RETRY)).toContain("*1/2:* B one?");
    expect(botSaid(RETRY, "once you have finished")).toBe(1);
    expect(botSaid(RETRY, "*1/2:* B one?")).toBe(1);
    await say(RETRY, "b1");
    expect(await draftOf(RETRY, "B")).toEqual(["b1"]);
    expect(lastBot(RETRY)).toContain("B two?");
  });

  it("a hand-over that looked before the waiting ask was recorded still happens, once the ask goes out", async () => {
    await startRun("C", "2026-03-02T10:00:05Z");
    // The ask decides to wait for A, then stops before its message is recorded (the window in which A's hand-over can
    // run and find no waiting ask).
    await t.deps.queue.drain({ only: ["standup.asks"] });
    const fault = await failWrites(t.deps.db, "chat_posts", 1);
    await t.deps.queue.drain({ only: ["standup.ask"], maxRounds: 1 });
    await fault.remove();
    await say(RACE, "skip");
    await t.deps.queue.drain({ only: ["standup.turn"] });
    expect(lastBot(RACE)).not.toContain("C one?");
    await t.deps.queue.drain();
    expect(lastBot(RACE)).toContain("*1/2:* C one?");
    expect(botSaid(RACE, "*1/2:* C one?")).toBe(1);
    await say(RACE, "c1");
    expect(await draftOf(RACE, "C")).toEqual(["c1"]);
  });

  it("a member-timezone run hands the DM over when the member's own window closes, not when the run does", async () => {
    // D (09:30 in each member's zone) is claimed when Tuesday 09:30 arrives at UTC+14; Tokyo is asked at 00:30 UTC.
    await startRun("D", "2026-03-02T19:30:30Z");
    clock.set("2026-03-03T00:30:30Z");
    expect((await tick(t.deps)).membersAsked).toBe(1);
    await t.deps.queue.drain();
    expect(lastBot(TOKYO)).toContain("D one?");
    await startRun("E", "2026-03-03T10:00:05Z");
    await t.deps.queue.drain();
    expect(lastBot(TOKYO)).toContain("once you have finished the <#C0HD> standup");
    // Tokyo's day ends at 15:00 UTC; D stays open until Los Angeles' does (08:00 UTC on Wednesday).
    clock.set("2026-03-03T14:59:30Z");
    await tick(t.deps);
    await t.deps.queue.drain();
    expect(lastBot(TOKYO)).toContain("once you have finished the <#C0HD> standup");
    clock.set("2026-03-03T15:00:30Z");
    const closing = await tick(t.deps);
    // Before the hand-over job runs, another pass must not claim it again.
    clock.set("2026-03-03T15:01:00Z");
    const next = await tick(t.deps);
    await t.deps.queue.drain();
    expect(lastBot(TOKYO)).toContain("*1/2:* E one?");
    expect(botSaid(TOKYO, "*1/2:* E one?")).toBe(1);
    expect(closing).toMatchObject({ closed: 0, turnsHandedOver: 1 });
    expect(next.turnsHandedOver).toBe(0);
    await say(TOKYO, "e1");
    expect(await draftOf(TOKYO, "E")).toEqual(["e1"]);
    expect(await draftOf(TOKYO, "D")).toEqual([]);
  });

  it("nothing unexpected was called", () => {
    expect(t.fake.unexpected).toEqual([]);
  });
});
