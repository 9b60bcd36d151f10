import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeSlack } from "../../../dev/fake-slack/index.ts";
import { eventEnvelope } from "../../../dev/slack-signing.ts";
import type { TestApp } from "../../../test/support/app.ts";
import { onPostgres } from "../../../test/support/database.ts";
import { createSchedule } from "../../../test/support/factories.ts";
import { standupSubmission } from "../../../test/support/standup-answers.ts";
import { startTwoInstances } from "../../../test/support/two-instances.ts";
import { rows } from "../../db/client.ts";
import { ManualClock } from "../../lib/clock.ts";
import { tick } from "./scheduler.ts";

const TEAM = "T0SOCKS";
const CHANNEL = "C0SOCKS";

/**
 * Two instances in Socket Mode, each with its own socket to Slack, on one PostgreSQL: Slack spreads envelopes across
 * both connections, and an envelope one instance did not acknowledge in time goes to the other. Every DM goes out
 * once and every answer is recorded once. Needs a database server the two share; CI runs the suite on PostgreSQL too.
 */
describe.runIf(onPostgres)("two instances with two sockets on one PostgreSQL", () => {
  const modal = Array.from({ length: 12 }, (_, i) => `U0SM${String(i).padStart(2, "0")}`);
  const inDm = Array.from({ length: 6 }, (_, i) => `U0SD${String(i).padStart(2, "0")}`);
  const people = [...modal, ...inDm];
  const clock = new ManualClock("2026-03-02T08:00:00Z"); // a Monday
  let fake: FakeSlack;
  let a: TestApp;
  let b: TestApp;
  let close: () => Promise<void>;
  let runId = 0;

  // Set up in a hook: a skipped describe still runs its body to collect the tests.
  beforeAll(async () => {
    ({ a, b, fake, close } = await startTwoInstances({ clock, transport: "socket" }));
    fake.socket.configure({ ackTimeoutMs: 400 });
    await a.installTeam(TEAM);
    for (const u of people) {
      fake.addUser(TEAM, { id: u, name: u.toLowerCase(), real_name: u });
      await a.addMember(TEAM, u);
    }
    fake.addChannel(TEAM, { id: CHANNEL, name: "socks", members: [...people, "BT0SOCKSBOT"] });
    await createSchedule(a.deps.db, clock, {
      teamId: TEAM,
      channelId: CHANNEL,
      time: "09:00",
      tz: "UTC",
      questions: ["Yesterday?", "Today?", "Blockers?"],
    });
  });
  afterAll(async () => {
    await close?.();
  });

  const settle = async () => {
    await Promise.all([a.app.settle(), b.app.settle()]);
    await Promise.all([a.deps.queue.drain(), b.deps.queue.drain()]);
    await Promise.all([a.deps.queue.drain(), b.deps.queue.drain()]);
  };
  const asks = (u: string) => fake.messages(fake.dmFor(TEAM, u)).filter((m) => m.text.startsWith("Time for standup"));
  const responses = () =>
    rows<{ user_id: string; answers: string[]; version: number }>(
      a.deps.db,
      sql`select user_id, answers, version from responses where team_id = ${TEAM} order by user_id`,
    );

  it("both instances are connected, each over its own socket", () => {
    expect(fake.socket.openConnections).toBe(2);
    expect(a.app.socket?.state).toBe("connected");
    expect(b.app.socket?.state).toBe("connected");
  });

  it("the run starts once and every member is asked exactly once", async () => {
    clock.set("2026-03-02T09:00:03Z");
    const started = (await Promise.all([tick(a.deps), tick(b.deps)])).flatMap((r) => r.started);
    expect(started).toHaveLength(1);
    runId = started[0]!;
    await settle();
    for (const u of people) expect(asks(u), u).toHaveLength(1);
  });

  it("modal answers sent together are spread over both sockets and each recorded once", async () => {
    const before = fake.socket.deliveries.length;
    const acks = await Promise.all(
      modal.map((u) =>
        fake.socket.sendInteraction(standupSubmission(TEAM, u, runId, [`${u} shipped`, "more", "none"])),
      ),
    );
    expect(acks.every((ack) => ack !== undefined)).toBe(true);
    const used = new Set(fake.socket.deliveries.slice(before).map((d) => d.connectionId));
    expect(used.size).toBe(2);
    await settle();
    const got = (await responses()).filter((r) => modal.includes(r.user_id));
    expect(got).toEqual(modal.map((u) => ({ user_id: u, answers: [`${u} shipped`, "more", "none"], version: 1 })));
  });

  it("DM answers whose acks were lost go to the other socket, and each is recorded once", async () => {
    let seq = 0;
    for (const u of inDm) {
      for (const [i, text] of ["Reviews", "Docs", "none"].entries()) {
        // The first answer of each: the ack is lost on the way, and Slack delivers it again.
        if (i === 0) fake.socket.loseNextAcks(1);
        const delivery = fake.socket.deliver(
          "events_api",
          eventEnvelope(TEAM, {
            type: "message",
            channel_type: "im",
            channel: fake.dmFor(TEAM, u),
            user: u,
            text: `${text} (${u})`,
            ts: `1772442000.${String(++seq).padStart(6, "0")}`,
          }),
        );
        const ack = await delivery.acked;
        expect(ack, `${u} ${text}`).toMatchObject({ attempt: i === 0 ? 1 : 0 });
        if (i === 0) {
          const sentTo = fake.socket.deliveries.filter((d) => d.envelopeId === delivery.envelopeId);
          expect(sentTo.map((d) => d.attempt)).toEqual([0, 1]);
          expect(sentTo[0]!.connectionId).not.toBe(sentTo[1]!.connectionId);
        }
        await settle();
      }
    }
    const got = (await responses()).filter((r) => inDm.includes(r.user_id));
    expect(got).toEqual(
      inDm.map((u) => ({ user_id: u, answers: [`Reviews (${u})`, `Docs (${u})`, `none (${u})`], version: 1 })),
    );
  });

  it("every DM went out exactly once, and each answer is posted in the thread once", async () => {
    await settle();
    for (const u of people) {
      const texts = fake.messages(fake.dmFor(TEAM, u)).map((m) => m.text);
      expect(new Set(texts).size, `${u}: ${texts.join(" | ")}`).toBe(texts.length);
      expect(asks(u), u).toHaveLength(1);
    }
    const parent = fake.messages(CHANNEL).filter((m) => !m.thread_ts);
    expect(parent).toHaveLength(1);
    const thread = fake.messages(CHANNEL).filter((m) => m.thread_ts === parent[0]!.ts);
    for (const u of people)
      expect(
        thread.filter((m) => JSON.stringify(m.blocks).includes(u)),
        u,
      ).toHaveLength(1);
  });

  it("both instances close the run once, with one summary counting everyone once", async () => {
    clock.set("2026-03-03T00:00:10Z");
    const closed = (await Promise.all([tick(a.deps), tick(b.deps)])).reduce((n, r) => n + r.closed, 0);
    expect(closed).toBe(1);
    await settle();
    const summaries = fake.messages(CHANNEL).filter((m) => m.text.startsWith("Standup closed"));
    expect(summaries.map((m) => m.text)).toEqual([`Standup closed: ${people.length}/${people.length} answered (100%)`]);
    expect(fake.unexpected).toEqual([]);
  });
});
