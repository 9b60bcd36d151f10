import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { RecordedCall } from "../../../dev/fake-slack/index.ts";
import { useTestApp } from "../../../test/support/app.ts";
import { createSchedule } from "../../../test/support/factories.ts";
import { assertWithinSlackLimits } from "../../../test/support/slack-limits.ts";
import { MAX_OPTION_LENGTH, MAX_OPTIONS, QUESTION_TYPES, type QuestionDetail } from "../../contract/questions.ts";
import { tick } from "./scheduler.ts";

const TEAM = "T0LIMTY";
const CHANNEL = "C0LIMTY";
const PEOPLE = ["U0LTANA", "U0LTBEN", "U0LTCAT"] as const;
/** Payloads Slack checks against its Block Kit limits. */
const PAYLOAD_METHODS = new Set(["chat.postMessage", "chat.update", "views.open", "views.update", "views.publish"]);

/** Exactly `n` characters: an emoji, characters Slack escapes, then filler. */
function longText(prefix: string, n: number): string {
  const text = `${prefix} 🚀 <b> & @channel `.padEnd(n, " lorem ipsum dolor sit amet");
  expect(text).toHaveLength(n);
  return text;
}

/**
 * Ten questions, every type twice, at the largest the schedule API takes: 300-character questions, ten options of 75
 * characters each; the second half anonymous, every other one optional.
 */
const DETAILS: QuestionDetail[] = Array.from({ length: 10 }, (_, i) => {
  const type = QUESTION_TYPES[i % QUESTION_TYPES.length]!;
  const options = Array.from({ length: MAX_OPTIONS }, (_, j) =>
    longText(`Q${i + 1} option ${j + 1}:`, MAX_OPTION_LENGTH),
  );
  return {
    text: longText(`Question ${i + 1}:`, 300),
    type,
    ...(type.endsWith("choice") ? { options } : {}),
    ...(type === "number" ? { min: -1_000_000.5, max: 1_000_000.5 } : {}),
    required: i % 2 === 0,
    anonymous: i >= 5,
  };
});

describe("Slack's limits with typed questions at their largest", async () => {
  const t = await useTestApp();
  t.clock.set("2026-03-01T12:00:00Z");
  await t.installTeam(TEAM);
  for (const u of PEOPLE) {
    t.fake.addUser(TEAM, { id: u, name: u.toLowerCase(), real_name: u });
    await t.addMember(TEAM, u);
  }
  t.fake.addChannel(TEAM, { id: CHANNEL, name: "typed-limits", members: [...PEOPLE] });
  const scheduleId = await createSchedule(t.deps.db, t.clock, {
    teamId: TEAM,
    channelId: CHANNEL,
    time: "09:00",
    questions: DETAILS.map((d) => d.text),
  });
  await t.deps.db.execute(
    sql`update schedules set question_details = ${JSON.stringify(DETAILS)}::jsonb, blocker_question = 1 where id = ${scheduleId}`,
  );
  const expectAllWithinLimits = (calls: readonly RecordedCall[]) => {
    expect(calls.length).toBeGreaterThan(0);
    for (const c of calls.filter((call) => PAYLOAD_METHODS.has(call.method))) {
      expect(c.error, `${c.method} answered ${c.error}`).toBeUndefined();
      assertWithinSlackLimits(c);
    }
  };
  let runId = 0;
  const openModal = async (user: string, action: string) => {
    const before = t.fake.callsTo("views.open").length;
    await t.sendInteraction({
      type: "block_actions",
      team: { id: TEAM },
      user: { id: user, team_id: TEAM },
      trigger_id: `trigger.${user}`,
      channel: { id: t.fake.dmFor(TEAM, user) },
      actions: [{ type: "button", action_id: action, value: String(runId), action_ts: String(before + 1) }],
    });
    await t.fake.waitFor((calls) => calls.filter((c) => c.method === "views.open").length > before);
    const open = t.fake.callsTo("views.open").at(-1)!;
    expect(open.ok).toBe(true);
    assertWithinSlackLimits(open);
    return open.args.view as { blocks: { type: string; element?: { type: string } }[] };
  };
  /** The largest answer per type: 3,000 characters of text, the last option, every option, a long decimal. */
  const fullState = () =>
    Object.fromEntries(
      DETAILS.map((d, i) => {
        const last = String(MAX_OPTIONS - 1);
        const option = (value: string) => ({ value, text: { type: "plain_text", text: value } });
        const answer =
          d.type === "text"
            ? { type: "plain_text_input", value: longText(`Answer ${i + 1}:`, 3000) }
            : d.type === "single_choice"
              ? { type: "static_select", selected_option: option(last) }
              : d.type === "multiple_choice"
                ? {
                    type: "checkboxes",
                    selected_options: Array.from({ length: MAX_OPTIONS }, (_, j) => option(String(j))),
                  }
                : d.type === "number"
                  ? { type: "number_input", value: "-999999.123456" }
                  : { type: "radio_buttons", selected_option: option("yes") };
        return [`q${i}`, { answer }];
      }),
    );
  const submit = (user: string, values: Record<string, unknown>) =>
    t.sendInteraction({
      type: "view_submission",
      team: { id: TEAM },
      user: { id: user, team_id: TEAM },
      view: {
        id: "V0LIMTY",
        type: "modal",
        callback_id: "standup_modal",
        private_metadata: JSON.stringify({ runId }),
        state: { values },
      },
    });

  it("the ask DMs list ten typed questions within the limits, the first with its choices", async () => {
    t.clock.set("2026-03-02T09:00:10Z");
    runId = (await tick(t.deps)).started[0]!;
    await t.deps.queue.drain();
    expectAllWithinLimits(t.fake.calls);
    const ask = t.fake.callsTo("chat.postMessage").find((c) => String(c.args.text).startsWith("Time for standup"))!;
    const body = JSON.stringify(ask.args.blocks);
    for (let i = 0; i < 10; i++) expect(body).toContain(`Question ${i + 1}:`);
    expect(body.match(/_\(anonymous\)_/g)).toHaveLength(5);
  });

  it("the modal with every type at its largest opens within the limits", async () => {
    const view = await openModal(PEOPLE[0], "standup_answer");
    const types = view.blocks.filter((b) => b.type === "input").map((b) => b.element!.type);
    expect(new Set(types)).toEqual(
      new Set(["plain_text_input", "static_select", "checkboxes", "number_input", "radio_buttons"]),
    );
    expect(types).toHaveLength(11); // ten questions and the mood
  });

  it("the largest answers are taken; the reply, and the edit modal with its anonymous lines, stay within the limits", async () => {
    const before = t.fake.calls.length;
    const res = await submit(PEOPLE[0], fullState());
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe("");
    await t.deps.queue.drain();
    const reply = t.fake.messages(CHANNEL).find((m) => m.text.startsWith("Standup from"));
    expect(reply).toBeDefined();
    expectAllWithinLimits(t.fake.calls.slice(before));
    const edit = await openModal(PEOPLE[0], "standup_edit");
    expect(edit.blocks.filter((b) => b.type === "context")).toHaveLength(6); // the header line and five anonymous
  });

  it("the DM conversation's questions with ten long choices, and a re-ask, stay within the limits", async () => {
    const before = t.fake.calls.length;
    const dm = t.fake.dmFor(TEAM, PEOPLE[1]);
    const say = async (text: string, n: number) => {
      const count = t.fake.messages(dm).length;
      t.clock.advance(60_000);
      const ts = `${Math.floor(t.clock.now().getTime() / 1000)}.00000${n}`;
      await t.sendEvent(TEAM, { type: "message", channel_type: "im", channel: dm, user: PEOPLE[1], text, ts });
      await t.fake.waitFor(() => t.fake.messages(dm).length > count);
      return t.fake.messages(dm).at(-1)!.text;
    };
    expect(await say("first answer", 1)).toContain("Q2 option 10:");
    expect(await say("not an option", 2)).toContain("I could not read that answer");
    expect(await say("10", 3)).toContain("Q3 option 10:");
    expectAllWithinLimits(t.fake.calls.slice(before));
  });
});
