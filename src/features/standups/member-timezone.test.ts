import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import { iso, memberTimezoneTeam } from "../../../test/support/member-timezone.ts";
import { rows } from "../../db/client.ts";

describe("a member-timezone standup across Tokyo, Berlin and Los Angeles", async () => {
  const t = await useTestApp();
  t.clock.set("2026-03-01T12:00:00Z"); // Sunday; Berlin is on CET and Los Angeles on PST until 8 March
  const team = await memberTimezoneTeam(
    t,
    "T0MTZ",
    { U0AIKO: "Asia/Tokyo", U0TOM: "Europe/Berlin", U0ETHAN: "America/Los_Angeles" },
    { days: "mon" },
  );
  // In the workspace but not in the channel: Honolulu's later day must not keep the run open.
  await t.addMember("T0MTZ", "U0MAUI", { tz: "Pacific/Honolulu" });
  let runId = 0;

  it("claims Monday's run when 09:30 arrives in UTC+14 and plans each member's own times, asking nobody yet", async () => {
    expect((await team.tickAt("2026-03-01T19:29:50Z")).started).toEqual([]);
    const claimed = await team.tickAt("2026-03-01T19:30:10Z", "2026-03-01T19:30:40Z");
    expect(claimed.started).toHaveLength(1);
    runId = claimed.started[0]!;
    const [run] = await team.runs();
    expect(run).toMatchObject({ local_date: "2026-03-02", status: "open", member_timezone: true });
    // Open until the last window ends: the end of Monday in Los Angeles.
    expect(iso(run!.closes_at)).toBe("2026-03-03T08:00:00.000Z");
    const planned = (await team.participants(runId)).map((p) => ({
      ...p,
      ask_at: iso(p.ask_at),
      remind_at: iso(p.remind_at),
      closes_at: iso(p.closes_at),
    }));
    expect(planned).toEqual([
      {
        user_id: "U0AIKO",
        status: "pending",
        ask_at: "2026-03-02T00:30:00.000Z",
        remind_at: "2026-03-02T02:30:00.000Z",
        closes_at: "2026-03-02T15:00:00.000Z",
        local_date: "2026-03-02",
      },
      {
        user_id: "U0TOM",
        status: "pending",
        ask_at: "2026-03-02T08:30:00.000Z",
        remind_at: "2026-03-02T10:30:00.000Z",
        closes_at: "2026-03-02T23:00:00.000Z",
        local_date: "2026-03-02",
      },
      {
        user_id: "U0ETHAN",
        status: "pending",
        ask_at: "2026-03-02T17:30:00.000Z",
        remind_at: "2026-03-02T19:30:00.000Z",
        closes_at: "2026-03-03T08:00:00.000Z",
        local_date: "2026-03-02",
      },
    ]);
    expect(t.fake.callsTo("chat.postMessage")).toEqual([]);
  });

  it("asks Tokyo at 00:30Z (09:30 JST) and starts the channel thread with that first ask", async () => {
    expect((await team.tickAt("2026-03-02T00:29:50Z")).membersAsked).toBe(0);
    expect((await team.tickAt("2026-03-02T00:30:10Z", "2026-03-02T00:30:40Z")).membersAsked).toBe(1);
    expect(team.parents().map((m) => m.text)).toEqual(["Standup for Monday 2 March 2026"]);
    expect(team.dms("U0AIKO")).toHaveLength(1);
    expect(JSON.stringify(team.dms("U0AIKO")[0]!.blocks)).toContain("Monday 2 March 2026");
    expect(team.dms("U0TOM")).toEqual([]);
    expect(team.dms("U0ETHAN")).toEqual([]);
  });

  it("Tokyo's answer is dated Monday and threaded under the parent; no reminder once answered", async () => {
    t.clock.set("2026-03-02T01:00:00Z");
    expect((await team.submit("U0AIKO", runId, ["Specs", "Build", "none"])).statusCode).toBe(200);
    await t.deps.queue.drain();
    expect((await team.tickAt("2026-03-02T02:30:10Z")).membersReminded).toBe(0);
    const parentTs = team.parents()[0]!.ts;
    const replies = t.fake.messages(team.channelId).filter((m) => m.thread_ts === parentTs);
    expect(replies.map((m) => JSON.stringify(m.blocks)).join()).toContain("U0AIKO");
  });

  it("asks Berlin at 08:30Z (09:30 CET) and reminds Berlin two hours later on its own clock, once", async () => {
    expect((await team.tickAt("2026-03-02T08:29:50Z")).membersAsked).toBe(0);
    expect((await team.tickAt("2026-03-02T08:30:10Z")).membersAsked).toBe(1);
    expect(team.dms("U0TOM")).toHaveLength(1);
    expect((await team.tickAt("2026-03-02T10:29:50Z")).membersReminded).toBe(0);
    expect((await team.tickAt("2026-03-02T10:30:10Z", "2026-03-02T10:30:40Z")).membersReminded).toBe(1);
    expect(team.dms("U0TOM", "Reminder")).toHaveLength(1);
    expect(team.dms("U0AIKO", "Reminder")).toEqual([]);
    expect(team.dms("U0ETHAN")).toEqual([]);
  });

  it("asks Los Angeles at 17:30Z (09:30 PST) and reminds at 19:30Z; still one parent message", async () => {
    expect((await team.tickAt("2026-03-02T17:29:50Z")).membersAsked).toBe(0);
    expect((await team.tickAt("2026-03-02T17:30:10Z")).membersAsked).toBe(1);
    expect((await team.tickAt("2026-03-02T19:30:10Z")).membersReminded).toBe(1);
    expect(team.dms("U0ETHAN")).toHaveLength(1);
    expect(team.dms("U0ETHAN", "Reminder")).toHaveLength(1);
    for (const u of ["U0AIKO", "U0TOM"]) expect(team.dms(u), u).toHaveLength(1);
    expect(team.parents()).toHaveLength(1);
  });

  it("Berlin's window ends at Berlin midnight: Tom's answer after it is late, though the run stays open", async () => {
    t.clock.set("2026-03-02T23:30:00Z");
    const res = await team.submit("U0TOM", runId, ["late", "late", "late"]);
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe("");
    const [tom] = await rows<{ late: boolean }>(t.deps.db, sql`select late from responses where user_id = 'U0TOM'`);
    expect(tom?.late).toBe(true);
    expect((await team.runs())[0]!.status).toBe("open");
  });

  it("Los Angeles answers at 23:00 PST, already Tuesday in UTC: the answer is dated Monday, in Monday's thread", async () => {
    t.clock.set("2026-03-03T07:00:00Z");
    expect((await team.submit("U0ETHAN", runId, ["Calls", "Docs", "-"])).statusCode).toBe(200);
    await t.deps.queue.drain();
    const dates = await rows<{ user_id: string; standup_date: string }>(
      t.deps.db,
      sql`select user_id, standup_date::text as standup_date from responses where team_id = ${team.teamId} order by user_id`,
    );
    expect(dates).toEqual([
      { user_id: "U0AIKO", standup_date: "2026-03-02" },
      { user_id: "U0ETHAN", standup_date: "2026-03-02" },
      { user_id: "U0TOM", standup_date: "2026-03-02" },
    ]);
    const parentTs = team.parents()[0]!.ts;
    expect(t.fake.messages(team.channelId).filter((m) => m.thread_ts === parentTs)).toHaveLength(3);
  });

  it("closes once, with one summary, only when the last window (Los Angeles) ends", async () => {
    expect((await team.tickAt("2026-03-03T07:59:50Z")).closed).toBe(0);
    expect((await team.tickAt("2026-03-03T08:00:10Z", "2026-03-03T08:00:40Z")).closed).toBe(1);
    const summaries = t.fake.messages(team.channelId).filter((m) => m.text.startsWith("Standup closed"));
    // Tom's late answer counts as answered.
    expect(summaries.map((m) => m.text)).toEqual(["Standup closed: 3/3 answered (100%)"]);
    expect(summaries[0]!.thread_ts).toBe(team.parents()[0]!.ts);
    expect(JSON.stringify(summaries[0]!.blocks)).not.toContain("Did not answer");
    // Late answers end when Tom's next ask starts (this standup runs on Mondays: 9 March, 09:30 CET, 08:30Z).
    t.clock.set("2026-03-09T08:29:00Z");
    expect((await team.submit("U0TOM", runId, ["later", "later", "later"])).body).toBe("");
    t.clock.set("2026-03-09T08:30:30Z");
    const refused = await team.submit("U0TOM", runId, ["too late", "too late", "too late"]);
    expect(refused.json()).toMatchObject({
      response_action: "errors",
    });
    expect(team.parents()).toHaveLength(1);
  });
});
