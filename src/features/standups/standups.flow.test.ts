import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import { createSchedule } from "../../../test/support/factories.ts";
import { rows } from "../../db/client.ts";
import { tick } from "./scheduler.ts";

const TEAM = "T0FLOW";
const CHANNEL = "C0STANDUP";
const BOT = "BT0FLOWBOT";

interface ResponseDb {
  id: number;
  answers: string[];
  yesterday: string;
  today: string;
  blockers: string;
  mood: string | null;
  has_blocker: boolean;
  standup_date: string;
  edited_at: Date | null;
  version: number;
}

/** The same standup over signed HTTP requests and over Socket Mode envelopes: the transport changes nothing. */
describe.each(["http", "socket"] as const)("a standup from schedule to summary (over %s)", async (transport) => {
  const t = await useTestApp({ transport });
  t.clock.set("2026-03-02T08:59:30Z"); // a Monday
  await t.installTeam(TEAM);
  for (const [id, name] of [
    ["U0ANA", "Ana"],
    ["U0BEN", "Ben"],
    ["U0CAT", "Cat"],
  ] as const) {
    t.fake.addUser(TEAM, { id, name: name.toLowerCase(), real_name: name });
    await t.addMember(TEAM, id, { realName: name });
  }
  t.fake.addUser(TEAM, { id: "U0ROBOT", name: "robot", real_name: "Robot", is_bot: true });
  t.fake.addChannel(TEAM, {
    id: CHANNEL,
    name: "standup",
    members: ["U0ANA", "U0BEN", "U0CAT", "U0ROBOT", BOT, "U0STRANGER"],
  });
  const scheduleId = await createSchedule(t.deps.db, t.clock, {
    teamId: TEAM,
    channelId: CHANNEL,
    time: "09:00",
    tz: "UTC",
    questions: ["What did you do yesterday?", "What will you do today?", "Anything blocking you?"],
  });
  const dm = (user: string) => t.fake.dmFor(TEAM, user);
  const postsTo = (channel: string) =>
    t.fake.callsTo("chat.postMessage").filter((c) => c.ok && c.args.channel === channel);
  const responseOf = async (user: string) =>
    (await rows<ResponseDb>(t.deps.db, sql`select * from responses where team_id = ${TEAM} and user_id = ${user}`))[0];
  let runId = 0;
  let parentTs = "";

  it("does nothing before the schedule's time", async () => {
    expect((await tick(t.deps)).started).toEqual([]);
  });

  it("starts one run at 09:00, posts the parent message and DMs each active member of the channel once", async () => {
    t.clock.set("2026-03-02T09:00:10Z");
    const first = await tick(t.deps);
    expect(first.started).toHaveLength(1);
    runId = first.started[0]!;
    expect((await tick(t.deps)).started).toEqual([]);
    await t.deps.queue.drain();
    const parent = postsTo(CHANNEL);
    expect(parent).toHaveLength(1);
    parentTs = t.fake.messages(CHANNEL)[0]!.ts;
    for (const u of ["U0ANA", "U0BEN", "U0CAT"]) {
      const dms = postsTo(dm(u));
      expect(dms, u).toHaveLength(1);
      expect(JSON.stringify(dms[0]!.args.blocks)).toContain("standup_answer");
    }
    expect(
      t.fake
        .callsTo("conversations.open")
        .map((c) => c.args.users)
        .sort(),
    ).toEqual(["U0ANA", "U0BEN", "U0CAT"].map((u) => expect.stringContaining(u)));
    expect(t.fake.unexpected).toEqual([]);
  });

  it("the Answer button opens a modal with one input per question and the mood select", async () => {
    const res = await t.deliver.interaction({
      type: "block_actions",
      team: { id: TEAM, domain: "flow" },
      user: { id: "U0ANA", team_id: TEAM },
      api_app_id: "A0UPBEAT",
      token: "legacy",
      trigger_id: "trigger.ana",
      channel: { id: dm("U0ANA") },
      container: { type: "message", channel_id: dm("U0ANA") },
      actions: [{ type: "button", action_id: "standup_answer", block_id: "b", value: String(runId), action_ts: "1" }],
    });
    expect(res.acknowledged).toBe(true);
    await t.fake.waitFor((calls) => calls.some((c) => c.method === "views.open"));
    const view = t.fake.callsTo("views.open").at(-1)!.args.view as {
      blocks: { block_id?: string; element?: { max_length?: number; options?: { value: string }[] } }[];
      private_metadata: string;
    };
    const inputs = view.blocks.filter((b) => b.block_id?.startsWith("q"));
    expect(inputs).toHaveLength(3);
    expect(inputs.every((b) => b.element?.max_length === 3000)).toBe(true);
    expect(view.blocks.find((b) => b.block_id === "mood")?.element?.options?.map((o) => o.value)).toEqual([
      "😀",
      "🙂",
      "😐",
      "😕",
      "😫",
    ]);
    expect(JSON.parse(view.private_metadata)).toEqual({ runId });
  });

  const submit = (user: string, answers: string[], mood: string | null) =>
    t.deliver.interaction({
      type: "view_submission",
      team: { id: TEAM, domain: "flow" },
      user: { id: user, team_id: TEAM },
      api_app_id: "A0UPBEAT",
      token: "legacy",
      trigger_id: "trigger.sub",
      view: {
        id: "V0MODAL",
        type: "modal",
        team_id: TEAM,
        callback_id: "standup_modal",
        private_metadata: JSON.stringify({ runId }),
        state: {
          values: {
            ...Object.fromEntries(answers.map((a, i) => [`q${i}`, { answer: { type: "plain_text_input", value: a } }])),
            mood: {
              mood: {
                type: "static_select",
                selected_option: mood ? { value: mood, text: { type: "plain_text", text: mood } } : null,
              },
            },
          },
        },
      },
    });

  it("a modal submission stores the response and posts it as a threaded reply, then confirms by DM", async () => {
    const res = await submit("U0ANA", ["Shipped the login page", "Start on @channel billing", "none"], "😀");
    expect(res).toEqual({ acknowledged: true, body: undefined });
    const r = await responseOf("U0ANA");
    expect(r).toMatchObject({
      yesterday: "Shipped the login page",
      today: "Start on @channel billing",
      blockers: "none",
      mood: "😀",
      has_blocker: false,
      standup_date: "2026-03-02",
      version: 1,
    });
    await t.deps.queue.drain();
    const reply = t.fake
      .messages(CHANNEL)
      .find((m) => m.thread_ts === parentTs && JSON.stringify(m.blocks).includes("U0ANA"));
    expect(reply).toBeDefined();
    expect(JSON.stringify(reply!.blocks)).toContain("@\u200bchannel");
    expect(JSON.stringify(reply!.blocks)).not.toMatch(/[^\u200b]@channel/);
    expect(postsTo(dm("U0ANA")).some((c) => JSON.stringify(c.args.blocks).includes("standup_edit"))).toBe(true);
  });

  it("submitting again edits the same response and updates the reply in place", async () => {
    const before = t.fake.messages(CHANNEL).length;
    expect(
      (await submit("U0ANA", ["Shipped the login page", "Billing, then reviews", "blocked on review"], "🙂"))
        .acknowledged,
    ).toBe(true);
    await t.deps.queue.drain();
    const r = await responseOf("U0ANA");
    expect(r).toMatchObject({ today: "Billing, then reviews", has_blocker: true, mood: "🙂", version: 2 });
    expect(r!.edited_at).not.toBeNull();
    expect((await rows(t.deps.db, sql`select id from responses where user_id = 'U0ANA'`)).length).toBe(1);
    expect(t.fake.messages(CHANNEL)).toHaveLength(before);
    expect(t.fake.callsTo("chat.update").filter((c) => c.ok)).toHaveLength(1);
    const reply = t.fake
      .messages(CHANNEL)
      .find((m) => m.thread_ts === parentTs && JSON.stringify(m.blocks).includes("U0ANA"));
    expect(JSON.stringify(reply!.blocks)).toContain("BLOCKER");
    // Only one confirmation DM, however often the answers are edited.
    expect(postsTo(dm("U0ANA")).filter((c) => JSON.stringify(c.args.blocks).includes("standup_edit"))).toHaveLength(1);
  });

  it("answers in the DM conversation one question at a time", async () => {
    const say = (text: string, n: number) =>
      t.deliver.event(TEAM, {
        type: "message",
        channel_type: "im",
        channel: dm("U0BEN"),
        user: "U0BEN",
        text,
        ts: `1772442000.00${n}`,
      });
    await say("Reviewed PRs", 1);
    await t.fake.waitFor(() => postsTo(dm("U0BEN")).length === 2);
    expect(postsTo(dm("U0BEN"))[1]!.args.text).toContain("What will you do today?");
    await say("Fix the flaky test", 2);
    await t.fake.waitFor(() => postsTo(dm("U0BEN")).length === 3);
    await say("Waiting for the design review", 3);
    await expect
      .poll(() => responseOf("U0BEN"))
      .toMatchObject({
        answers: ["Reviewed PRs", "Fix the flaky test", "Waiting for the design review"],
        has_blocker: true,
        mood: null,
      });
    await t.deps.queue.drain();
    expect(t.fake.messages(CHANNEL).filter((m) => m.thread_ts === parentTs)).toHaveLength(2);
  });

  it("reminds only those who have not answered, once, two hours after the start", async () => {
    t.clock.set("2026-03-02T10:59:00Z");
    expect((await tick(t.deps)).reminded).toBe(0);
    t.clock.set("2026-03-02T11:00:30Z");
    expect((await tick(t.deps)).reminded).toBe(1);
    expect((await tick(t.deps)).reminded).toBe(0);
    await t.deps.queue.drain();
    const reminders = t.fake
      .callsTo("chat.postMessage")
      .filter((c) => c.ok && String(c.args.text).startsWith("Reminder"));
    expect(reminders.map((c) => c.args.channel)).toEqual([dm("U0CAT")]);
  });

  it("closes at the end of the local day with a summary in the thread", async () => {
    t.clock.set("2026-03-02T23:59:00Z");
    expect((await tick(t.deps)).closed).toBe(0);
    t.clock.set("2026-03-03T00:00:30Z");
    expect((await tick(t.deps)).closed).toBe(1);
    await t.deps.queue.drain();
    const summary = t.fake
      .messages(CHANNEL)
      .find((m) => m.thread_ts === parentTs && m.text.startsWith("Standup closed"));
    expect(summary?.text).toBe("Standup closed: 2/3 answered (67%)");
    const body = JSON.stringify(summary!.blocks);
    expect(body).toContain("Blockers (2)");
    // Named, not mentioned: a mention would notify everyone in the list.
    expect(body).toContain("Did not answer:* Cat");
    expect(`${summary!.text}${body}`).not.toContain("<@");
  });

  it("a closed run refuses further edits once the standup's next run is due (until then they are late answers)", async () => {
    t.clock.set("2026-03-03T09:00:01Z");
    const res = await submit("U0ANA", ["late", "late", "late"], null);
    expect(res.body).toMatchObject({ response_action: "errors" });
    expect((await responseOf("U0ANA"))!.version).toBe(2);
  });

  it("the next weekday starts a new run; skip in the DM and /upbeat skip mark the member skipped", async () => {
    t.clock.set("2026-03-03T09:00:05Z");
    const started = (await tick(t.deps)).started;
    expect(started).toHaveLength(1);
    await t.deps.queue.drain();
    await t.deliver.event(TEAM, {
      type: "message",
      channel_type: "im",
      channel: dm("U0CAT"),
      user: "U0CAT",
      text: "skip",
      ts: "1772528400.000100",
    });
    const cmd = await t.deliver.command(TEAM, "U0BEN", "skip");
    expect(cmd.body).toMatchObject({ response_type: "ephemeral", text: expect.stringContaining("Skipped") });
    await expect
      .poll(async () =>
        (
          await rows<{ user_id: string; status: string }>(
            t.deps.db,
            sql`select user_id, status from run_participants where run_id = ${started[0]} order by user_id`,
          )
        ).map((r) => `${r.user_id}:${r.status}`),
      )
      .toEqual(["U0ANA:asked", "U0BEN:skipped", "U0CAT:skipped"]);
    void scheduleId;
  });
});
