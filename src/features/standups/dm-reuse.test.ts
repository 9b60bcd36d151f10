import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import { createSchedule } from "../../../test/support/factories.ts";
import { tick } from "./scheduler.ts";

/** A person's DM with the app is opened once: later standups (of any schedule) post in the same conversation. */
describe("the DM of a standup ask", async () => {
  const t = await useTestApp();
  const TEAM = "T0DMRE";
  await t.installTeam(TEAM);
  for (const u of ["U0DMA", "U0DMB"]) {
    t.fake.addUser(TEAM, { id: u, name: u.toLowerCase(), real_name: u });
    await t.addMember(TEAM, u);
  }
  t.fake.addChannel(TEAM, { id: "C0DMRE", name: "daily", members: ["U0DMA", "U0DMB"] });
  t.fake.addChannel(TEAM, { id: "C0DMRE2", name: "weekly", members: ["U0DMA"] });
  await createSchedule(t.deps.db, t.clock, { teamId: TEAM, channelId: "C0DMRE", time: "09:00", tz: "UTC" });

  const opens = () => t.fake.callsTo("conversations.open").filter((c) => c.teamId === TEAM);
  const asksIn = (userId: string) =>
    t.fake.messages(t.fake.dmFor(TEAM, userId)).filter((m) => m.text.startsWith("Time for standup")).length;

  it("is opened for someone's first standup only; the next runs, and another standup, reuse it", async () => {
    t.clock.set("2026-06-01T09:00:05Z"); // a Monday
    expect((await tick(t.deps)).started).toHaveLength(1);
    await t.deps.queue.drain();
    expect(
      opens()
        .map((c) => c.args.users)
        .sort(),
    ).toEqual(["U0DMA", "U0DMB"]);
    expect(asksIn("U0DMA")).toBe(1);

    t.clock.set("2026-06-02T09:00:05Z");
    expect((await tick(t.deps)).started).toHaveLength(1);
    await createSchedule(t.deps.db, t.clock, { teamId: TEAM, channelId: "C0DMRE2", time: "10:00", tz: "UTC" });
    t.clock.set("2026-06-02T10:00:05Z");
    expect((await tick(t.deps)).started).toHaveLength(1);
    await t.deps.queue.drain();
    expect(opens()).toHaveLength(2);
    expect(asksIn("U0DMA")).toBe(3);
    expect(asksIn("U0DMB")).toBe(2);
  });
});
