import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import { createSchedule, seedRun } from "../../../test/support/factories.ts";
import { memberParticipation, participationAndMembers, participationByDay } from "./participation.repo.ts";

const TEAM = "T0PARTWIN";
const OTHER = "T0PARTWINB";
const NOW = "2026-03-12T11:00:00Z";
const answer = (blockers = "none") => ({ answers: ["Yesterday", "Today", blockers] as [string, string, string] });

/**
 * get_participation reads its days and its members in one statement (participationAndMembers): the same rows, in the
 * same order, as the dashboard's two queries, with every filter; another workspace's rows never show.
 */
describe("participationAndMembers: the days and the members of a window in one statement", async () => {
  const t = await useTestApp();
  t.clock.set(NOW);
  await t.installTeam(TEAM);
  await t.installTeam(OTHER);
  // Two members share a name (the order falls back to the user id); one was never asked.
  await t.addMember(TEAM, "U0W1", { realName: "Zoe" });
  await t.addMember(TEAM, "U0W2", { realName: "Ana" });
  await t.addMember(TEAM, "U0W3", { realName: "Ana" });
  await t.addMember(TEAM, "U0W4", { realName: "Ben" });
  await t.addMember(TEAM, "U0W5", { realName: "Cy" });
  await t.addMember(OTHER, "U0W1", { realName: "Other Zoe" });
  const s1 = await createSchedule(t.deps.db, t.clock, { teamId: TEAM, channelId: "C0W1", time: "09:00" });
  const s2 = await createSchedule(t.deps.db, t.clock, { teamId: TEAM, channelId: "C0W2", time: "10:00" });
  const so = await createSchedule(t.deps.db, t.clock, { teamId: OTHER, channelId: "C0WO", time: "09:00" });
  const all = ["U0W1", "U0W2", "U0W3", "U0W4"];
  await seedRun(t.deps.db, {
    teamId: TEAM,
    scheduleId: s1,
    date: "2026-03-09",
    asked: all,
    answers: { U0W1: answer(), U0W2: answer("waiting on review"), U0W3: answer() },
  });
  await seedRun(t.deps.db, {
    teamId: TEAM,
    scheduleId: s1,
    date: "2026-03-10",
    asked: all,
    answers: { U0W1: answer(), U0W4: answer("blocked by CI") },
  });
  await seedRun(t.deps.db, {
    teamId: TEAM,
    scheduleId: s2,
    date: "2026-03-10",
    asked: ["U0W2", "U0W4"],
    answers: { U0W2: answer() },
  });
  await seedRun(t.deps.db, { teamId: TEAM, scheduleId: s1, date: "2026-03-11", asked: all, answers: {} });
  await seedRun(t.deps.db, {
    teamId: OTHER,
    scheduleId: so,
    date: "2026-03-10",
    asked: ["U0W1"],
    answers: { U0W1: answer() },
  });

  const both = async (filters: { scheduleId?: string; userId?: string }) => {
    const now = t.clock.now();
    const [daily, members] = await Promise.all([
      participationByDay(t.deps.db, TEAM, "2026-03-01", "2026-03-12", filters, now),
      memberParticipation(t.deps.db, TEAM, "2026-03-01", "2026-03-12", filters, now),
    ]);
    return { daily, members };
  };

  it.each([
    ["no filter", {}],
    ["one standup", { scheduleId: "s1" }],
    ["one member", { userId: "U0W2" }],
    ["a member and a standup", { scheduleId: "s2", userId: "U0W4" }],
    ["a member nobody asked", { userId: "U0W5" }],
  ])("%s: the same rows as the two queries", async (_, given) => {
    const filters = {
      ...("userId" in given ? { userId: given.userId } : {}),
      ...("scheduleId" in given ? { scheduleId: given.scheduleId === "s1" ? s1 : s2 } : {}),
    };
    const one = await participationAndMembers(t.deps.db, TEAM, "2026-03-01", "2026-03-12", filters, t.clock.now());
    expect(one).toEqual(await both(filters));
    // Not vacuous: the unfiltered window has three days and every active member, names tied ordered by id.
    if (Object.keys(filters).length === 0) {
      expect(one.daily.map((d) => [d.date, d.standups.length])).toEqual([
        ["2026-03-09", 1],
        ["2026-03-10", 2],
        ["2026-03-11", 1],
      ]);
      const ours = one.members.filter((m) => m.user_id.startsWith("U0W")); // not the admin installTeam adds
      expect(ours.map((m) => m.user_id)).toEqual(["U0W2", "U0W3", "U0W4", "U0W5", "U0W1"]);
      expect(one.members.find((m) => m.user_id === "U0W2")).toEqual({
        user_id: "U0W2",
        real_name: "Ana",
        asked: 4,
        submitted: 2,
        pct: 50,
        current_streak: 0,
        blockers: 1,
      });
    }
  });

  it("an empty window: no days, and the active members with nothing asked", async () => {
    const one = await participationAndMembers(t.deps.db, TEAM, "2026-02-01", "2026-02-07", {}, t.clock.now());
    expect(one.daily).toEqual([]);
    const ours = one.members.filter((m) => m.user_id.startsWith("U0W")); // not the admin installTeam adds
    expect(ours.map((m) => [m.user_id, m.asked, m.pct, m.current_streak])).toEqual([
      ["U0W2", 0, 0, 0],
      ["U0W3", 0, 0, 0],
      ["U0W4", 0, 0, 0],
      ["U0W5", 0, 0, 0],
      ["U0W1", 0, 0, 0],
    ]);
    const other = await participationAndMembers(t.deps.db, OTHER, "2026-03-01", "2026-03-12", {}, t.clock.now());
    expect(other.members.filter((m) => m.user_id.startsWith("U0W")).map((m) => m.real_name)).toEqual(["Other Zoe"]);
  });
});
