import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import { createSchedule, seedRun } from "../../../test/support/factories.ts";
import { memberTimezoneTeam } from "../../../test/support/member-timezone.ts";
import { assertWithinSlackLimits } from "../../../test/support/slack-limits.ts";
import { rows } from "../../db/client.ts";
import { buildHomeView } from "./home.ts";
import { tick } from "./scheduler.ts";

const TEAM = "T0EARLY";
const CHANNEL = "C0EARLY";

interface ViewDb {
  callback_id?: string;
  private_metadata: string;
  blocks: { block_id?: string; element?: { initial_value?: string } }[];
}

/** Answering ahead, end to end: App Home's button or `/upbeat answer`, the early modal, then the run's ask. */
describe("answering a standup ahead", async () => {
  const t = await useTestApp();
  t.clock.set("2026-03-02T10:00:00Z"); // Monday
  await t.installTeam(TEAM);
  const people = ["U0EANA", "U0EBEN", "U0ECAT"];
  for (const id of people) {
    t.fake.addUser(TEAM, { id, name: id.toLowerCase(), real_name: id });
    await t.addMember(TEAM, id);
  }
  t.fake.addChannel(TEAM, { id: CHANNEL, name: "early", members: [...people, "BT0EARLYBOT"] });
  const questions = ["What did you do yesterday?", "What will you do today?", "Anything blocking you?"];
  const scheduleId = await createSchedule(t.deps.db, t.clock, {
    teamId: TEAM,
    channelId: CHANNEL,
    time: "09:00",
    questions,
  });
  // Ana's answer of last Friday: its "today" pre-fills her yesterday question.
  await seedRun(t.deps.db, {
    teamId: TEAM,
    scheduleId,
    date: "2026-02-27",
    asked: ["U0EANA"],
    answers: { U0EANA: { answers: ["Reviews", "Write the billing tests", "none"] } },
  });
  // Cat is off on Tuesday: that run is not hers to answer ahead.
  await t.deps.db.execute(
    sql`insert into time_off (team_id, user_id, start_date, end_date, created_by, created_at, updated_at)
        values (${TEAM}, 'U0ECAT', '2026-03-03', '2026-03-03', 'U0ECAT', now(), now())`,
  );
  const dm = (u: string) => t.fake.dmFor(TEAM, u);
  const home = async (u: string) => JSON.stringify(await buildHomeView(t.deps, TEAM, u));
  const lastView = () => t.fake.callsTo("views.open").at(-1)!.args.view as ViewDb;
  let clicks = 0;
  const click = (user: string, value: string) =>
    t.deliver.interaction({
      type: "block_actions",
      team: { id: TEAM, domain: "early" },
      user: { id: user, team_id: TEAM },
      api_app_id: "A0UPBEAT",
      token: "legacy",
      trigger_id: `trigger.${user}.${++clicks}`,
      container: { type: "view", view_id: "VHOME" },
      actions: [{ type: "button", action_id: "standup_answer_early", block_id: "b", value, action_ts: "1" }],
    });
  const submitEarly = (user: string, meta: string, answers: string[]) =>
    t.deliver.interaction({
      type: "view_submission",
      team: { id: TEAM, domain: "early" },
      user: { id: user, team_id: TEAM },
      api_app_id: "A0UPBEAT",
      token: "legacy",
      trigger_id: `trigger.${user}`,
      view: {
        id: `V0${user}`,
        type: "modal",
        team_id: TEAM,
        callback_id: "standup_early_modal",
        private_metadata: meta,
        state: {
          values: {
            ...Object.fromEntries(answers.map((a, i) => [`q${i}`, { answer: { type: "plain_text_input", value: a } }])),
            mood: { mood: { type: "static_select", selected_option: null } },
          },
        },
      },
    });
  const early = () =>
    rows<{ user_id: string; local_date: string; answers: string[] }>(
      t.deps.db,
      sql`select user_id, local_date::text as local_date, answers from early_answers where team_id = ${TEAM}`,
    );
  const responses = () =>
    rows<{ user_id: string; standup_date: string; answers: string[]; version: number; late: boolean }>(
      t.deps.db,
      sql`select user_id, standup_date::text as standup_date, answers, version, late from responses
          where team_id = ${TEAM} and standup_date = '2026-03-03'`,
    );
  const value = `${scheduleId}|2026-03-03`;

  it("before the window (12 h ahead) there is no Answer now, and /upbeat answer says when it opens", async () => {
    expect(await home("U0EANA")).not.toContain("standup_answer_early");
    const res = await t.sendCommand(TEAM, "U0EANA", "answer");
    expect(res.json().text).toContain("from Mon 2 Mar, 21:00 UTC");
    expect(res.json().text).toContain("Tuesday 3 March 2026");
  });

  it("10 h before Tuesday's run, App Home offers it with its date, but not to a member off that day", async () => {
    t.clock.set("2026-03-02T23:00:00Z");
    const text = await home("U0EANA");
    expect(text).toContain("Answer now");
    expect(text).toContain("You can answer ahead for Tuesday 3 March 2026");
    expect(text).toContain(value);
    assertWithinSlackLimits(await buildHomeView(t.deps, TEAM, "U0EANA"));
    expect(await home("U0ECAT")).not.toContain("standup_answer_early");
  });

  it("Answer now opens the early modal for that date with yesterday pre-filled; the answer is stored for it", async () => {
    await click("U0EANA", value);
    await t.fake.waitFor((calls) => calls.some((c) => c.method === "views.open"));
    const view = lastView();
    expect(view.callback_id).toBe("standup_early_modal");
    expect(JSON.parse(view.private_metadata)).toEqual({ scheduleId, localDate: "2026-03-03" });
    expect(view.blocks.find((b) => b.block_id === "q0")?.element?.initial_value).toBe("Write the billing tests");
    expect(view.blocks.find((b) => b.block_id === "q1")?.element?.initial_value).toBeUndefined();
    const res = await submitEarly("U0EANA", view.private_metadata, ["Billing tests", "Deploy", "none"]);
    expect(res.acknowledged).toBe(true);
    expect(res.body).toBeUndefined();
    expect(await early()).toEqual([
      { user_id: "U0EANA", local_date: "2026-03-03", answers: ["Billing tests", "Deploy", "none"] },
    ]);
    expect(await home("U0EANA")).toContain("Answered ahead for Tuesday 3 March 2026");
  });

  it("answering again replaces the early answer (the modal shows it, not the pre-fill)", async () => {
    const before = t.fake.callsTo("views.open").length;
    await click("U0EANA", value);
    await t.fake.waitFor((calls) => calls.filter((c) => c.method === "views.open").length > before);
    expect(lastView().blocks.find((b) => b.block_id === "q0")?.element?.initial_value).toBe("Billing tests");
    await submitEarly("U0EANA", lastView().private_metadata, ["Billing tests", "Deploy the API", "none"]);
    expect((await early()).map((e) => e.answers)).toEqual([["Billing tests", "Deploy the API", "none"]]);
  });

  it("/upbeat answer opens the early modal for the next run in its window; a member off that day gets none", async () => {
    const before = t.fake.callsTo("views.open").length;
    const res = await t.sendCommand(TEAM, "U0EBEN", "answer");
    expect(res.statusCode).toBe(200);
    await t.fake.waitFor((calls) => calls.filter((c) => c.method === "views.open").length > before);
    expect(JSON.parse(lastView().private_metadata)).toEqual({ scheduleId, localDate: "2026-03-03" });
    // Cat's next run is Wednesday's: its window opens Tuesday 21:00.
    const cat = await t.sendCommand(TEAM, "U0ECAT", "answer");
    expect(cat.json().text).toContain("Wednesday 4 March 2026");
  });

  it("a forged date outside the window is refused", async () => {
    const res = await submitEarly("U0EBEN", JSON.stringify({ scheduleId, localDate: "2026-03-05" }), ["a", "b", "c"]);
    expect(res.body).toMatchObject({ response_action: "errors" });
    expect((await early()).map((e) => e.user_id)).toEqual(["U0EANA"]);
  });

  it("when the run starts, Ana is not asked: she is thanked, answered, and her answer is the response, once", async () => {
    t.clock.set("2026-03-03T09:00:10Z");
    expect((await tick(t.deps)).started).toHaveLength(1);
    await t.deps.queue.drain();
    await tick(t.deps);
    await t.deps.queue.drain();
    const anaDms = t.fake.messages(dm("U0EANA")).map((m) => m.text);
    expect(anaDms.filter((m) => m.startsWith("Time for standup"))).toEqual([]);
    // One DM: the thanks stands for the reply's confirmation too.
    expect(anaDms).toEqual(["Thanks, you already answered for Tuesday 3 March 2026"]);
    expect(t.fake.messages(dm("U0EBEN")).filter((m) => m.text.startsWith("Time for standup"))).toHaveLength(1);
    expect(await responses()).toEqual([
      {
        user_id: "U0EANA",
        standup_date: "2026-03-03",
        answers: ["Billing tests", "Deploy the API", "none"],
        version: 1,
        late: false,
      },
    ]);
    const [p] = await rows<{ status: string }>(
      t.deps.db,
      sql`select p.status from run_participants p join standup_runs r on r.id = p.run_id
          where r.local_date = '2026-03-03' and r.team_id = ${TEAM} and p.user_id = 'U0EANA'`,
    );
    expect(p?.status).toBe("answered");
    expect(await early()).toEqual([]);
    // Every early modal, the Home with its Answer now and the thanks DM are within Slack's limits.
    for (const c of t.fake.callsTo("views.open")) assertWithinSlackLimits(c.args);
    for (const c of t.fake.callsTo("chat.postMessage")) assertWithinSlackLimits(c.args);
    const replies = t.fake.messages(CHANNEL).filter((m) => m.thread_ts && m.text.includes("U0EANA"));
    expect(replies).toHaveLength(1);
    // No reminder for her later.
    t.clock.set("2026-03-03T13:00:00Z");
    await tick(t.deps);
    await t.deps.queue.drain();
    expect(t.fake.messages(dm("U0EANA")).filter((m) => m.text.startsWith("Reminder"))).toEqual([]);
  });
});

describe("answering a member-timezone standup ahead", async () => {
  const t = await useTestApp();
  t.clock.set("2026-03-03T04:00:00Z"); // Tuesday; 09:30 in New York is 14:30 UTC, 10.5 h away
  const mt = await memberTimezoneTeam(t, "T0EARLYTZ", { U0ENY: "America/New_York", U0EBER: "Europe/Berlin" });

  it("offers the member's own next ask and turns the early answer into the response at their time", async () => {
    const view = JSON.stringify(await buildHomeView(t.deps, "T0EARLYTZ", "U0ENY"));
    expect(view).toContain(`${mt.scheduleId}|2026-03-03`);
    const res = await t.sendCommand("T0EARLYTZ", "U0ENY", "answer");
    expect(res.statusCode).toBe(200);
    await t.fake.waitFor((calls) => calls.some((c) => c.method === "views.open"));
    const meta = (t.fake.callsTo("views.open").at(-1)!.args.view as ViewDb).private_metadata;
    expect(JSON.parse(meta)).toEqual({ scheduleId: mt.scheduleId, localDate: "2026-03-03" });
    await t.deliver.interaction({
      type: "view_submission",
      team: { id: "T0EARLYTZ", domain: "tz" },
      user: { id: "U0ENY", team_id: "T0EARLYTZ" },
      api_app_id: "A0UPBEAT",
      token: "legacy",
      trigger_id: "trigger.ny",
      view: {
        id: "V0NY",
        type: "modal",
        team_id: "T0EARLYTZ",
        callback_id: "standup_early_modal",
        private_metadata: meta,
        state: { values: { q0: { answer: { value: "Ahead" } }, mood: { mood: { selected_option: null } } } },
      },
    });
    // The run is claimed (Berlin's members are asked at 08:30 UTC); New York's member still pending.
    t.clock.set("2026-03-03T08:30:10Z");
    await tick(t.deps);
    await t.deps.queue.drain();
    await tick(t.deps);
    await t.deps.queue.drain();
    expect(t.fake.messages(t.fake.dmFor("T0EARLYTZ", "U0ENY"))).toEqual([]);
    t.clock.set("2026-03-03T14:30:10Z");
    await tick(t.deps);
    await t.deps.queue.drain();
    const texts = t.fake.messages(t.fake.dmFor("T0EARLYTZ", "U0ENY")).map((m) => m.text);
    expect(texts).toContain("Thanks, you already answered for Tuesday 3 March 2026");
    expect(texts.filter((m) => m.startsWith("Time for standup"))).toEqual([]);
    const rs = await rows<{ standup_date: string; answers: string[] }>(
      t.deps.db,
      sql`select standup_date::text as standup_date, answers from responses where user_id = 'U0ENY'`,
    );
    expect(rs).toEqual([{ standup_date: "2026-03-03", answers: ["Ahead", "", ""] }]);
  });
});
