import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import { createSchedule } from "../../../test/support/factories.ts";
import { rows } from "../../db/client.ts";
import { answerInConversation } from "./answers.service.ts";
import { tick } from "./scheduler.ts";

const TEAM = "T0RACE";
const CHANNEL = "C0RACE";
const PEOPLE = ["U0ANA", "U0BEN", "U0CAT", "U0DAN"];

describe("answers arriving together", async () => {
  const t = await useTestApp();
  t.clock.set("2026-03-02T08:59:30Z"); // a Monday
  await t.installTeam(TEAM);
  for (const id of PEOPLE) {
    t.fake.addUser(TEAM, { id, name: id.toLowerCase(), real_name: id });
    await t.addMember(TEAM, id);
  }
  t.fake.addChannel(TEAM, { id: CHANNEL, name: "race", members: [...PEOPLE, "BT0RACEBOT"] });
  await createSchedule(t.deps.db, t.clock, {
    teamId: TEAM,
    channelId: CHANNEL,
    time: "09:00",
    questions: ["What did you do yesterday?", "What will you do today?", "Anything blocking you?"],
  });
  t.clock.set("2026-03-02T09:00:10Z");
  const [runId] = (await tick(t.deps)).started;
  await t.deps.queue.drain();

  let seq = 0;
  const say = (user: string, text: string) =>
    t.sendEvent(TEAM, {
      type: "message",
      channel_type: "im",
      channel: t.fake.dmFor(TEAM, user),
      user,
      text,
      ts: `1772442010.${String(++seq).padStart(6, "0")}`,
    });
  /** The texts of a member's draft, in the order it keeps them. */
  const draftOf = async (user: string) =>
    (
      await rows<{ draft: [string, string][] | null }>(
        t.deps.db,
        sql`select draft from run_participants where run_id = ${runId} and user_id = ${user}`,
      )
    )[0]?.draft?.map(([, text]) => text) ?? null;
  const responsesOf = (user: string) =>
    rows<{ answers: string[]; version: number }>(
      t.deps.db,
      sql`select answers, version from responses where run_id = ${runId} and user_id = ${user}`,
    );
  const botSaid = (user: string) =>
    t.fake
      .callsTo("chat.postMessage")
      .filter((c) => c.ok && c.args.channel === t.fake.dmFor(TEAM, user))
      .map((c) => String(c.args.text));
  const threadReplies = (user: string) =>
    t.fake.messages(CHANNEL).filter((m) => m.thread_ts && JSON.stringify(m.blocks).includes(`<@${user}>`));

  it("two DM answers a few milliseconds apart are both kept, in the order they arrived", async () => {
    await Promise.all([say("U0ANA", "Reviewed PRs"), say("U0ANA", "Fix the flaky test")]);
    await expect.poll(() => draftOf("U0ANA")).toEqual(["Reviewed PRs", "Fix the flaky test"]);
    await t.fake.waitFor(() => botSaid("U0ANA").filter((s) => /^\*[23]\/3:\*/.test(s)).length === 2);
    expect(botSaid("U0ANA").filter((s) => s.startsWith("*3/3:*"))).toHaveLength(1);
    await say("U0ANA", "Nothing");
    await expect
      .poll(async () => (await responsesOf("U0ANA"))[0]?.answers)
      .toEqual(["Reviewed PRs", "Fix the flaky test", "Nothing"]);
  });

  it("two answers handled at the very same moment both land (every read before any write)", async () => {
    // Both calls read the member's run before either writes: a read-append-write would keep only one.
    const [a, b] = await Promise.all([
      answerInConversation(t.deps, TEAM, "U0DAN", "Planning", "1772442020.000001"),
      answerInConversation(t.deps, TEAM, "U0DAN", "Retro notes", "1772442020.000002"),
    ]);
    expect([a.kind, b.kind]).toEqual(["next", "next"]);
    expect([a, b].map((r) => (r.kind === "next" ? r.index : -1)).sort()).toEqual([1, 2]);
    expect(await draftOf("U0DAN")).toEqual(["Planning", "Retro notes"]);
  });

  it("two last answers handled at the very same moment submit once; the extra one is not an answer", async () => {
    const [a, b] = await Promise.all([
      answerInConversation(t.deps, TEAM, "U0DAN", "Nothing blocking", "1772442020.000003"),
      answerInConversation(t.deps, TEAM, "U0DAN", "Oh, and one more thing", "1772442020.000004"),
    ]);
    expect([a.kind, b.kind].sort()).toEqual(["done", "none"]);
    const last = a.kind === "done" ? "Nothing blocking" : "Oh, and one more thing";
    expect(await responsesOf("U0DAN")).toEqual([{ answers: ["Planning", "Retro notes", last], version: 1 }]);
    expect(await draftOf("U0DAN")).toBeNull();
  });

  it("when the last two answers arrive together the response is submitted once, with every answer", async () => {
    await say("U0BEN", "Support rotation");
    await expect.poll(() => draftOf("U0BEN")).toEqual(["Support rotation"]);
    await Promise.all([say("U0BEN", "Docs"), say("U0BEN", "Waiting on design")]);
    await expect.poll(async () => (await responsesOf("U0BEN")).length).toBe(1);
    const [response] = await responsesOf("U0BEN");
    expect(response).toEqual({ answers: ["Support rotation", "Docs", "Waiting on design"], version: 1 });
    await t.deps.queue.drain();
    expect(threadReplies("U0BEN")).toHaveLength(1);
    expect(t.fake.callsTo("chat.update")).toHaveLength(0);
  });

  it("a message after the last answer, arriving with it, is not taken as an answer", async () => {
    await say("U0CAT", "one");
    await say("U0CAT", "two");
    await expect.poll(() => draftOf("U0CAT")).toEqual(["one", "two"]);
    await Promise.all([say("U0CAT", "three"), say("U0CAT", "and one more thing")]);
    await expect.poll(async () => (await responsesOf("U0CAT")).length).toBe(1);
    await t.fake.waitFor(() => botSaid("U0CAT").some((s) => s.startsWith("There is no standup waiting")));
    const [response] = await responsesOf("U0CAT");
    expect(response!.answers).toHaveLength(3);
    expect(response!.answers.slice(0, 2)).toEqual(["one", "two"]);
    expect(response!.version).toBe(1);
  });
});
