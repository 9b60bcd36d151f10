import { setTimeout as sleep } from "node:timers/promises";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { eventEnvelope } from "../dev/slack-signing.ts";
import { rows } from "../src/db/client.ts";
import { tick } from "../src/features/standups/index.ts";
import { useTestApp } from "./support/app.ts";
import { createSchedule } from "./support/factories.ts";

const TEAM = "T0SOCKE2E";
const CHANNEL = "C0SOCKE2E";
const QUESTIONS = ["What did you do yesterday?", "What will you do today?", "Anything blocking you?"];

async function until(predicate: () => boolean, timeoutMs = 5_000): Promise<void> {
  for (let waited = 0; !predicate(); waited += 10) {
    if (waited > timeoutMs) throw new Error("condition not met in time");
    await sleep(10);
  }
}

/**
 * A standup answered in DMs over Socket Mode while Slack's socket misbehaves as it does in real life: an ack lost on
 * the way (Slack delivers the envelope again) and a `disconnect` with an envelope in flight (delivered again on the
 * next socket). Each answer is recorded once, each next question asked once, and the summary counts each member once.
 * (src/chat/socket/socket-transport.test.ts covers the same at the transport with App Home events.)
 */
describe("a standup over Socket Mode when acks are lost and Slack asks to reconnect", async () => {
  const t = await useTestApp({ transport: "socket", socket: { reconnectBaseMs: 20, reconnectCapMs: 200 } });
  t.clock.set("2026-03-02T08:59:30Z"); // a Monday
  await t.installTeam(TEAM);
  for (const [id, name] of [
    ["U0ANA", "Ana"],
    ["U0BEN", "Ben"],
  ] as const) {
    t.fake.addUser(TEAM, { id, name: name.toLowerCase(), real_name: name });
    await t.addMember(TEAM, id, { realName: name });
  }
  t.fake.addChannel(TEAM, { id: CHANNEL, name: "standup", members: ["U0ANA", "U0BEN", "BT0SOCKE2EBOT"] });
  await createSchedule(t.deps.db, t.clock, { teamId: TEAM, channelId: CHANNEL, time: "09:00", questions: QUESTIONS });
  const socket = t.fake.socket;
  socket.configure({ ackTimeoutMs: 400 });
  const dm = (user: string) => t.fake.dmFor(TEAM, user);
  const dmsTo = (user: string) => t.fake.callsTo("chat.postMessage").filter((c) => c.ok && c.args.channel === dm(user));
  let seq = 0;
  const said = (user: string, text: string) =>
    eventEnvelope(TEAM, {
      type: "message",
      channel_type: "im",
      channel: dm(user),
      user,
      text,
      ts: `1772442000.${String(++seq).padStart(6, "0")}`,
    });
  const answersOf = async (user: string) =>
    rows<{ answers: string[] }>(
      t.deps.db,
      sql`select answers from responses where team_id = ${TEAM} and user_id = ${user}`,
    );

  it("starts the run and asks each member once", async () => {
    t.clock.set("2026-03-02T09:00:10Z");
    expect((await tick(t.deps)).started).toHaveLength(1);
    await t.deps.queue.drain();
    expect(dmsTo("U0ANA")).toHaveLength(1);
    expect(dmsTo("U0BEN")).toHaveLength(1);
  });

  it("a DM answer whose ack was lost is delivered again, recorded once, and the next question asked once", async () => {
    socket.loseNextAcks(1);
    const first = socket.deliver("events_api", said("U0ANA", "Reviewed PRs"));
    expect(await first.acked).toMatchObject({ attempt: 1 });
    expect(first.attempts).toBe(2);
    for (const text of ["Fix the flaky test", "none"]) {
      await t.app.settle();
      expect(await socket.sendEvent(TEAM, said("U0ANA", text).event)).toMatchObject({ attempt: 0 });
    }
    await t.app.settle();
    await t.deps.queue.drain();
    expect(await answersOf("U0ANA")).toEqual([{ answers: ["Reviewed PRs", "Fix the flaky test", "none"] }]);
    // The ask, questions 2 and 3, and the confirmation: nothing twice.
    expect(dmsTo("U0ANA")).toHaveLength(4);
    expect(new Set(dmsTo("U0ANA").map((c) => c.args.text)).size).toBe(4);
  });

  it("a DM answer in flight when Slack says disconnect is delivered again on the next socket and recorded once", async () => {
    const [oldConnection] = socket.connectionIds;
    socket.loseNextAcks(1);
    const inFlight = socket.deliver("events_api", said("U0BEN", "Wrote the runbook"));
    await until(() => inFlight.attempts === 1);
    socket.disconnect("refresh_requested", { graceMs: 250 });
    const ack = await inFlight.acked;
    expect(ack).toMatchObject({ attempt: 1 });
    expect(ack?.connectionId).not.toBe(oldConnection);
    await socket.waitForConnections(1);
    for (const text of ["Vendor call", "Blocked on the vendor contract"]) {
      await t.app.settle();
      expect(await socket.sendEvent(TEAM, said("U0BEN", text).event)).toMatchObject({ attempt: 0 });
    }
    await t.app.settle();
    await t.deps.queue.drain();
    expect(await answersOf("U0BEN")).toEqual([
      { answers: ["Wrote the runbook", "Vendor call", "Blocked on the vendor contract"] },
    ]);
    expect(new Set(dmsTo("U0BEN").map((c) => c.args.text)).size).toBe(dmsTo("U0BEN").length);
  });

  it("each answer is posted in the thread once, and the close posts one summary counting each member once", async () => {
    t.clock.set("2026-03-03T00:00:30Z");
    expect((await tick(t.deps)).closed).toBe(1);
    await t.deps.queue.drain();
    const parent = t.fake.messages(CHANNEL).find((m) => !m.thread_ts)!;
    const thread = t.fake.messages(CHANNEL).filter((m) => m.thread_ts === parent.ts);
    expect(thread.filter((m) => JSON.stringify(m.blocks).includes("U0ANA"))).toHaveLength(1);
    expect(thread.filter((m) => JSON.stringify(m.blocks).includes("U0BEN"))).toHaveLength(1);
    expect(thread.filter((m) => m.text.startsWith("Standup closed")).map((m) => m.text)).toEqual([
      "Standup closed: 2/2 answered (100%)",
    ]);
    expect(t.fake.unexpected).toEqual([]);
  });
});
