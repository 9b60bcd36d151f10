import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { startFakeSlack } from "../../../dev/fake-slack/index.ts";
import { useTestApp } from "../../../test/support/app.ts";
import { createSchedule } from "../../../test/support/factories.ts";
import type { QuestionDetail } from "../../contract/questions.ts";
import { rows } from "../../db/client.ts";
import { ManualClock } from "../../lib/clock.ts";
import { answerInConversation, submitResponse } from "./answers.service.ts";
import { tick } from "./scheduler.ts";

const TEAM = "T0ANDM";
const CHANNEL = "C0ANDM";
const PEOPLE = ["U0NANA", "U0NBEN", "U0NCAT", "U0NDOT"] as const;
type Person = (typeof PEOPLE)[number];
const SECRET = "Secretly exhausted";

// The anonymous questions sit in the middle, so the DM goes on after they are answered.
const DETAILS: QuestionDetail[] = [
  { text: "What did you do?", type: "text", required: true, anonymous: false },
  { text: "How do you really feel?", type: "text", required: true, anonymous: true },
  { text: "Workload, 1–5?", type: "number", min: 1, max: 5, required: true, anonymous: true },
  { text: "Anything blocking you?", type: "text", required: false, anonymous: false },
];

/** Anonymous answers typed in the DM leave the member's draft at once; late answers keep no anonymous answer. */
describe("anonymous answers in the DM conversation and late", async () => {
  const clock = new ManualClock("2026-03-02T08:00:00Z"); // a Monday
  const fake = await startFakeSlack({ now: () => clock.now().getTime() });
  const t = await useTestApp({ clock, fake });
  await t.installTeam(TEAM);
  for (const u of PEOPLE) {
    t.fake.addUser(TEAM, { id: u, name: u.toLowerCase(), real_name: u });
    await t.addMember(TEAM, u);
  }
  t.fake.addChannel(TEAM, { id: CHANNEL, name: "anon-dm", members: [...PEOPLE] });
  const scheduleId = await createSchedule(t.deps.db, clock, {
    teamId: TEAM,
    channelId: CHANNEL,
    time: "09:00",
    questions: DETAILS.map((d) => d.text),
  });
  await t.deps.db.execute(
    sql`update schedules set question_details = ${JSON.stringify(DETAILS)}::jsonb, blocker_question = 4
        where id = ${scheduleId}`,
  );
  let runId = 0;
  const dm = (u: Person) => t.fake.dmFor(TEAM, u);
  const lastBot = (u: Person) => t.fake.messages(dm(u)).at(-1)!;
  let replies = 0;
  async function say(u: Person, text: string, o: { last?: boolean } = {}) {
    clock.advance(60_000);
    const before = t.fake.messages(dm(u)).length;
    replies += 1;
    const at = `${Math.floor(clock.now().getTime() / 1000)}.${String(500_000 + replies).padStart(6, "0")}`;
    const res = await t.sendEvent(TEAM, { type: "message", channel_type: "im", channel: dm(u), user: u, text, ts: at });
    expect(res.statusCode).toBe(200);
    if (!o.last) await t.fake.waitFor(() => t.fake.messages(dm(u)).length > before);
    return at;
  }
  const anonymous = () =>
    rows<{ question_index: number; value: unknown }>(
      t.deps.db,
      sql`select question_index, value from anonymous_answers where team_id = ${TEAM} and schedule_id = ${scheduleId}
          order by question_index, value::text`,
    );
  const draftOf = async (u: Person) =>
    (
      await rows<{ draft: unknown[] | null }>(
        t.deps.db,
        sql`select draft from run_participants where run_id = ${runId} and user_id = ${u}`,
      )
    )[0]?.draft;
  /** Every row of every table with a user_id column that is this member's and holds `value` anywhere. */
  async function rowsOfMemberHolding(u: Person, value: string) {
    const tables = await rows<{ table_name: string }>(
      t.deps.db,
      sql`select distinct table_name from information_schema.columns
          where column_name = 'user_id' and table_schema = current_schema()`,
    );
    expect(tables.map((r) => r.table_name)).toContain("run_participants");
    const found: string[] = [];
    for (const { table_name } of tables) {
      const hit = await rows<{ n: number }>(
        t.deps.db,
        sql`select count(*)::int as n from ${sql.identifier(table_name)} x
            where x.user_id = ${u} and x::text like ${`%${value}%`}`,
      );
      if (hit[0]!.n > 0) found.push(table_name);
    }
    return found;
  }

  it("an anonymous answer is stored apart as soon as it is typed: no row of the member holds it", async () => {
    clock.set("2026-03-02T09:00:05Z");
    runId = (await tick(t.deps)).started[0]!;
    await t.deps.queue.drain();
    await say("U0NANA", "Shipped the API");
    expect(lastBot("U0NANA").text).toContain("How do you really feel?");
    const ts = await say("U0NANA", SECRET);
    expect(lastBot("U0NANA").text).toContain("Workload, 1–5?");
    expect(await anonymous()).toEqual([{ question_index: 1, value: SECRET }]);
    // Not finished yet, and nothing with the member's id holds the answer: the draft keeps a marker.
    expect(await rowsOfMemberHolding("U0NANA", SECRET)).toEqual([]);
    expect(await rowsOfMemberHolding("U0NANA", "Shipped the API")).toEqual(["run_participants"]);
    expect(JSON.stringify(await draftOf("U0NANA"))).not.toContain(SECRET);
    // The same Slack message processed again (a replayed event, same ts) stores nothing a second time.
    expect(await answerInConversation(t.deps, TEAM, "U0NANA", SECRET, ts)).toMatchObject({ kind: "next", index: 2 });
    await t.sendEvent(TEAM, {
      type: "message",
      channel_type: "im",
      channel: dm("U0NANA"),
      user: "U0NANA",
      text: SECRET,
      ts,
    });
    await t.deps.queue.drain();
    expect(await anonymous()).toEqual([{ question_index: 1, value: SECRET }]);
  });

  it("a bad anonymous number is asked again and not stored; the submission stores nothing twice", async () => {
    await say("U0NANA", "7");
    expect(lastBot("U0NANA").text).toContain("I could not read that answer.");
    expect(lastBot("U0NANA").text).toContain("Workload, 1–5?");
    expect(await anonymous()).toEqual([{ question_index: 1, value: SECRET }]);
    await say("U0NANA", "4");
    expect(lastBot("U0NANA").text).toContain("Anything blocking you?");
    expect(await anonymous()).toEqual([
      { question_index: 1, value: SECRET },
      { question_index: 2, value: 4 },
    ]);
    await say("U0NANA", "none", { last: true });
    await expect.poll(() => draftOf("U0NANA")).toBeNull();
    const [r] = await rows<{ answers: string[]; answer_values: unknown[] | null }>(
      t.deps.db,
      sql`select answers, answer_values from responses where run_id = ${runId} and user_id = 'U0NANA'`,
    );
    expect(r).toEqual({ answers: ["Shipped the API", "", "", "none"], answer_values: [null, null, null, null] });
    expect(await anonymous()).toHaveLength(2);
    expect(await draftOf("U0NANA")).toBeNull();
  });

  it("an anonymous answer given in the DM is not stored again when the member then submits the modal", async () => {
    await say("U0NDOT", "Planning");
    await say("U0NDOT", "Calm");
    const saved = await submitResponse(t.deps, {
      teamId: TEAM,
      runId,
      userId: "U0NDOT",
      answers: ["Planning", "Calm, really", "", ""],
      values: [null, null, 3, null],
      mood: null,
    });
    expect(saved).toMatchObject({ ok: true, created: true });
    expect(await anonymous()).toEqual([
      { question_index: 1, value: "Calm" },
      { question_index: 1, value: SECRET },
      { question_index: 2, value: 3 },
      { question_index: 2, value: 4 },
    ]);
  });

  it("a late answer, after the run closed, stores no anonymous answer (from the DM or the modal)", async () => {
    clock.set("2026-03-03T00:00:10Z");
    expect((await tick(t.deps)).closed).toBe(1);
    await t.deps.queue.drain();
    clock.set("2026-03-03T07:00:00Z");
    await say("U0NBEN", "Reviews");
    await say("U0NBEN", "Fine, honestly");
    expect(JSON.stringify(await draftOf("U0NBEN"))).not.toContain("Fine, honestly");
    await say("U0NBEN", "2");
    await say("U0NBEN", "-", { last: true });
    await expect.poll(() => draftOf("U0NBEN")).toBeNull();
    const ben = await rows<{ late: boolean }>(
      t.deps.db,
      sql`select late from responses where run_id = ${runId} and user_id = 'U0NBEN'`,
    );
    expect(ben).toEqual([{ late: true }]);
    const late = await submitResponse(t.deps, {
      teamId: TEAM,
      runId,
      userId: "U0NCAT",
      answers: ["Planning", "Stressed", "", ""],
      values: [null, null, 5, null],
      mood: null,
    });
    expect(late).toMatchObject({ ok: true, created: true });
    // The closed run's anonymous answers are what they were when it closed.
    expect(await anonymous()).toHaveLength(4);
    expect(JSON.stringify(await anonymous())).not.toMatch(/Fine, honestly|Stressed|5/);
  });
});
