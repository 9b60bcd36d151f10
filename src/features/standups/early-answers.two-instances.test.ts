import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeSlack } from "../../../dev/fake-slack/index.ts";
import type { TestApp } from "../../../test/support/app.ts";
import { onPostgres } from "../../../test/support/database.ts";
import { createSchedule } from "../../../test/support/factories.ts";
import { startTwoInstances } from "../../../test/support/two-instances.ts";
import { questionDetailsOf } from "../../contract/questions.ts";
import { rows } from "../../db/client.ts";
import { ManualClock } from "../../lib/clock.ts";
import { DEFAULT_QUESTIONS } from "../templates/index.ts";
import { upsertEarlyAnswer } from "./early-answers.repo.ts";
import { convertEarlyAnswer } from "./early-convert.ts";
import { findRun } from "./runs.repo.ts";
import { tick } from "./scheduler.ts";

/** Early answers become responses exactly once, whichever instance and however many times the ask runs. */
describe.runIf(onPostgres)("early answers under two app instances", () => {
  const people = Array.from({ length: 12 }, (_, i) => `U0EW${String(i).padStart(2, "0")}`);
  const clock = new ManualClock("2026-03-02T23:00:00Z");
  let fake: FakeSlack;
  let a: TestApp;
  let b: TestApp;
  let close: () => Promise<void>;
  let scheduleId = "";
  let runId = 0;
  const asked = questionDetailsOf([...DEFAULT_QUESTIONS], null);

  beforeAll(async () => {
    ({ a, b, fake, close } = await startTwoInstances({ clock }));
    await a.installTeam("T0EW");
    for (const u of people) {
      fake.addUser("T0EW", { id: u, name: u.toLowerCase(), real_name: u });
      await a.addMember("T0EW", u);
    }
    fake.addChannel("T0EW", { id: "C0EW", name: "ew", members: [...people, "BT0EWBOT"] });
    scheduleId = await createSchedule(a.deps.db, clock, { teamId: "T0EW", channelId: "C0EW", time: "09:00" });
    for (const u of people) {
      await upsertEarlyAnswer(
        a.deps.db,
        {
          teamId: "T0EW",
          scheduleId,
          userId: u,
          localDate: "2026-03-03",
          answers: [`ahead ${u}`, "b", "none"],
          answerValues: null,
          mood: null,
          questions: asked,
        },
        clock.now(),
      );
    }
  });
  afterAll(async () => {
    await close?.();
  });

  it("the asks of both instances thank each member once and store each early answer once", async () => {
    clock.set("2026-03-03T09:00:05Z");
    const started = (await Promise.all([tick(a.deps), tick(b.deps)])).flatMap((r) => r.started);
    expect(started).toHaveLength(1);
    runId = started[0]!;
    await Promise.all([a.deps.queue.drain(), b.deps.queue.drain()]);
    await Promise.all([tick(a.deps), tick(b.deps)]);
    await Promise.all([a.deps.queue.drain(), b.deps.queue.drain()]);

    const responses = await rows<{ user_id: string; version: number; answers: string[] }>(
      a.deps.db,
      sql`select user_id, version, answers from responses where team_id = 'T0EW' and standup_date = '2026-03-03'`,
    );
    expect(responses.map((r) => r.user_id).sort()).toEqual(people);
    expect(responses.every((r) => r.version === 1 && r.answers[0] === `ahead ${r.user_id}`)).toBe(true);
    expect(await rows(a.deps.db, sql`select 1 from early_answers where team_id = 'T0EW'`)).toEqual([]);
    for (const u of people) {
      const dms = fake.messages(fake.dmFor("T0EW", u)).map((m) => m.text);
      // One DM: the thanks stands for the reply's confirmation too.
      expect(dms, u).toEqual(["Thanks, you already answered for Tuesday 3 March 2026"]);
    }
    expect(fake.messages("C0EW").filter((m) => m.thread_ts)).toHaveLength(people.length);
  });

  it("one conversion raced on both instances commits once (the other sees the early answer taken)", async () => {
    const run = (await findRun(a.deps.db, "T0EW", runId))!;
    const late = "U0EWLATE";
    await a.deps.db.execute(
      sql`insert into run_participants (run_id, user_id, team_id, status, created_at)
          values (${runId}, ${late}, 'T0EW', 'asked', now())`,
    );
    await upsertEarlyAnswer(
      a.deps.db,
      {
        teamId: "T0EW",
        scheduleId,
        userId: late,
        localDate: "2026-03-03",
        answers: ["x", "y", "none"],
        answerValues: null,
        mood: null,
        questions: asked,
      },
      clock.now(),
    );
    const raced = await Promise.all([convertEarlyAnswer(a.deps, run, late), convertEarlyAnswer(b.deps, run, late)]);
    const mine = await rows<{ id: number; version: number }>(
      a.deps.db,
      sql`select id::int as id, version from responses where run_id = ${runId} and user_id = ${late}`,
    );
    expect(mine).toEqual([{ id: expect.any(Number), version: 1 }]);
    expect(raced).toEqual([{ responseId: mine[0]!.id }, { responseId: mine[0]!.id }]);
    await Promise.all([a.deps.queue.drain(), b.deps.queue.drain()]);
    expect(fake.messages("C0EW").filter((m) => m.thread_ts && m.text.includes(late))).toHaveLength(1);
  });
});
