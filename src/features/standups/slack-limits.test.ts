import { Writable } from "node:stream";
import { sql } from "drizzle-orm";
import pino from "pino";
import { describe, expect, it } from "vitest";
import type { RecordedCall } from "../../../dev/fake-slack/index.ts";
import { useTestApp } from "../../../test/support/app.ts";
import { drainAgingClaims } from "../../../test/support/claims.ts";
import { createSchedule } from "../../../test/support/factories.ts";
import { assertWithinSlackLimits } from "../../../test/support/slack-limits.ts";
import { rows } from "../../db/client.ts";
import { tick } from "./scheduler.ts";

const TEAM = "T0LIM";
const CHANNEL = "C0LIM";
const BOT = "BT0LIMBOT";
/** Payloads Slack checks against its Block Kit limits. */
const PAYLOAD_METHODS = new Set([
  "chat.postMessage",
  "chat.update",
  "chat.postEphemeral",
  "views.open",
  "views.update",
  "views.push",
  "views.publish",
]);

/** Exactly `n` characters: an emoji, characters Slack escapes, then filler. */
function longText(prefix: string, n: number): string {
  const text = `${prefix} 🚀 fix <the> build & ship @channel `.padEnd(n, " lorem ipsum dolor sit amet");
  expect(text).toHaveLength(n);
  return text;
}

const QUESTIONS = Array.from({ length: 10 }, (_, i) => longText(`Question ${i + 1}:`, 300));
const people = Array.from({ length: 100 }, (_, i) => `U0L${String(i).padStart(3, "0")}`);
/** 40 answer everything with 3,000 characters, their blocker included; 60 never answer. */
const answering = people.slice(0, 40);

describe("Slack's limits at the largest standup", async () => {
  const t = await useTestApp();
  t.clock.set("2026-03-01T12:00:00Z"); // Sunday: the schedule exists well before Monday's run
  await t.installTeam(TEAM);
  for (const u of people) {
    t.fake.addUser(TEAM, { id: u, name: u.toLowerCase(), real_name: `Person ${u}` });
    await t.addMember(TEAM, u);
  }
  t.fake.addChannel(TEAM, { id: CHANNEL, name: "big-standup", members: [...people, BOT] });
  await createSchedule(t.deps.db, t.clock, { teamId: TEAM, channelId: CHANNEL, time: "09:00", questions: QUESTIONS });
  const payloadCalls = () => t.fake.calls.filter((c) => PAYLOAD_METHODS.has(c.method));
  const expectAllWithinLimits = (calls: readonly RecordedCall[]) => {
    for (const c of calls) {
      expect(c.error, `${c.method} answered ${c.error}`).toBeUndefined();
      assertWithinSlackLimits(c);
    }
  };
  let runId = 0;

  it("the parent message and every ask DM (10 questions of 300 characters) are within the limits and arrive", async () => {
    t.clock.set("2026-03-02T09:00:10Z");
    runId = (await tick(t.deps)).started[0]!;
    await t.deps.queue.drain();
    const asks = t.fake.callsTo("chat.postMessage").filter((c) => String(c.args.text).startsWith("Time for standup"));
    expect(asks.filter((c) => c.ok)).toHaveLength(100);
    expectAllWithinLimits(payloadCalls());
    // Every question reaches the DM whole.
    const body = JSON.stringify(asks[0]!.args.blocks);
    for (let i = 0; i < 10; i++) expect(body).toContain(`Question ${i + 1}:`);
    expect(body).toContain("lorem ipsum dolor sit amet");
  });

  it("the answer modal with 10 long questions opens", async () => {
    await t.sendInteraction({
      type: "block_actions",
      team: { id: TEAM },
      user: { id: people[0], team_id: TEAM },
      trigger_id: "trigger.lim",
      channel: { id: t.fake.dmFor(TEAM, people[0]!) },
      actions: [{ type: "button", action_id: "standup_answer", value: String(runId), action_ts: "1" }],
    });
    await t.fake.waitFor((calls) => calls.some((c) => c.method === "views.open"));
    const open = t.fake.callsTo("views.open").at(-1)!;
    expect(open.ok).toBe(true);
    assertWithinSlackLimits(open);
    const inputs = (open.args.view as { blocks: { type: string }[] }).blocks.filter((b) => b.type === "input");
    expect(inputs).toHaveLength(11);
  });

  const submit = (user: string, answers: string[]) =>
    t.sendInteraction({
      type: "view_submission",
      team: { id: TEAM },
      user: { id: user, team_id: TEAM },
      view: {
        id: "V0LIM",
        type: "modal",
        callback_id: "standup_modal",
        private_metadata: JSON.stringify({ runId }),
        state: {
          values: Object.fromEntries(
            answers.map((a, i) => [`q${i}`, { answer: { type: "plain_text_input", value: a } }]),
          ),
        },
      },
    });

  it("thread replies of 10 answers of 3,000 characters each are within the limits, shortened with a note", async () => {
    const before = t.fake.calls.length;
    for (const u of answering) {
      const answers = QUESTIONS.map((_, i) =>
        longText(i === 2 ? `Blocked by ${u}:` : `Answer ${i + 1} of ${u}:`, 3000),
      );
      expect((await submit(u, answers)).statusCode).toBe(200);
    }
    await t.deps.queue.drain();
    const replies = t.fake.messages(CHANNEL).filter((m) => m.text.startsWith("Standup from"));
    expect(replies).toHaveLength(40);
    expectAllWithinLimits(t.fake.calls.slice(before).filter((c) => PAYLOAD_METHODS.has(c.method)));
    const body = JSON.stringify(replies[0]!.blocks);
    for (let i = 0; i < 10; i++) expect(body).toContain(`Question ${i + 1}:`);
    expect(body).toContain("BLOCKER");
    expect(body).toContain("the dashboard has them in full");
  });

  it("an edit of such a reply updates it in place within the limits", async () => {
    const before = t.fake.callsTo("chat.update").length;
    const answers = QUESTIONS.map((_, i) => longText(i === 2 ? "Still blocked:" : `Edited ${i + 1}:`, 3000));
    expect((await submit(answering[0]!, answers)).statusCode).toBe(200);
    await t.deps.queue.drain();
    const updates = t.fake.callsTo("chat.update").slice(before);
    expect(updates).toHaveLength(1);
    expectAllWithinLimits(updates);
  });

  it("App Home, the slash command's help and the reminders are within the limits", async () => {
    await t.sendEvent(TEAM, { type: "app_home_opened", user: people[0], channel: "D0X", tab: "home" });
    await t.fake.waitFor((calls) => calls.some((c) => c.method === "views.publish"));
    const help = await t.sendCommand(TEAM, people[1]!, "help");
    assertWithinSlackLimits(help.json());
    t.clock.set("2026-03-02T11:00:30Z");
    expect((await tick(t.deps)).reminded).toBe(1);
    await t.deps.queue.drain();
    const reminders = t.fake.callsTo("chat.postMessage").filter((c) => String(c.args.text).startsWith("Reminder"));
    expect(reminders.filter((c) => c.ok)).toHaveLength(60);
    expectAllWithinLimits(payloadCalls());
  });

  it("the summary with 40 long blockers and 60 people who did not answer is within the limits", async () => {
    t.clock.set("2026-03-03T00:00:30Z");
    expect((await tick(t.deps)).closed).toBe(1);
    await t.deps.queue.drain();
    const summary = t.fake.messages(CHANNEL).find((m) => m.text.startsWith("Standup closed"));
    expect(summary?.text).toBe("Standup closed: 40/100 answered (40%)");
    assertWithinSlackLimits(summary);
    const body = JSON.stringify(summary!.blocks);
    expect(body).toContain("Blockers (40)");
    expect(body).toMatch(/…and \d+ more/);
    for (const u of people.slice(40)) expect(body, u).toContain(u);
    expectAllWithinLimits(payloadCalls());
    const stuck = await rows(
      t.deps.db,
      sql`select name from pgboss.job where state in ('retry', 'failed') and data->>'teamId' = ${TEAM}`,
    );
    expect(stuck).toEqual([]);
  });

  it("the next day's asks open with 'Still blocked on …?' for 40 blockers of 3,000 characters, within the limits", async () => {
    const before = t.fake.calls.length;
    t.clock.set("2026-03-03T09:00:10Z");
    runId = (await tick(t.deps)).started[0]!;
    await t.deps.queue.drain();
    const asks = t.fake
      .callsTo("chat.postMessage")
      .slice(-100)
      .filter((c) => String(c.args.text).startsWith("Time for standup"));
    const prompted = asks.filter((c) => JSON.stringify(c.args.blocks).includes("Still blocked on"));
    expect(prompted.filter((c) => c.ok)).toHaveLength(40);
    expectAllWithinLimits(t.fake.calls.slice(before).filter((c) => PAYLOAD_METHODS.has(c.method)));
  });

  it("the modal with the open blocker and its checkbox, and the button's update in place, are within the limits", async () => {
    const owner = answering[0]!;
    await t.sendInteraction({
      type: "block_actions",
      team: { id: TEAM },
      user: { id: owner, team_id: TEAM },
      trigger_id: "trigger.lim2",
      channel: { id: t.fake.dmFor(TEAM, owner) },
      actions: [{ type: "button", action_id: "standup_answer", value: String(runId), action_ts: "2" }],
    });
    await t.fake.waitFor((calls) => calls.filter((c) => c.method === "views.open").length === 2);
    const open = t.fake.callsTo("views.open").at(-1)!;
    expect(open.ok).toBe(true);
    assertWithinSlackLimits(open);
    expect(JSON.stringify(open.args.view)).toContain("blocker_resolve");
    const [item] = await rows<{ id: number }>(
      t.deps.db,
      sql`select id::int as id from blockers where team_id = ${TEAM} and user_id = ${owner} and status = 'open'`,
    );
    const ask = t.fake
      .messages(t.fake.dmFor(TEAM, owner))
      .filter((m) => m.text.startsWith("Time for"))
      .at(-1)!;
    const updates = t.fake.callsTo("chat.update").length;
    await t.sendInteraction({
      type: "block_actions",
      team: { id: TEAM },
      user: { id: owner, team_id: TEAM },
      channel: { id: ask.channel },
      container: { type: "message", channel_id: ask.channel, message_ts: ask.ts },
      message: { ts: ask.ts, text: ask.text, blocks: ask.blocks },
      actions: [{ type: "button", action_id: "blocker_resolved", value: String(item!.id), action_ts: "3" }],
    });
    await t.fake.waitFor((calls) => calls.filter((c) => c.method === "chat.update").length > updates);
    expectAllWithinLimits(t.fake.callsTo("chat.update").slice(updates));
  });

  it("the summary with 39 open blockers of 3,000 characters, their ages and one resolved today is within the limits", async () => {
    t.clock.set("2026-03-04T00:00:30Z");
    expect((await tick(t.deps)).closed).toBe(1);
    await t.deps.queue.drain();
    const summary = t.fake
      .messages(CHANNEL)
      .filter((m) => m.text.startsWith("Standup closed"))
      .at(-1);
    assertWithinSlackLimits(summary);
    const body = JSON.stringify(summary!.blocks);
    expect(body).toContain("Blockers (39)");
    expect(body).toContain("(1 day)");
    expect(body).toContain("Resolved today (1)");
    expect(body).toMatch(/…and \d+ more/);
  });
});

describe("a payload Slack refuses", async () => {
  const lines: string[] = [];
  const log = pino(
    { level: "warn" },
    new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    }),
  );
  const t = await useTestApp({ log });
  t.clock.set("2026-03-01T12:00:00Z");
  await t.installTeam("T0REF");
  t.fake.addUser("T0REF", { id: "U0REF", name: "ref", real_name: "Ref" });
  await t.addMember("T0REF", "U0REF");
  t.fake.addChannel("T0REF", { id: "C0REF", name: "ref", members: ["U0REF", "BT0REFBOT"] });
  await createSchedule(t.deps.db, t.clock, { teamId: "T0REF", channelId: "C0REF", time: "09:00" });

  it("ends the job at once with a warning (invalid_blocks is not retried for a day) and marks the claim failed", async () => {
    t.clock.set("2026-03-02T09:00:10Z");
    const [runId] = (await tick(t.deps)).started;
    await t.deps.queue.drain(); // the parent message and the ask
    const key = `run:${runId}:remind:U0REF`;
    t.fake.fail("chat.postMessage", { error: "invalid_blocks" });
    await t.deps.queue.enqueue("standup.remind", { teamId: "T0REF", runId: runId!, userId: "U0REF" });
    await t.deps.queue.drain();

    expect(t.fake.callsTo("chat.postMessage").filter((c) => c.error === "invalid_blocks")).toHaveLength(1);
    const jobs = await rows<{ state: string; retry_count: number }>(
      t.deps.db,
      sql`select state, retry_count from pgboss.job where name = 'standup.remind' and data->>'teamId' = 'T0REF'`,
    );
    expect(jobs).toEqual([{ state: "completed", retry_count: 0 }]);
    const [claim] = await rows<{ state: string }>(t.deps.db, sql`select state from chat_posts where key = ${key}`);
    expect(claim?.state).toBe("failed");
    const warning = lines
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((l) => l.reason === "invalid_blocks");
    expect(warning).toMatchObject({ level: 40, job: "standup.remind", msg: expect.stringContaining("gave up") });
  });

  it("a passing failure (HTTP 500) is still retried", async () => {
    const [run] = await rows<{ id: number }>(t.deps.db, sql`select id from standup_runs where team_id = 'T0REF'`);
    t.fake.fail("chat.postMessage", { status: 500 });
    await t.deps.queue.enqueue("standup.remind", { teamId: "T0REF", runId: run!.id, userId: "U0REF" });
    await drainAgingClaims(t.deps);
    const [claim] = await rows<{ state: string; attempts: number }>(
      t.deps.db,
      sql`select state, attempts from chat_posts where key = ${`run:${run!.id}:remind:U0REF`}`,
    );
    expect(claim).toEqual({ state: "sent", attempts: 3 });
  });
});
