import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import { createSchedule } from "../../../test/support/factories.ts";
import { rows } from "../../db/client.ts";
import type { DomainEvent } from "../../jobs/events.ts";
import { submitResponse } from "./answers.service.ts";
import { tick } from "./scheduler.ts";

const TEAM = "T0EVT";
const CHANNEL = "C0EVT";
const PEOPLE = ["U0EVA", "U0EVB"];

describe("standup events for rules and webhooks", async () => {
  const t = await useTestApp();
  t.clock.set("2026-03-02T08:59:30Z"); // a Monday
  await t.installTeam(TEAM);
  for (const id of PEOPLE) {
    t.fake.addUser(TEAM, { id, name: id.toLowerCase(), real_name: id });
    await t.addMember(TEAM, id);
  }
  t.fake.addChannel(TEAM, { id: CHANNEL, name: "events", members: [...PEOPLE] });
  const scheduleId = await createSchedule(t.deps.db, t.clock, { teamId: TEAM, channelId: CHANNEL, time: "09:00" });
  t.clock.set("2026-03-02T09:00:10Z");
  const [runId] = (await tick(t.deps)).started;
  await t.deps.queue.drain();

  const seen: DomainEvent[] = [];
  t.deps.events.onAny(async (_tx, event) => {
    seen.push(event);
  });
  const answer = (userId: string, blockers: string) =>
    submitResponse(t.deps, {
      teamId: TEAM,
      runId: runId!,
      userId,
      answers: ["Shipped", "Review", blockers],
      mood: null,
    });
  const types = () => seen.map((e) => `${e.type}:${(e.data as { userId?: string }).userId ?? ""}`);

  it("a first answer is standup.submitted, an edit standup.updated, both in the answer's terms", async () => {
    seen.length = 0;
    const first = await answer("U0EVA", "none");
    expect(first.ok).toBe(true);
    await answer("U0EVA", "nothing");
    expect(types()).toEqual(["standup.submitted:U0EVA", "standup.updated:U0EVA"]);
    expect(seen[0]).toMatchObject({
      teamId: TEAM,
      at: t.clock.now(),
      data: { runId, scheduleId, userId: "U0EVA", standupDate: "2026-03-02" },
    });
    expect((seen[0]!.data as { responseId: number }).responseId).toBe(first.ok ? first.responseId : -1);
  });

  it("blocker.reported fires once per response: when an edit adds the blocker, never again on later edits", async () => {
    seen.length = 0;
    await answer("U0EVA", "Waiting on the API keys");
    await answer("U0EVA", "Still waiting on the API keys");
    await answer("U0EVA", "none");
    await answer("U0EVA", "Blocked again");
    expect(types()).toEqual([
      "standup.updated:U0EVA",
      "blocker.reported:U0EVA",
      "standup.updated:U0EVA",
      "standup.updated:U0EVA",
      // The edit to "none" resolves the tracked blocker item; "Blocked again" opens a new one (no event: the
      // response already reported a blocker once).
      "blocker.resolved:U0EVA",
      "standup.updated:U0EVA",
    ]);
  });

  it("a first answer with a blocker reports it at once", async () => {
    seen.length = 0;
    await answer("U0EVB", "No access to prod");
    expect(types()).toEqual(["standup.submitted:U0EVB", "blocker.reported:U0EVB"]);
  });

  it("a subscriber that fails rolls the answer back with it: the event exists exactly when the change does", async () => {
    const before = await rows<{ version: number }>(
      t.deps.db,
      sql`select version from responses where run_id = ${runId} and user_id = 'U0EVB'`,
    );
    let fail = true;
    t.deps.events.on("standup.updated", async () => {
      if (fail) throw new Error("subscriber down");
    });
    await expect(answer("U0EVB", "still no access")).rejects.toThrow("subscriber down");
    fail = false;
    const after = await rows<{ version: number }>(
      t.deps.db,
      sql`select version from responses where run_id = ${runId} and user_id = 'U0EVB'`,
    );
    expect(after).toEqual(before);
  });

  it("standup.completed fires once when the run closes, however often the scheduler looks", async () => {
    seen.length = 0;
    t.clock.set("2026-03-03T00:00:30Z");
    await Promise.all([tick(t.deps), tick(t.deps)]);
    await tick(t.deps);
    const completed = seen.filter((e) => e.type === "standup.completed");
    expect(completed).toHaveLength(1);
    expect(completed[0]).toMatchObject({ teamId: TEAM, data: { runId, scheduleId, standupDate: "2026-03-02" } });
  });
});
