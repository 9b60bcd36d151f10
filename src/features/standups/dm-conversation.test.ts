import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { startFakeSlack } from "../../../dev/fake-slack/index.ts";
import { useTestApp } from "../../../test/support/app.ts";
import { createSchedule } from "../../../test/support/factories.ts";
import { submitStandup } from "../../../test/support/standup-answers.ts";
import { rows } from "../../db/client.ts";
import { ManualClock } from "../../lib/clock.ts";
import { tick } from "./scheduler.ts";

const TEAM = "T0TWODM";
const PEOPLE = ["U0TDANA", "U0TDBEN", "U0TDCAT", "U0TDDAN", "U0TDEVE"] as const;
type Person = (typeof PEOPLE)[number];

/**
 * Two overlapping standups in one DM: A (#alpha) asks at 09:00 UTC, B (#beta, named "Beta sync") at 09:30 UTC (04:30 in
 * New York, so it closes five hours after A). Each member
 * answers them in turn, and every DM answer lands on the run whose question was asked last before it.
 */
describe("two overlapping standups in one DM", async () => {
  const clock = new ManualClock("2026-03-02T08:00:00Z"); // a Monday
  // Slack's ts follow the test's clock, so members' replies come after the questions they answer, as in Slack.
  const fake = await startFakeSlack({ now: () => clock.now().getTime() });
  const t = await useTestApp({ clock, fake });
  await t.installTeam(TEAM);
  for (const u of PEOPLE) {
    t.fake.addUser(TEAM, { id: u, name: u.toLowerCase(), real_name: u });
    await t.addMember(TEAM, u);
  }
  t.fake.addChannel(TEAM, { id: "C0TDALPHA", name: "alpha", members: [...PEOPLE] });
  t.fake.addChannel(TEAM, { id: "C0TDBETA", name: "beta", members: [...PEOPLE] });
  const scheduleA = await createSchedule(t.deps.db, clock, {
    teamId: TEAM,
    channelId: "C0TDALPHA",
    time: "09:00",
    questions: ["A one?", "A two?", "A three?"],
  });
  const scheduleB = await createSchedule(t.deps.db, clock, {
    teamId: TEAM,
    channelId: "C0TDBETA",
    time: "04:30",
    tz: "America/New_York",
    questions: ["B one?", "B two?"],
  });
  await t.deps.db.execute(sql`update schedules set name = 'Beta sync' where id = ${scheduleB}`);
  await t.deps.db.execute(sql`update schedules set name = '' where id = ${scheduleA}`);

  const dm = (u: Person) => t.fake.dmFor(TEAM, u);
  const botMessages = (u: Person) => t.fake.messages(dm(u));
  const lastBot = (u: Person) => botMessages(u).at(-1)!;
  const textOf = (m: { text: string; blocks?: unknown }) => `${m.text} ${JSON.stringify(m.blocks ?? [])}`;
  let replies = 0;
  /** The member writes in their DM one minute later, as Slack delivers it (its ts after everything before). */
  async function say(u: Person, text: string, expectBotReply = true) {
    clock.advance(60_000);
    const before = botMessages(u).length;
    replies += 1;
    const ts = `${Math.floor(clock.now().getTime() / 1000)}.${String(500_000 + replies).padStart(6, "0")}`;
    const res = await t.sendEvent(TEAM, { type: "message", channel_type: "im", channel: dm(u), user: u, text, ts });
    expect(res.statusCode).toBe(200);
    if (expectBotReply) await t.fake.waitFor(() => botMessages(u).length > before);
  }
  const runs: Record<"A" | "B", number> = { A: 0, B: 0 };
  const answersOf = async (u: Person, run: "A" | "B") =>
    (
      await rows<{ answers: string[] }>(
        t.deps.db,
        sql`select answers from responses where run_id = ${runs[run]} and user_id = ${u}`,
      )
    )[0]?.answers;
  const draftOf = async (u: Person, run: "A" | "B") =>
    (
      await rows<{ draft: [string, string][] | null }>(
        t.deps.db,
        sql`select draft from run_participants where run_id = ${runs[run]} and user_id = ${u}`,
      )
    )[0]?.draft?.map((d) => d[1]) ?? [];

  it("A asks at 09:00 with its first question in the DM", async () => {
    clock.set("2026-03-02T09:00:05Z");
    const started = (await tick(t.deps)).started;
    expect(started).toHaveLength(1);
    runs.A = started[0]!;
    await t.deps.queue.drain();
    for (const u of PEOPLE) expect(textOf(lastBot(u))).toContain("starting with: *A one?*");
  });

  it("Ana answers A's first question; A's second follows, not naming A (nothing else is open)", async () => {
    await say("U0TDANA", "a1");
    expect(lastBot("U0TDANA").text).toBe("*2/3:* A two?");
  });

  it("B asks at 09:30 with its Answer button, its questions waiting until A is done, naming both", async () => {
    clock.set("2026-03-02T09:30:05Z");
    const started = (await tick(t.deps)).started;
    expect(started).toHaveLength(1);
    runs.B = started[0]!;
    await t.deps.queue.drain();
    for (const u of PEOPLE) {
      const ask = textOf(lastBot(u));
      expect(ask, u).toContain("*Beta sync* in <#C0TDBETA>");
      expect(ask, u).toContain("once you have finished the <#C0TDALPHA> standup");
      expect(ask, u).toContain(`"value":"${runs.B}"`);
      expect(ask, u).not.toContain("starting with");
    }
  });

  it("the issue's 09:40 case: Ana's answer to A's second question is stored on A, and the next question names A", async () => {
    clock.set("2026-03-02T09:39:00Z");
    await say("U0TDANA", "a2");
    expect(await draftOf("U0TDANA", "A")).toEqual(["a1", "a2"]);
    expect(await draftOf("U0TDANA", "B")).toEqual([]);
    expect(lastBot("U0TDANA").text).toBe("For the <#C0TDALPHA> standup, *3/3:* A three?");
  });

  it("a modal answer goes to the modal's run: Cat answers B by the button while A holds her DM", async () => {
    const res = await submitStandup(t, TEAM, "U0TDCAT", runs.B, ["cat b1", "cat b2"]);
    expect(res.statusCode).toBe(200);
    expect(await answersOf("U0TDCAT", "B")).toEqual(["cat b1", "cat b2"]);
    await say("U0TDCAT", "cat a1");
    expect(await draftOf("U0TDCAT", "A")).toEqual(["cat a1"]);
    // B is answered: only A is open for Cat, so A is not named.
    expect(lastBot("U0TDCAT").text).toBe("*2/3:* A two?");
  });

  it("Ana finishes A in the DM; B's first question comes right after, naming B, and her answers go to B", async () => {
    await say("U0TDANA", "a3", false);
    await expect.poll(() => answersOf("U0TDANA", "A")).toEqual(["a1", "a2", "a3"]);
    await t.deps.queue.drain();
    const handOver = lastBot("U0TDANA");
    expect(textOf(handOver)).toContain("Next, *Beta sync* in <#C0TDBETA>");
    expect(textOf(handOver)).toContain("*1/2:* B one?");
    await say("U0TDANA", "b1");
    expect(lastBot("U0TDANA").text).toBe("*2/2:* B two?");
    await say("U0TDANA", "b2", false);
    await expect.poll(() => answersOf("U0TDANA", "B")).toEqual(["b1", "b2"]);
    expect(await answersOf("U0TDANA", "A")).toEqual(["a1", "a2", "a3"]);
  });

  it("Ben answers A late, after B was asked: to A in the DM, then by A's modal; then B takes his DM", async () => {
    clock.set("2026-03-02T11:00:00Z");
    await say("U0TDBEN", "ben late a1");
    expect(await draftOf("U0TDBEN", "A")).toEqual(["ben late a1"]);
    expect(await draftOf("U0TDBEN", "B")).toEqual([]);
    expect(lastBot("U0TDBEN").text).toBe("For the <#C0TDALPHA> standup, *2/3:* A two?");
    expect((await submitStandup(t, TEAM, "U0TDBEN", runs.A, ["ben a1", "ben a2", "ben a3"])).statusCode).toBe(200);
    expect(await answersOf("U0TDBEN", "A")).toEqual(["ben a1", "ben a2", "ben a3"]);
    await t.deps.queue.drain();
    expect(textOf(lastBot("U0TDBEN"))).toContain("*1/2:* B one?");
    await say("U0TDBEN", "ben b1");
    await say("U0TDBEN", "ben b2", false);
    await expect.poll(() => answersOf("U0TDBEN", "B")).toEqual(["ben b1", "ben b2"]);
  });

  it("Dan types skip: only A is skipped, and B asks its questions in his DM", async () => {
    await say("U0TDDAN", "skip");
    const statuses = await rows<{ run_id: number; status: string }>(
      t.deps.db,
      sql`select run_id::int as run_id, status from run_participants where user_id = 'U0TDDAN' order by run_id`,
    );
    expect(statuses.map((s) => s.status)).toEqual(["skipped", "asked"]);
    await t.deps.queue.drain();
    expect(textOf(lastBot("U0TDDAN"))).toContain("*1/2:* B one?");
    await say("U0TDDAN", "dan b1");
    expect(await draftOf("U0TDDAN", "B")).toEqual(["dan b1"]);
  });

  it("A closes with Eve's DM still on it: B's first question comes then, and her answers go to B", async () => {
    clock.set("2026-03-03T00:00:30Z");
    expect((await tick(t.deps)).closed).toBe(1);
    await t.deps.queue.drain();
    expect(textOf(lastBot("U0TDEVE"))).toContain("*1/2:* B one?");
    await say("U0TDEVE", "eve b1");
    expect(await draftOf("U0TDEVE", "B")).toEqual(["eve b1"]);
    expect(await draftOf("U0TDEVE", "A")).toEqual([]);
  });

  it("asked each question once, and nothing unexpected was called", async () => {
    for (const u of PEOPLE) {
      const firstOfB = botMessages(u).filter((m) => textOf(m).includes("B one?"));
      // B's ask lists its questions; the hand-over asks the first one (Cat answered B by the modal: no hand-over).
      expect(firstOfB.length, u).toBe(u === "U0TDCAT" ? 1 : 2);
    }
    expect(t.fake.unexpected).toEqual([]);
  });
});
