import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import { createSchedule } from "../../../test/support/factories.ts";
import { rows } from "../../db/client.ts";
import { submitResponse } from "./answers.service.ts";
import { tick } from "./scheduler.ts";

const TEAM = "T0EDIT";
const CHANNEL = "C0EDIT";
const PEOPLE = ["U0ANA", "U0BEN"];

/** Edits racing the thread-reply job: whatever the interleaving, Slack ends up showing the latest answers. */
describe("edits while the thread reply is being posted or updated", async () => {
  const t = await useTestApp();
  t.clock.set("2026-03-02T08:59:30Z"); // a Monday
  await t.installTeam(TEAM);
  for (const id of PEOPLE) {
    t.fake.addUser(TEAM, { id, name: id.toLowerCase(), real_name: id });
    await t.addMember(TEAM, id);
  }
  t.fake.addChannel(TEAM, { id: CHANNEL, name: "edit", members: [...PEOPLE, "BT0EDITBOT"] });
  await createSchedule(t.deps.db, t.clock, { teamId: TEAM, channelId: CHANNEL, time: "09:00" });
  t.clock.set("2026-03-02T09:00:10Z");
  const [runId] = (await tick(t.deps)).started;
  await t.deps.queue.drain();

  const answer = (userId: string, today: string) =>
    submitResponse(t.deps, { teamId: TEAM, runId: runId!, userId, answers: ["Yesterday", today, "none"], mood: null });
  const repliesOf = (userId: string) =>
    t.fake.messages(CHANNEL).filter((m) => m.thread_ts && JSON.stringify(m.blocks).includes(`<@${userId}>`));
  const stored = async (userId: string) =>
    (
      await rows<{ version: number; reply_ts: string | null }>(
        t.deps.db,
        sql`select version, reply_ts from responses where run_id = ${runId} and user_id = ${userId}`,
      )
    )[0]!;

  it("an edit whose job runs after the first reply was sent but before its reply_ts was stored reaches Slack", async () => {
    await answer("U0ANA", "First plan");
    await t.deps.queue.drain();
    expect(repliesOf("U0ANA")).toHaveLength(1);
    // The first reply job is between postOnce (the claim says sent, with the ts) and storing reply_ts.
    await t.deps.db.execute(sql`update responses set reply_ts = null where run_id = ${runId} and user_id = 'U0ANA'`);
    await answer("U0ANA", "Second plan");
    await t.deps.queue.drain();

    const replies = repliesOf("U0ANA");
    expect(replies).toHaveLength(1);
    expect(JSON.stringify(replies[0]!.blocks)).toContain("Second plan");
    expect(JSON.stringify(replies[0]!.blocks)).not.toContain("First plan");
    expect(await stored("U0ANA")).toEqual({ version: 2, reply_ts: replies[0]!.ts });
  });

  it("an older update that lands after a newer one is corrected: the job reads the version again", async () => {
    await answer("U0BEN", "Version one");
    await t.deps.queue.drain();
    const client = await t.deps.chat.forTeam(TEAM, "post");
    const realUpdate = client.chat.update;
    let interleaved = false;
    // While the job for version 2 is sending its update, version 3 is saved and its job finishes first.
    client.chat.update = (async (args: Parameters<typeof realUpdate>[0]) => {
      if (!interleaved && JSON.stringify(args).includes("Version two")) {
        interleaved = true;
        await answer("U0BEN", "Version three");
        await t.deps.queue.drain();
      }
      return realUpdate(args);
    }) as typeof realUpdate;
    try {
      await answer("U0BEN", "Version two");
      await t.deps.queue.drain();
    } finally {
      client.chat.update = realUpdate;
    }
    expect(interleaved).toBe(true);
    const replies = repliesOf("U0BEN");
    expect(replies).toHaveLength(1);
    expect(JSON.stringify(replies[0]!.blocks)).toContain("Version three");
    expect((await stored("U0BEN")).version).toBe(3);
  });
});
