import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import { createSchedule } from "../../../test/support/factories.ts";
import { submitStandup } from "../../../test/support/standup-answers.ts";
import { shiftDate } from "../calendar/index.ts";
import { tick } from "../standups/index.ts";

const TEAM = "T0AWAY";
const CHANNEL = "C0AWAYSTANDUP";
const ANA = "U0ANA";
const BEN = "U0BEN";
const ADMIN = "U0AWAYADMIN";

interface MemberStats {
  user_id: string;
  asked: number;
  submitted: number;
  pct: number;
  current_streak: number;
}

/**
 * The acceptance line: a member away for a week gets no DM (ask or reminder) on any of the week's runs, their
 * participation and streak are what they were without those days, and the summary and /today list them as away.
 */
describe("a member away for a week", async () => {
  const t = await useTestApp();
  t.clock.set("2026-03-02T08:00:00Z"); // a Monday
  await t.installTeam(TEAM, { installer: ADMIN });
  for (const [id, name] of [
    [ANA, "Ana"],
    [BEN, "Ben"],
  ] as const) {
    t.fake.addUser(TEAM, { id, name: name.toLowerCase(), real_name: name });
    await t.addMember(TEAM, id, { realName: name });
  }
  t.fake.addChannel(TEAM, { id: CHANNEL, name: "standup", members: [ANA, BEN, "B0AWAYBOT"] });
  await createSchedule(t.deps.db, t.clock, { teamId: TEAM, channelId: CHANNEL, time: "09:00", tz: "UTC" });
  const admin = await t.signIn(TEAM, ADMIN);

  const dmsTo = (user: string) => {
    const dm = t.fake.dmFor(TEAM, user);
    return dm ? t.fake.callsTo("chat.postMessage").filter((c) => c.ok && c.args.channel === dm).length : 0;
  };
  const summaries = () =>
    t.fake
      .callsTo("chat.postMessage")
      .filter((c) => c.ok && c.args.channel === CHANNEL && String(c.args.text).startsWith("Standup closed"));
  const stats = async (from: string, to: string): Promise<Map<string, MemberStats>> => {
    const res = await t.inject({
      method: "GET",
      url: `/dashboard/api/analytics?from=${from}&to=${to}`,
      headers: { cookie: admin },
    });
    expect(res.statusCode).toBe(200);
    const members = (res.json() as { members: MemberStats[] }).members;
    return new Map(members.map((m) => [m.user_id, m]));
  };

  /** One weekday: the 09:00 run, the 11:00 reminder, answers by `answering`, and the close (summary) at midnight. */
  const runDay = async (date: string, answering: string[], during?: () => Promise<void>) => {
    t.clock.set(`${date}T09:00:10Z`);
    const [runId] = (await tick(t.deps)).started;
    expect(runId, date).toBeDefined();
    await t.deps.queue.drain();
    for (const user of answering) {
      expect((await submitStandup(t, TEAM, user, runId!, ["did", "do", "none"])).statusCode).toBe(200);
    }
    await t.deps.queue.drain();
    t.clock.set(`${date}T11:00:10Z`);
    await tick(t.deps);
    await t.deps.queue.drain();
    await during?.();
    t.clock.set(`${shiftDate(date, 1)}T00:00:10Z`);
    expect((await tick(t.deps)).closed, date).toBe(1);
    await t.deps.queue.drain();
  };

  const week1 = ["2026-03-02", "2026-03-03", "2026-03-04", "2026-03-05", "2026-03-06"];
  const week2 = ["2026-03-09", "2026-03-10", "2026-03-11", "2026-03-12", "2026-03-13"];
  let before: Map<string, MemberStats>;

  it("week 1: both are asked and answer every day", async () => {
    for (const date of week1) await runDay(date, [ANA, BEN]);
    // One ask, one confirmation a day; no reminder (they answered).
    expect(dmsTo(ANA)).toBe(10);
    before = await stats("2026-03-02", "2026-03-06");
    expect(before.get(ANA)).toMatchObject({ asked: 5, submitted: 5, pct: 100, current_streak: 5 });
  });

  it("Ana sets the week away with the slash command", async () => {
    t.clock.set("2026-03-07T10:00:00Z");
    const res = await t.sendCommand(TEAM, ANA, "away 2026-03-09 2026-03-13 Ski trip");
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ response_type: "ephemeral" });
    expect(res.json().text).toContain("2026-03-09 to 2026-03-13 (Ski trip)");
  });

  it("week 2: no DM to Ana (no ask, no reminder), away in /today and in each summary", async () => {
    const dmsBefore = dmsTo(ANA);
    const summariesBefore = summaries().length;
    for (const date of week2) {
      await runDay(date, [BEN], async () => {
        const res = await t.inject({ method: "GET", url: "/dashboard/api/today", headers: { cookie: admin } });
        expect(res.statusCode).toBe(200);
        const [run] = (
          res.json() as {
            standups: {
              date: string;
              asked: number;
              answered: number;
              not_answered: { user_id: string; status: string }[];
            }[];
          }
        ).standups;
        expect(run).toMatchObject({ date, asked: 1, answered: 1, away: 1, asked_later: 0 });
        // Away until the last day of the ski trip: the overview says so instead of "not answered".
        expect(run!.not_answered).toEqual([
          {
            user_id: ANA,
            real_name: "Ana",
            status: "away",
            ask_at: null,
            timezone: expect.any(String),
            away_until: "2026-03-13",
          },
        ]);
      });
      expect(dmsTo(ANA), date).toBe(dmsBefore);
    }
    const week2Summaries = summaries().slice(summariesBefore);
    expect(week2Summaries).toHaveLength(5);
    for (const s of week2Summaries) {
      expect(s.args.text).toBe("Standup closed: 1/1 answered (100%)");
      const blocks = JSON.stringify(s.args.blocks);
      expect(blocks).toContain("Away: Ana");
      expect(blocks).not.toContain("Did not answer");
    }
  });

  it("participation and streak are unchanged by the week away; Ben's week counts", async () => {
    const after = await stats("2026-03-02", "2026-03-13");
    expect(after.get(ANA)).toEqual(before.get(ANA));
    expect(after.get(BEN)).toMatchObject({ asked: 10, submitted: 10, current_streak: 10 });
    const res = await t.inject({
      method: "GET",
      url: "/dashboard/api/analytics?from=2026-03-09&to=2026-03-13",
      headers: { cookie: admin },
    });
    const daily = (res.json() as { participation: { daily: { date: string; submitted: number; total: number }[] } })
      .participation.daily;
    expect(daily.map((d) => [d.date, d.submitted, d.total])).toEqual(week2.map((d) => [d, 1, 1]));
  });

  it("back on Monday: asked again, and the streak goes on from 5 to 6", async () => {
    const dmsBefore = dmsTo(ANA);
    await runDay("2026-03-16", [ANA, BEN]);
    expect(dmsTo(ANA)).toBe(dmsBefore + 2);
    const after = await stats("2026-03-02", "2026-03-16");
    expect(after.get(ANA)).toMatchObject({ asked: 6, submitted: 6, pct: 100, current_streak: 6 });
  });
});
