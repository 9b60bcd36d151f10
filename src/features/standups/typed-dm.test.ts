import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { startFakeSlack } from "../../../dev/fake-slack/index.ts";
import { useTestApp } from "../../../test/support/app.ts";
import { createSchedule } from "../../../test/support/factories.ts";
import type { QuestionDetail } from "../../contract/questions.ts";
import { rows } from "../../db/client.ts";
import { ManualClock } from "../../lib/clock.ts";
import { tick } from "./scheduler.ts";

const TEAM = "T0TYDM";
const CHANNEL = "C0TYDM";
const PEOPLE = ["U0YANA", "U0YBEN"] as const;
type Person = (typeof PEOPLE)[number];

const DETAILS: QuestionDetail[] = [
  {
    text: "Which area?",
    type: "single_choice",
    options: ["Frontend", "Backend", "Café Ops"],
    required: true,
    anonymous: false,
  },
  { text: "How confident are you?", type: "number", min: 1, max: 5, required: true, anonymous: false },
  { text: "Which days?", type: "multiple_choice", options: ["Mon", "Tue", "Wed"], required: true, anonymous: false },
  { text: "Need help?", type: "yes_no", required: true, anonymous: false },
  { text: "Anything blocking you?", type: "text", required: false, anonymous: false },
  { text: "Team mood?", type: "text", required: true, anonymous: true },
];

/** Answering typed questions one at a time in the DM: each asked with its choices, a bad answer asked again. */
describe("typed questions in the DM conversation", async () => {
  const clock = new ManualClock("2026-03-02T08:00:00Z"); // a Monday
  const fake = await startFakeSlack({ now: () => clock.now().getTime() });
  const t = await useTestApp({ clock, fake });
  await t.installTeam(TEAM);
  for (const u of PEOPLE) {
    t.fake.addUser(TEAM, { id: u, name: u.toLowerCase(), real_name: u });
    await t.addMember(TEAM, u);
  }
  t.fake.addChannel(TEAM, { id: CHANNEL, name: "typed-dm", members: [...PEOPLE] });
  const scheduleId = await createSchedule(t.deps.db, clock, {
    teamId: TEAM,
    channelId: CHANNEL,
    time: "09:00",
    questions: DETAILS.map((d) => d.text),
  });
  await t.deps.db.execute(
    sql`update schedules set question_details = ${JSON.stringify(DETAILS)}::jsonb, blocker_question = 5 where id = ${scheduleId}`,
  );
  let runId = 0;
  const dm = (u: Person) => t.fake.dmFor(TEAM, u);
  const lastBot = (u: Person) => t.fake.messages(dm(u)).at(-1)!;
  const textOf = (m: { text: string; blocks?: unknown }) => `${m.text} ${JSON.stringify(m.blocks ?? [])}`;
  let replies = 0;
  async function say(u: Person, text: string, expectBotReply = true) {
    clock.advance(60_000);
    const before = t.fake.messages(dm(u)).length;
    replies += 1;
    const ts = `${Math.floor(clock.now().getTime() / 1000)}.${String(500_000 + replies).padStart(6, "0")}`;
    const res = await t.sendEvent(TEAM, { type: "message", channel_type: "im", channel: dm(u), user: u, text, ts });
    expect(res.statusCode).toBe(200);
    if (expectBotReply) await t.fake.waitFor(() => t.fake.messages(dm(u)).length > before);
  }
  const draftOf = async (u: Person) =>
    (
      await rows<{ draft: [string, string][] | null }>(
        t.deps.db,
        sql`select draft from run_participants where run_id = ${runId} and user_id = ${u}`,
      )
    )[0]?.draft?.map((d) => d[1]) ?? [];
  const responseOf = async (u: Person) =>
    (
      await rows<{ answers: string[]; answer_values: unknown[] | null }>(
        t.deps.db,
        sql`select answers, answer_values from responses where run_id = ${runId} and user_id = ${u}`,
      )
    )[0];

  it("the ask DM starts with the first question and its choices", async () => {
    clock.set("2026-03-02T09:00:05Z");
    runId = (await tick(t.deps)).started[0]!;
    await t.deps.queue.drain();
    const ask = textOf(lastBot("U0YANA"));
    expect(ask).toContain("starting with: *Which area?*");
    expect(ask).toContain("Reply with one of: 1. Frontend, 2. Backend, 3. Café Ops");
    expect(ask).toContain("Team mood? _(anonymous)_");
  });

  it("an option by its text, whatever the case and accents; the number question asks with its range", async () => {
    await say("U0YANA", "  cafe ops ");
    expect(lastBot("U0YANA").text).toBe("*2/6:* How confident are you?\n_Reply with a number from 1 to 5_");
  });

  it("a number out of range is asked again with the range, and not stored", async () => {
    await say("U0YANA", "7");
    expect(lastBot("U0YANA").text).toBe(
      ":thinking_face: I could not read that answer. *2/6:* How confident are you?\n_Reply with a number from 1 to 5_",
    );
    expect(await draftOf("U0YANA")).toEqual(["  cafe ops ".trim()]);
    await say("U0YANA", "3,5");
    expect(lastBot("U0YANA").text).toBe(
      "*3/6:* Which days?\n_Reply with one or more of: 1. Mon, 2. Tue, 3. Wed (separated by commas)_",
    );
  });

  it("multiple choice by numbers and texts; yes/no takes y; a bad yes/no is asked again", async () => {
    await say("U0YANA", "wed, 1");
    expect(lastBot("U0YANA").text).toBe("*4/6:* Need help?\n_Reply yes or no_");
    await say("U0YANA", "maybe");
    expect(lastBot("U0YANA").text).toContain("I could not read that answer. *4/6:* Need help?");
    await say("U0YANA", "Y");
    expect(lastBot("U0YANA").text).toBe("*5/6:* Anything blocking you?\n_Optional: reply `-` to leave it blank_");
  });

  it("an optional question takes `-`; the anonymous answer is stored apart, never in the response", async () => {
    await say("U0YANA", "-");
    expect(lastBot("U0YANA").text).toBe("*6/6:* Team mood?\n_Anonymous: stored without your name_");
    await say("U0YANA", "Tired but fine", false);
    await expect.poll(() => responseOf("U0YANA")).toBeDefined();
    const r = await responseOf("U0YANA");
    expect(r!.answers).toEqual(["Café Ops", "3.5", "Mon, Wed", "Yes", "", ""]);
    expect(r!.answer_values).toEqual(["Café Ops", 3.5, ["Mon", "Wed"], true, null, null]);
    const anon = await rows<{ question_index: number; value: unknown }>(
      t.deps.db,
      sql`select question_index, value from anonymous_answers where team_id = ${TEAM} and schedule_id = ${scheduleId}`,
    );
    // Stored once (taken out of the draft when typed, not again at the submission), and nowhere near the member.
    expect(anon).toEqual([{ question_index: 5, value: "Tired but fine" }]);
    const mine = await rows<{ row: string }>(
      t.deps.db,
      sql`select p::text as row from run_participants p where p.user_id = 'U0YANA'
          union all select r::text from responses r where r.user_id = 'U0YANA'`,
    );
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.map((m) => m.row).join("\n")).not.toContain("Tired but fine");
    await t.deps.queue.drain();
    const thread = JSON.stringify(t.fake.messages(CHANNEL).map((m) => m.blocks ?? []));
    expect(thread).toContain("Café Ops");
    expect(thread).not.toContain("Tired but fine");
  });

  it("a required typed question does not take `-`, and an option number past the list is asked again", async () => {
    await say("U0YBEN", "-");
    expect(lastBot("U0YBEN").text).toContain("I could not read that answer. *1/6:* Which area?");
    await say("U0YBEN", "4");
    expect(lastBot("U0YBEN").text).toContain("I could not read that answer. *1/6:* Which area?");
    await say("U0YBEN", "2");
    expect(lastBot("U0YBEN").text).toContain("*2/6:* How confident are you?");
    expect(await draftOf("U0YBEN")).toEqual(["2"]);
    expect(t.fake.unexpected).toEqual([]);
  });
});
