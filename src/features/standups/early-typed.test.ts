import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import { createSchedule } from "../../../test/support/factories.ts";
import type { QuestionDetail } from "../../contract/questions.ts";
import { rows } from "../../db/client.ts";
import { tick } from "./scheduler.ts";

const TEAM = "T0EARLYT";
const CHANNEL = "C0EARLYT";

/**
 * Answering ahead a standup with typed questions: the early modal reads them by type, a value Slack could not check is
 * named, the anonymous answer is stored without the member at once (once, never on a re-save), and the run's response
 * made from the early answer carries the typed values and no anonymous one.
 */
describe("answering ahead with typed and anonymous questions", async () => {
  const t = await useTestApp();
  t.clock.set("2026-03-02T23:00:00Z"); // Monday night: 10 h before Tuesday's 09:00 UTC run
  await t.installTeam(TEAM);
  t.fake.addUser(TEAM, { id: "U0ETANA", name: "ana", real_name: "Ana" });
  await t.addMember(TEAM, "U0ETANA");
  t.fake.addChannel(TEAM, { id: CHANNEL, name: "typed", members: ["U0ETANA", "BT0EARLYTBOT"] });
  const details: QuestionDetail[] = [
    { text: "What will you do today?", type: "text", required: true, anonymous: false },
    { text: "How confident are you?", type: "number", min: 1, max: 5, required: true, anonymous: false },
    { text: "Is the workload fair?", type: "yes_no", required: true, anonymous: true },
  ];
  const scheduleId = await createSchedule(t.deps.db, t.clock, {
    teamId: TEAM,
    channelId: CHANNEL,
    time: "09:00",
    questions: details.map((d) => d.text),
  });
  await t.deps.db.execute(
    sql`update schedules set question_details = ${JSON.stringify(details)}::jsonb, blocker_question = null
        where id = ${scheduleId}`,
  );
  const submit = (confidence: string, fair: "yes" | "no" | null) =>
    t.sendInteraction({
      type: "view_submission",
      team: { id: TEAM, domain: "typed" },
      user: { id: "U0ETANA", team_id: TEAM },
      api_app_id: "A0UPBEAT",
      token: "legacy",
      trigger_id: "trigger.typed",
      view: {
        id: "V0TYPED",
        type: "modal",
        team_id: TEAM,
        callback_id: "standup_early_modal",
        private_metadata: JSON.stringify({ scheduleId, localDate: "2026-03-03" }),
        state: {
          values: {
            q0: { answer: { type: "plain_text_input", value: "Ship the export" } },
            q1: { answer: { type: "number_input", value: confidence } },
            ...(fair ? { q2: { answer: { type: "radio_buttons", selected_option: { value: fair } } } } : {}),
            mood: { mood: { type: "static_select", selected_option: null } },
          },
        },
      },
    });
  const anonymous = () =>
    rows<{ standup_date: string; question_index: number; value: unknown }>(
      t.deps.db,
      sql`select standup_date::text as standup_date, question_index, value from anonymous_answers
          where team_id = ${TEAM}`,
    );

  it("refuses a number out of range, naming the question, and stores nothing", async () => {
    const res = await submit("9", "yes");
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ response_action: "errors", errors: { q1: expect.any(String) } });
    expect(await anonymous()).toEqual([]);
  });

  it("stores the early answer with its typed value, the anonymous one apart and once", async () => {
    expect((await submit("4", "yes")).statusCode).toBe(200);
    // A re-save (the modal opened again): the anonymous question is locked, so it sends no value for it.
    expect((await submit("3", null)).statusCode).toBe(200);
    const [early] = await rows<{ answers: string[]; answer_values: unknown[] }>(
      t.deps.db,
      sql`select answers, answer_values from early_answers where team_id = ${TEAM}`,
    );
    expect(early).toEqual({ answers: ["Ship the export", "3", ""], answer_values: [null, 3, null] });
    expect(await anonymous()).toEqual([{ standup_date: "2026-03-03", question_index: 2, value: true }]);
  });

  it("the run's response made from it carries the typed values and adds no second anonymous answer", async () => {
    t.clock.set("2026-03-03T09:00:30Z");
    await tick(t.deps);
    await t.deps.queue.drain();
    const [response] = await rows<{ answers: string[]; answer_values: unknown[] }>(
      t.deps.db,
      sql`select answers, answer_values from responses where team_id = ${TEAM} and standup_date = '2026-03-03'`,
    );
    expect(response).toEqual({ answers: ["Ship the export", "3", ""], answer_values: [null, 3, null] });
    expect(await anonymous()).toHaveLength(1);
  });
});
