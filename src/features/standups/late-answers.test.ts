import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import { createSchedule, seedRun } from "../../../test/support/factories.ts";
import { submitStandup } from "../../../test/support/standup-answers.ts";
import { rows } from "../../db/client.ts";
import { tick } from "./scheduler.ts";

const TEAM = "T0LATE";
const CHANNEL = "C0LATE";

/** Late answers: after the member's window on a run closed, until the standup's next run starts. */
describe("answering a standup late", async () => {
  const t = await useTestApp();
  t.clock.set("2026-03-02T09:00:10Z"); // Monday
  await t.installTeam(TEAM);
  const people = ["U0LANA", "U0LBEN", "U0LCAT", "U0LDAN"];
  for (const id of people) {
    t.fake.addUser(TEAM, { id, name: id.toLowerCase(), real_name: id });
    await t.addMember(TEAM, id);
  }
  t.fake.addChannel(TEAM, { id: CHANNEL, name: "late", members: [...people, "BT0LATEBOT"] });
  const scheduleId = await createSchedule(t.deps.db, t.clock, { teamId: TEAM, channelId: CHANNEL, time: "09:00" });
  // Ben's answer of last Friday: its "today" pre-fills the default yesterday question.
  await seedRun(t.deps.db, {
    teamId: TEAM,
    scheduleId,
    date: "2026-02-27",
    asked: ["U0LBEN", "U0LCAT"],
    answers: { U0LBEN: { answers: ["Reviews", "Fix the login bug", "none"] }, U0LCAT: { answers: ["a", "b", "c"] } },
  });
  const runId = (await tick(t.deps)).started[0]!;
  await t.deps.queue.drain();
  const responseOf = async (user: string) =>
    (
      await rows<{ late: boolean; version: number; answers: string[] }>(
        t.deps.db,
        sql`select late, version, answers from responses where team_id = ${TEAM} and user_id = ${user}
            and standup_date = '2026-03-02'`,
      )
    )[0];
  let clicks = 0;
  const clickAnswer = async (user: string) => {
    const before = t.fake.callsTo("views.open").length;
    await t.deliver.interaction({
      type: "block_actions",
      team: { id: TEAM, domain: "late" },
      user: { id: user, team_id: TEAM },
      api_app_id: "A0UPBEAT",
      token: "legacy",
      trigger_id: `trigger.late.${++clicks}`,
      channel: { id: t.fake.dmFor(TEAM, user) },
      actions: [{ type: "button", action_id: "standup_answer", block_id: "b", value: String(runId), action_ts: "1" }],
    });
    await t.fake.waitFor((calls) => calls.filter((c) => c.method === "views.open").length > before);
    return JSON.stringify(t.fake.callsTo("views.open").at(-1)!.args.view);
  };

  it("the Answer button pre-fills the yesterday question with the member's previous 'today', not on an edit", async () => {
    const view = JSON.parse(await clickAnswer("U0LBEN")) as {
      blocks: { block_id?: string; element?: { initial_value?: string } }[];
    };
    expect(view.blocks.find((b) => b.block_id === "q0")?.element?.initial_value).toBe("Fix the login bug");
    expect(view.blocks.find((b) => b.block_id === "q1")?.element?.initial_value).toBeUndefined();
  });

  it("an answer in the window is on time", async () => {
    expect((await submitStandup(t, TEAM, "U0LCAT", runId, ["Planning", "Coding", "none"])).body).toBe("");
    expect(await responseOf("U0LCAT")).toMatchObject({ late: false, version: 1 });
  });

  it("the next morning, after the run closed, the Answer button still opens the modal and the answer is late", async () => {
    t.clock.set("2026-03-03T00:00:10Z");
    expect((await tick(t.deps)).closed).toBe(1);
    await t.deps.queue.drain();
    t.clock.set("2026-03-03T07:30:00Z");
    const view = await clickAnswer("U0LANA");
    expect(view).toContain("standup_modal");
    expect(view).not.toContain("has closed");
    const res = await submitStandup(t, TEAM, "U0LANA", runId, ["Reviews", "Releases", "none"]);
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe("");
    expect(await responseOf("U0LANA")).toMatchObject({ late: true, version: 1 });
    const [p] = await rows<{ status: string }>(
      t.deps.db,
      sql`select status from run_participants where run_id = ${runId} and user_id = 'U0LANA'`,
    );
    expect(p?.status).toBe("answered");
    await t.deps.queue.drain();
    const reply = t.fake.messages(CHANNEL).find((m) => m.thread_ts && m.text.startsWith("Standup from <@U0LANA>"));
    expect(JSON.stringify(reply?.blocks)).toContain("_(late)_");
  });

  it("a late answer in the DM conversation is taken too", async () => {
    const dm = t.fake.dmFor(TEAM, "U0LDAN");
    for (const [i, text] of ["Docs", "More docs", "none"].entries()) {
      await t.sendEvent(TEAM, {
        type: "message",
        channel_type: "im",
        channel: dm,
        user: "U0LDAN",
        text,
        ts: `1772522000.00000${i}`,
      });
    }
    await t.deps.queue.drain();
    // The events are handled after Slack's ack: the last one may still be submitting.
    await expect.poll(() => responseOf("U0LDAN")).toMatchObject({ late: true, answers: ["Docs", "More docs", "none"] });
  });

  it("an edit's modal shows the member's own answers, not the pre-fill", async () => {
    const view = JSON.parse(await clickAnswer("U0LCAT")) as {
      blocks: { block_id?: string; element?: { initial_value?: string } }[];
    };
    expect(view.blocks.find((b) => b.block_id === "q0")?.element?.initial_value).toBe("Planning");
  });

  it("an edit keeps the flag the answer was given: on time stays on time, late stays late", async () => {
    await submitStandup(t, TEAM, "U0LCAT", runId, ["Planning", "Coding more", "none"]);
    expect(await responseOf("U0LCAT")).toMatchObject({ late: false, version: 2 });
    await submitStandup(t, TEAM, "U0LANA", runId, ["Reviews", "Releases today", "none"]);
    expect(await responseOf("U0LANA")).toMatchObject({ late: true, version: 2 });
  });

  it("reports show late, and a late answer counts as answered", async () => {
    const cookie = await t.signIn(TEAM, "U0LANA");
    const res = await t.inject({ method: "GET", url: "/dashboard/api/reports?days=7", headers: { cookie } });
    expect(res.statusCode).toBe(200);
    const monday = res.json().standups.filter((s: { standup_date: string }) => s.standup_date === "2026-03-02");
    const lateOf = Object.fromEntries(monday.map((s: { user_id: string; late: boolean }) => [s.user_id, s.late]));
    expect(lateOf).toEqual({ U0LANA: true, U0LCAT: false, U0LDAN: true });
    const day = res.json().participation.find((p: { date: string }) => p.date === "2026-03-02");
    expect(day).toMatchObject({ submitted: 3, total: 4, pct: 75 });
  });

  it("after the next run started, the old run refuses as before", async () => {
    t.clock.set("2026-03-03T09:00:10Z");
    expect((await tick(t.deps)).started).toHaveLength(1);
    await t.deps.queue.drain();
    const res = await submitStandup(t, TEAM, "U0LBEN", runId, ["Too", "late", "now"]);
    expect(res.json()).toMatchObject({ response_action: "errors", errors: { q0: expect.stringContaining("closed") } });
    expect(await responseOf("U0LBEN")).toBeUndefined();
    const edit = await submitStandup(t, TEAM, "U0LANA", runId, ["Reviews", "changed", "none"]);
    expect(edit.json()).toMatchObject({ response_action: "errors" });
    expect(await clickAnswer("U0LBEN")).toContain("has closed");
  });
});
