import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import { createSchedule } from "../../../test/support/factories.ts";
import type { QuestionDetail } from "../../contract/questions.ts";
import type { Db } from "../../db/client.ts";
import { rows } from "../../db/client.ts";
import { upsertEarlyAnswer } from "./early-answers.repo.ts";
import { saveEarlyAnswer } from "./early-answers.ts";
import { convertEarlyAnswer, questionsAsked } from "./early-convert.ts";
import { QUESTIONS_CHANGED_NOTE } from "./early-messages.ts";
import { findRun } from "./runs.repo.ts";
import { tick } from "./scheduler.ts";

const TEAM = "T0ERACE";
const CHANNEL = "C0ERACE";

/**
 * The same database, with `between` run just before its next transaction begins: puts another step exactly between a
 * decision read outside a transaction and the transaction that acts on it, so an interleaving is tested every time.
 */
function stepBeforeNextTransaction(db: Db, between: () => Promise<void>): { db: Db; ran: () => boolean } {
  let ran = false;
  const proxy = new Proxy(db, {
    get(target, prop) {
      const v = Reflect.get(target, prop, target) as unknown;
      if (prop === "transaction" && !ran) {
        return async (...args: Parameters<Db["transaction"]>) => {
          ran = true;
          await between();
          return target.transaction(...args);
        };
      }
      return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
  return { db: proxy, ran: () => ran };
}

/** Early answers against the run's start: changed questions, and saves or conversions that interleave. */
describe("early answers meeting changed questions and the run's start", async () => {
  const t = await useTestApp();
  t.clock.set("2026-03-02T23:00:00Z"); // Monday night: 10 h before Tuesday's 09:00 UTC run
  await t.installTeam(TEAM);
  for (const id of ["U0RANA", "U0RBEN"]) {
    t.fake.addUser(TEAM, { id, name: id.toLowerCase(), real_name: id });
    await t.addMember(TEAM, id);
  }
  t.fake.addChannel(TEAM, { id: CHANNEL, name: "race", members: ["U0RANA", "U0RBEN", "BT0ERACEBOT"] });
  const details: QuestionDetail[] = [
    { text: "What did you do yesterday?", type: "text", required: true, anonymous: false },
    { text: "What will you do today?", type: "text", required: true, anonymous: false },
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
  const save = (deps: typeof t.deps, userId: string, localDate: string, answers: string[], fair?: boolean) =>
    saveEarlyAnswer(deps, {
      teamId: TEAM,
      userId,
      scheduleId,
      localDate,
      answers: [...answers, ""],
      values: [undefined, undefined, fair],
      mood: null,
    });
  const startRun = async (at: string) => {
    t.clock.set(at);
    await tick(t.deps);
    await t.deps.queue.drain();
    await tick(t.deps);
    await t.deps.queue.drain();
  };
  const early = () =>
    rows<{ user_id: string; local_date: string }>(
      t.deps.db,
      sql`select user_id, local_date::text as local_date from early_answers where team_id = ${TEAM}`,
    );
  const responsesOn = (date: string) =>
    rows<{ user_id: string; answers: string[]; version: number }>(
      t.deps.db,
      sql`select user_id, answers, version from responses where team_id = ${TEAM} and standup_date = ${date}
          order by user_id`,
    );
  const anonymousOn = (date: string) =>
    rows(t.deps.db, sql`select 1 from anonymous_answers where team_id = ${TEAM} and standup_date = ${date}`);

  it("a save decided before the run started but landing after its conversion goes to the run's response", async () => {
    expect(await save(t.deps, "U0RANA", "2026-03-03", ["Reviews", "Billing"], true)).toEqual({ ok: true, early: true });
    expect(await anonymousOn("2026-03-03")).toHaveLength(1);
    // Ana saves again while the window is open; between that decision and its transaction the run starts and the
    // ask turns her first early answer into her response.
    const raced = stepBeforeNextTransaction(t.deps.db, () => startRun("2026-03-03T09:00:10Z"));
    t.clock.set("2026-03-03T08:59:00Z");
    const outcome = await save({ ...t.deps, db: raced.db }, "U0RANA", "2026-03-03", ["Reviews", "Billing v2"], true);
    expect(raced.ran()).toBe(true);
    expect(outcome).toEqual({ ok: true, early: false });
    const [ana] = await responsesOn("2026-03-03");
    expect(ana).toEqual({ user_id: "U0RANA", answers: ["Reviews", "Billing v2", ""], version: 2 });
    // No early row left behind for a run that will not convert it again, and no second anonymous answer.
    expect(await early()).toEqual([]);
    expect(await anonymousOn("2026-03-03")).toHaveLength(1);
  });

  it("an edit landing between the conversion's read and its transaction is what becomes the response", async () => {
    const runId = (
      await rows<{ id: number }>(
        t.deps.db,
        sql`select id::int as id from standup_runs where team_id = ${TEAM} and local_date = '2026-03-03'`,
      )
    )[0]!.id;
    const run = (await findRun(t.deps.db, TEAM, runId))!;
    expect(run.status).toBe("open");
    // A member the run asks whose ask has not converted their early answer yet.
    await t.deps.db.execute(
      sql`insert into run_participants (run_id, user_id, team_id, status, created_at)
          values (${runId}, 'U0RLATE', ${TEAM}, 'asked', now())`,
    );
    const key = { teamId: TEAM, scheduleId, userId: "U0RLATE", localDate: "2026-03-03" };
    const first = { answers: ["Old", "Old", ""], answerValues: [null, null, null], mood: null };
    await upsertEarlyAnswer(t.deps.db, { ...key, ...first, questions: questionsAsked(run) }, t.clock.now());
    const raced = stepBeforeNextTransaction(t.deps.db, async () => {
      expect(await save(t.deps, "U0RLATE", "2026-03-03", ["New", "New"])).toEqual({ ok: true, early: true });
    });
    const converted = await convertEarlyAnswer({ ...t.deps, db: raced.db }, run, "U0RLATE");
    expect(raced.ran()).toBe(true);
    const late = (await responsesOn("2026-03-03")).find((r) => r.user_id === "U0RLATE");
    expect(late).toEqual({ user_id: "U0RLATE", answers: ["New", "New", ""], version: 1 });
    expect(converted).toEqual({ responseId: expect.any(Number) });
    expect(await early()).toEqual([]);
  });

  it("an early answer to questions since changed is not converted: the member is asked again, told why", async () => {
    t.clock.set("2026-03-03T23:00:00Z"); // Tuesday night: Wednesday's run is open to answer ahead
    expect(await save(t.deps, "U0RBEN", "2026-03-04", ["Specs", "Tests"], false)).toEqual({ ok: true, early: true });
    const changed = details.map((d, i) => (i === 1 ? { ...d, text: "What is your plan today?" } : d));
    await t.deps.db.execute(
      sql`update schedules set questions = ${JSON.stringify(changed.map((d) => d.text))}::jsonb,
          question_details = ${JSON.stringify(changed)}::jsonb where id = ${scheduleId}`,
    );
    await startRun("2026-03-04T09:00:10Z");
    expect(await responsesOn("2026-03-04")).toEqual([]);
    expect(await early()).toEqual([]);
    const benDms = t.fake.messages(t.fake.dmFor(TEAM, "U0RBEN")).filter((m) => m.text.startsWith("Time for standup"));
    expect(benDms).toHaveLength(2); // Tuesday's and Wednesday's
    expect(JSON.stringify(benDms[1])).toContain(QUESTIONS_CHANGED_NOTE);
    expect(JSON.stringify(benDms[1])).toContain("What is your plan today?");
    expect(JSON.stringify(benDms[0])).not.toContain(QUESTIONS_CHANGED_NOTE);
    // Ana did not answer ahead: her ask has no note.
    const anaDms = t.fake.messages(t.fake.dmFor(TEAM, "U0RANA")).filter((m) => m.text.startsWith("Time for standup"));
    expect(anaDms).toHaveLength(1);
    expect(JSON.stringify(anaDms[0])).not.toContain(QUESTIONS_CHANGED_NOTE);
  });
});
