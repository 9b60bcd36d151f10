import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import { createSchedule } from "../../../test/support/factories.ts";
import { assertWithinSlackLimits } from "../../../test/support/slack-limits.ts";
import type { QuestionDetail } from "../../contract/questions.ts";
import { rows } from "../../db/client.ts";
import { tick } from "./scheduler.ts";

const TEAM = "T0TYPED";
const CHANNEL = "C0TYPED";
const PEOPLE = ["U0TANA", "U0TBEN"] as const;

const DETAILS: QuestionDetail[] = [
  { text: "What did you do yesterday?", type: "text", required: true, anonymous: false },
  { text: "How confident are you?", type: "number", min: 1, max: 5, required: true, anonymous: false },
  {
    text: "Which area?",
    type: "single_choice",
    options: ["Frontend", "Backend", "Café Ops"],
    required: true,
    anonymous: false,
  },
  {
    text: "Which days?",
    type: "multiple_choice",
    options: ["Mon", "Tue", "Wed", "Thu"],
    required: true,
    anonymous: false,
  },
  { text: "Anything blocking you?", type: "text", required: false, anonymous: false },
  { text: "Need help?", type: "yes_no", required: true, anonymous: false },
  { text: "How is the team mood?", type: "number", min: 1, max: 5, required: true, anonymous: true },
  {
    text: "Favourite tool?",
    type: "single_choice",
    options: ["a", "b", "c", "d", "e", "f", "g"],
    required: false,
    anonymous: false,
  },
];

interface View {
  blocks: {
    type: string;
    block_id?: string;
    optional?: boolean;
    hint?: { text: string };
    elements?: { text: string }[];
    element?: {
      type: string;
      options?: { text: { text: string }; value: string }[];
      min_value?: string;
      max_value?: string;
      is_decimal_allowed?: boolean;
      initial_value?: string;
      initial_option?: { value: string };
      initial_options?: { value: string }[];
    };
  }[];
}

/** The modal's state as Slack posts it, per element type. */
const state = {
  text: (value: string) => ({ answer: { type: "plain_text_input", value } }),
  number: (value: string | null) => ({ answer: { type: "number_input", value } }),
  radio: (value: string | null) => ({
    answer: {
      type: "radio_buttons",
      selected_option: value === null ? null : { value, text: { type: "plain_text", text: value } },
    },
  }),
  select: (value: string | null) => ({
    answer: {
      type: "static_select",
      selected_option: value === null ? null : { value, text: { type: "plain_text", text: value } },
    },
  }),
  checks: (values: string[]) => ({
    answer: {
      type: "checkboxes",
      selected_options: values.map((value) => ({ value, text: { type: "plain_text", text: value } })),
    },
  }),
};

describe("typed questions in the answer modal", async () => {
  const t = await useTestApp();
  t.clock.set("2026-03-02T08:00:00Z"); // a Monday
  await t.installTeam(TEAM);
  for (const u of PEOPLE) {
    t.fake.addUser(TEAM, { id: u, name: u.toLowerCase(), real_name: u });
    await t.addMember(TEAM, u);
  }
  t.fake.addChannel(TEAM, { id: CHANNEL, name: "typed", members: [...PEOPLE] });
  const scheduleId = await createSchedule(t.deps.db, t.clock, {
    teamId: TEAM,
    channelId: CHANNEL,
    time: "09:00",
    questions: DETAILS.map((d) => d.text),
  });
  await t.deps.db.execute(
    sql`update schedules set question_details = ${JSON.stringify(DETAILS)}::jsonb, blocker_question = 5 where id = ${scheduleId}`,
  );
  let runId = 0;

  const openModal = async (user: string, action = "standup_answer") => {
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
    const call = t.fake.callsTo("views.open").at(-1)!;
    assertWithinSlackLimits(call);
    return call.args.view as View;
  };
  const submit = (user: string, values: Record<string, unknown>) =>
    t.sendInteraction({
      type: "view_submission",
      team: { id: TEAM },
      user: { id: user, team_id: TEAM },
      trigger_id: "trigger.sub",
      view: {
        id: "V0TYPED",
        type: "modal",
        callback_id: "standup_modal",
        private_metadata: JSON.stringify({ runId }),
        state: { values: { ...values, mood: { mood: { type: "static_select", selected_option: null } } } },
      },
    });
  const full = (overrides: Record<string, unknown> = {}) => ({
    q0: state.text("Shipped the search"),
    q1: state.number("4.5"),
    q2: state.radio("2"),
    q3: state.checks(["2", "0"]),
    q4: state.text(""),
    q5: state.radio("yes"),
    q6: state.number("3"),
    q7: state.select(null),
    ...overrides,
  });
  const responseOf = async (user: string) =>
    (
      await rows<{ answers: string[]; answer_values: unknown[] | null; version: number; blockers: string }>(
        t.deps.db,
        sql`select answers, answer_values, version, blockers from responses where run_id = ${runId} and user_id = ${user}`,
      )
    )[0];
  const anonymousRows = () =>
    rows<{ question_index: number; value: unknown; standup_date: string }>(
      t.deps.db,
      sql`select question_index, value, standup_date::text from anonymous_answers where team_id = ${TEAM}`,
    );

  it("the run keeps the details, and the ask DM marks the anonymous question", async () => {
    t.clock.set("2026-03-02T09:00:10Z");
    runId = (await tick(t.deps)).started[0]!;
    await t.deps.queue.drain();
    const [run] = await rows<{ question_details: QuestionDetail[] }>(
      t.deps.db,
      sql`select question_details from standup_runs where id = ${runId}`,
    );
    expect(run!.question_details).toEqual(DETAILS);
    const ask = t.fake.callsTo("chat.postMessage").find((c) => c.args.channel === t.fake.dmFor(TEAM, "U0TANA"))!;
    assertWithinSlackLimits(ask);
    expect(JSON.stringify(ask.args.blocks)).toContain("How is the team mood? _(anonymous)_");
    expect(JSON.stringify(ask.args.blocks)).not.toContain("Need help? _(anonymous)_");
  });

  it("opens a modal with Slack's input for each question type", async () => {
    const view = await openModal("U0TANA");
    const q = (i: number) => view.blocks.find((b) => b.block_id === `q${i}`)!;
    expect(q(0).element!.type).toBe("plain_text_input");
    expect(q(1).element).toMatchObject({
      type: "number_input",
      is_decimal_allowed: true,
      min_value: "1",
      max_value: "5",
    });
    expect(q(2).element!.type).toBe("radio_buttons");
    expect(q(2).element!.options!.map((o) => o.text.text)).toEqual(["Frontend", "Backend", "Café Ops"]);
    expect(q(3).element!.type).toBe("checkboxes");
    expect(q(3).element!.options).toHaveLength(4);
    expect(q(4).optional).toBe(true);
    expect(q(0).optional).toBeUndefined();
    expect(q(5).element!.options!.map((o) => o.value)).toEqual(["yes", "no"]);
    expect(q(6).hint!.text).toBe("Anonymous: stored without your name, shown only when 5 or more answer");
    expect(q(7)).toMatchObject({ optional: true, element: { type: "static_select" } });
    expect(q(7).element!.options).toHaveLength(7);
  });

  it("a number out of range, or an unknown option, keeps the modal open naming the block; nothing is stored", async () => {
    expect((await submit("U0TANA", full({ q1: state.number("7") }))).json()).toEqual({
      response_action: "errors",
      errors: { q1: "Please enter a number from 1 to 5." },
    });
    expect((await submit("U0TANA", full({ q2: state.radio("9") }))).json()).toEqual({
      response_action: "errors",
      errors: { q2: "Please choose one of the options." },
    });
    expect((await submit("U0TANA", full({ q5: state.radio(null) }))).json()).toEqual({
      response_action: "errors",
      errors: { q5: "Please answer this question." },
    });
    expect(await responseOf("U0TANA")).toBeUndefined();
    expect(await anonymousRows()).toEqual([]);
  });

  it("stores texts and typed values; the anonymous answer only apart, without the member", async () => {
    const res = await submit("U0TANA", full());
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe("");
    const r = await responseOf("U0TANA");
    expect(r!.answers).toEqual(["Shipped the search", "4.5", "Café Ops", "Mon, Wed", "", "Yes", "", ""]);
    expect(r!.answer_values).toEqual([null, 4.5, "Café Ops", ["Mon", "Wed"], null, true, null, null]);
    expect(r!.blockers).toBe("");
    expect(await anonymousRows()).toEqual([{ question_index: 6, value: 3, standup_date: "2026-03-02" }]);
    await t.deps.queue.drain();
    const reply = t.fake.messages(CHANNEL).find((m) => JSON.stringify(m.blocks ?? []).includes("U0TANA"))!;
    const body = JSON.stringify(reply.blocks);
    expect(body).toContain("Mon, Wed");
    expect(body).toContain("Café Ops");
    expect(body).not.toContain("How is the team mood?");
  });

  it("an edit shows the earlier values and the anonymous question as a line that cannot be changed", async () => {
    const view = await openModal("U0TANA", "standup_edit");
    const q = (i: number) => view.blocks.find((b) => b.block_id === `q${i}`)!;
    expect(q(1).element!.initial_value).toBe("4.5");
    expect(q(2).element!.initial_option!.value).toBe("2");
    expect(q(3).element!.initial_options!.map((o) => o.value)).toEqual(["0", "2"]);
    expect(q(5).element!.initial_option!.value).toBe("yes");
    expect(q(6).type).toBe("context");
    expect(q(6).elements![0]!.text).toContain("You answered this anonymously; it cannot be changed");
  });

  it("saving the edit changes the row but never adds a second anonymous answer", async () => {
    const { q6: _anonymous, ...edited } = full({ q1: state.number("2"), q5: state.radio("no") });
    const res = await submit("U0TANA", edited);
    expect(res.body).toBe("");
    const r = await responseOf("U0TANA");
    expect(r!.version).toBe(2);
    expect(r!.answer_values).toEqual([null, 2, "Café Ops", ["Mon", "Wed"], null, false, null, null]);
    expect(r!.answers[6]).toBe("");
    // A crafted edit carrying the anonymous input again is ignored too.
    await submit("U0TANA", full({ q6: state.number("1") }));
    expect(await anonymousRows()).toHaveLength(1);
  });
});
