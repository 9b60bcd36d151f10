import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import { setWorkspaceTimezone } from "../../../test/support/factories.ts";
import { rows } from "../../db/client.ts";
import type { DomainEvent } from "../../jobs/events.ts";

const TEAM = "T0KUDO";
const CHANNEL = "C0KUDOS";
const BOT = "B0KUDOBOT";
const PEOPLE = ["U0ANA", "U0BEN", "U0CAT", "U0DAN", "U0ELI", "U0FAY", "U0GUS"];
const ROBOT = "U0ROBOT";

interface KudoDb {
  from_user: string;
  to_user: string;
  message: string;
  channel_id: string;
  source: string;
  source_key: string;
  given_on: string;
}

describe("kudos in channel messages", async () => {
  const t = await useTestApp();
  t.clock.set("2026-03-02T14:00:00Z");
  await t.installTeam(TEAM);
  for (const id of PEOPLE) {
    t.fake.addUser(TEAM, { id, name: id.toLowerCase(), real_name: `Person ${id}` });
    await t.addMember(TEAM, id, { realName: `Person ${id}` });
  }
  t.fake.addUser(TEAM, { id: ROBOT, name: "robot", real_name: "Robot", is_bot: true });
  t.fake.addChannel(TEAM, { id: CHANNEL, name: "team", members: [...PEOPLE, ROBOT, BOT] });

  const seen: DomainEvent[] = [];
  t.deps.events.on("kudos.given", async (_tx, event) => {
    seen.push(event);
  });

  /** A person's channel message, as Slack has it and announces it: the event the test sends. */
  const post = (user: string, text: string, extra: Record<string, unknown> = {}, channel = CHANNEL) => {
    const ts = t.fake.postAsUser(TEAM, channel, user, text);
    return { type: "message", channel, channel_type: "channel", user, text, ts, team: TEAM, ...extra };
  };
  const deliver = async (event: Record<string, unknown>, opts: { eventId?: string; retryNum?: number } = {}) => {
    const res = await t.sendEvent(TEAM, event, opts);
    expect(res.statusCode).toBe(200);
  };
  /** Every delivery handled and every job run: what the test reads next is final. */
  const settle = async () => {
    await t.app.settle();
    await t.deps.queue.drain();
  };
  const kudosOf = (sourceKey: string) =>
    rows<KudoDb>(
      t.deps.db,
      sql`select from_user, to_user, message, channel_id, source, source_key, given_on::text
          from kudos where team_id = ${TEAM} and source_key = ${sourceKey} order by id`,
    );
  const givenBy = async (user: string) =>
    (
      await rows<{ n: number }>(
        t.deps.db,
        sql`select count(*)::int as n from kudos where team_id = ${TEAM} and from_user = ${user}`,
      )
    )[0]!.n;
  const reactionsOn = (ts: string, channel = CHANNEL) => t.fake.message(TEAM, channel, ts)?.reactions ?? [];
  const reactCalls = (ts: string) => t.fake.callsTo("reactions.add").filter((c) => c.args.timestamp === ts);
  const noticesTo = (user: string) => t.fake.ephemerals(CHANNEL).filter((e) => e.user === user);

  it("a message that mentions people and says kudos gives each one a kudo, emits kudos.given and gets one :tada:", async () => {
    seen.length = 0;
    const event = post("U0ANA", "Kudos to <@U0BEN> and <@U0CAT> for the release &amp; the docs!");
    await deliver(event);
    await settle();
    const stored = await kudosOf(`msg:${CHANNEL}:${event.ts}`);
    expect(stored).toEqual(
      ["U0BEN", "U0CAT"].map((to) => ({
        from_user: "U0ANA",
        to_user: to,
        message: "Kudos to <@U0BEN> and <@U0CAT> for the release & the docs!",
        channel_id: CHANNEL,
        source: "message",
        source_key: `msg:${CHANNEL}:${event.ts}`,
        given_on: "2026-03-02",
      })),
    );
    expect(seen.map((e) => e.data)).toEqual(
      ["U0BEN", "U0CAT"].map((to) => ({
        kudoId: expect.any(Number),
        fromUser: "U0ANA",
        toUser: to,
        message: "Kudos to <@U0BEN> and <@U0CAT> for the release & the docs!",
        channelId: CHANNEL,
        createdAt: "2026-03-02T14:00:00.000Z",
      })),
    );
    expect(seen.every((e) => e.type === "kudos.given" && e.teamId === TEAM)).toBe(true);
    expect(reactionsOn(event.ts)).toEqual([{ name: "tada", users: [BOT], count: 1 }]);
    expect(reactCalls(event.ts)).toHaveLength(1);
    expect(noticesTo("U0ANA")).toEqual([]);
  });

  it("`@someone ++` gives a kudo to each mention followed by ++, and only to those", async () => {
    const event = post("U0BEN", "<@U0DAN> ++ for the fix, and thanks <@U0CAT> for reviewing; <@U0ELI>++");
    await deliver(event);
    await settle();
    expect((await kudosOf(`msg:${CHANNEL}:${event.ts}`)).map((k) => k.to_user)).toEqual(["U0DAN", "U0ELI"]);
    expect(reactCalls(event.ts)).toHaveLength(1);
  });

  it('"kudos" counts in any case as a word, never inside another word, a link or a name', async () => {
    const loud = post("U0CAT", "<@U0DAN> KUDOS!");
    const inWord = post("U0CAT", "<@U0DAN> kudosify the pipeline");
    const inLink = post("U0CAT", "<@U0DAN> read <https://example.com/kudos|this>");
    for (const e of [loud, inWord, inLink]) await deliver(e);
    await settle();
    expect(await kudosOf(`msg:${CHANNEL}:${loud.ts}`)).toHaveLength(1);
    expect(await kudosOf(`msg:${CHANNEL}:${inWord.ts}`)).toEqual([]);
    expect(await kudosOf(`msg:${CHANNEL}:${inLink.ts}`)).toEqual([]);
    expect(reactCalls(inWord.ts)).toEqual([]);
  });

  it("Slack retries, edits (message_changed) and the same message seen twice never count again", async () => {
    seen.length = 0;
    const event = post("U0DAN", "kudos <@U0FAY>");
    await deliver(event, { eventId: "EvKUDOSRETRY1" });
    // The retry of that delivery, and the same message under another event id, in parallel.
    await Promise.all([
      deliver(event, { eventId: "EvKUDOSRETRY1", retryNum: 1 }),
      deliver(event, { eventId: "EvKUDOSRETRY1", retryNum: 2 }),
      deliver(event),
      deliver(event),
    ]);
    // An edit that keeps the text (a link preview) and one that adds a person.
    const edit = (text: string) => ({
      type: "message",
      subtype: "message_changed",
      channel: CHANNEL,
      channel_type: "channel",
      hidden: true,
      message: { type: "message", user: "U0DAN", text, ts: event.ts, edited: { user: "U0DAN", ts: "1.0" } },
      previous_message: { type: "message", user: "U0DAN", text: event.text, ts: event.ts },
      ts: "1772460000.000500",
    });
    await deliver(edit("kudos <@U0FAY>"));
    await deliver(edit("kudos <@U0FAY> and <@U0GUS>"));
    await deliver(edit("kudos <@U0FAY> and <@U0GUS>!"));
    await settle();
    expect((await kudosOf(`msg:${CHANNEL}:${event.ts}`)).map((k) => k.to_user)).toEqual(["U0FAY", "U0GUS"]);
    expect(seen.map((e) => (e.data as { toUser: string }).toUser)).toEqual(["U0FAY", "U0GUS"]);
    expect(reactionsOn(event.ts)).toEqual([{ name: "tada", users: [BOT], count: 1 }]);
    expect(reactCalls(event.ts)).toHaveLength(1);
  });

  it("refuses self-kudos, bots and people who are not members, telling the giver once per message", async () => {
    const self = post("U0ELI", "kudos to me, <@U0ELI>");
    const robot = post("U0ELI", "<@U0ROBOT> ++ and <@U0NOBODY> ++");
    await deliver(self);
    await deliver(robot);
    // Seen again: still one notice each.
    await deliver(self);
    await deliver({ ...robot, subtype: "message_changed", message: { user: "U0ELI", text: robot.text, ts: robot.ts } });
    await settle();
    expect(await kudosOf(`msg:${CHANNEL}:${self.ts}`)).toEqual([]);
    expect(await kudosOf(`msg:${CHANNEL}:${robot.ts}`)).toEqual([]);
    expect(reactCalls(self.ts)).toEqual([]);
    expect(reactCalls(robot.ts)).toEqual([]);
    // The two notices are jobs of their own: either may go first.
    expect(
      noticesTo("U0ELI")
        .map((e) => e.text)
        .sort(),
    ).toEqual([
      ":warning: <@U0ROBOT> and <@U0NOBODY> can't get kudos: kudos are for active members of this workspace, not bots or apps.",
      ":warning: You can't give kudos to yourself.",
    ]);
  });

  it("a kudo in a thread is refused in that thread; a partly refused message still gives the rest", async () => {
    const parent = post("U0GUS", "Release notes");
    const reply = post("U0GUS", "<@U0GUS> ++ <@U0ANA> ++", { thread_ts: parent.ts });
    await deliver(reply);
    await settle();
    expect((await kudosOf(`msg:${CHANNEL}:${reply.ts}`)).map((k) => k.to_user)).toEqual(["U0ANA"]);
    expect(reactCalls(reply.ts)).toHaveLength(1);
    const notice = noticesTo("U0GUS").at(-1);
    expect(notice).toMatchObject({ thread_ts: parent.ts, text: ":warning: You can't give kudos to yourself." });
  });

  it("a mention of the bot itself is left out without a word", async () => {
    const event = post("U0CAT", `<@${BOT}> kudos to <@U0FAY> for the dashboard`);
    const before = t.fake.ephemerals().length;
    await deliver(event);
    await settle();
    expect((await kudosOf(`msg:${CHANNEL}:${event.ts}`)).map((k) => k.to_user)).toEqual(["U0FAY"]);
    expect(t.fake.ephemerals()).toHaveLength(before);
  });

  it("a message without a mention gives nothing and says nothing", async () => {
    const event = post("U0ANA", "Kudos to the whole team!");
    const before = t.fake.ephemerals().length;
    await deliver(event);
    await settle();
    expect(await kudosOf(`msg:${CHANNEL}:${event.ts}`)).toEqual([]);
    expect(reactCalls(event.ts)).toEqual([]);
    expect(t.fake.ephemerals()).toHaveLength(before);
  });

  it("a message over 500 characters keeps its first 500 in the kudo", async () => {
    const long = `<@U0CAT> kudos! ${"Thank you for everything. ".repeat(40)}`;
    const event = post("U0BEN", long);
    await deliver(event);
    await settle();
    const [kudo] = await kudosOf(`msg:${CHANNEL}:${event.ts}`);
    expect([...kudo!.message]).toHaveLength(500);
    expect(kudo!.message.endsWith("…")).toBe(true);
    expect(kudo!.message.startsWith("<@U0CAT> kudos! Thank you")).toBe(true);
  });

  it("ignores bots' and apps' messages, DMs and people of other organisations in shared channels", async () => {
    const events = [
      { ...post("U0ANA", "<@U0BEN> kudos"), subtype: "bot_message", bot_id: "B0OTHER" },
      { ...post("U0ANA", "<@U0BEN> kudos"), bot_id: "B0OTHER", app_id: "A0OTHER" },
      { ...post("U0ANA", "<@U0BEN> kudos"), user_team: "T0ELSEWHERE" },
      { ...post("U0ANA", "<@U0BEN> kudos"), subtype: "channel_join" },
      { ...post("U0ANA", "<@U0BEN> kudos"), channel_type: "mpim" },
    ];
    for (const e of events) await deliver(e);
    await settle();
    for (const e of events) expect(await kudosOf(`msg:${CHANNEL}:${e.ts}`)).toEqual([]);
    expect(t.fake.callsTo("reactions.add").filter((c) => events.some((e) => e.ts === c.args.timestamp))).toEqual([]);
  });

  it("a failed reaction never loses the kudo: the job retries and the reaction lands once", async () => {
    t.fake.fail("reactions.add", { status: 500 });
    const event = post("U0CAT", "<@U0ANA> ++");
    await deliver(event);
    await settle();
    expect(await kudosOf(`msg:${CHANNEL}:${event.ts}`)).toHaveLength(1);
    expect(reactCalls(event.ts).map((c) => c.ok)).toEqual([false, true]);
    expect(reactionsOn(event.ts)).toEqual([{ name: "tada", users: [BOT], count: 1 }]);
  });

  it("a subscriber that fails rolls the kudo back with it: the event exists exactly when the kudo does", async () => {
    let fail = true;
    t.deps.events.on("kudos.given", async () => {
      if (fail) throw new Error("subscriber down");
    });
    const event = post("U0FAY", "<@U0GUS> ++");
    await deliver(event);
    await settle();
    expect(await kudosOf(`msg:${CHANNEL}:${event.ts}`)).toEqual([]);
    expect(reactCalls(event.ts)).toEqual([]);
    fail = false;
    await deliver(event);
    await settle();
    expect(await kudosOf(`msg:${CHANNEL}:${event.ts}`)).toHaveLength(1);
  });

  it("gives at most 10 a giver a day (the workspace's day); the 11th is refused with the reason", async () => {
    await setWorkspaceTimezone(t.deps.db, TEAM, "America/Los_Angeles");
    t.clock.set("2026-03-03T07:30:00Z"); // 23:30 on 2 March in Los Angeles
    const before = await givenBy("U0GUS");
    const sent = [];
    for (let i = before; i < 11; i++) {
      const e = post("U0GUS", `<@U0ANA> ++ number ${i + 1}`);
      sent.push(e);
      // One after the other: events are handled in the background, in parallel.
      await deliver(e);
      await t.app.settle();
    }
    await settle();
    expect(await givenBy("U0GUS")).toBe(10);
    const eleventh = sent.at(-1)!;
    expect(await kudosOf(`msg:${CHANNEL}:${eleventh.ts}`)).toEqual([]);
    expect(reactCalls(eleventh.ts)).toEqual([]);
    expect(noticesTo("U0GUS").at(-1)?.text).toBe(
      ":warning: You've given 10 kudos today, the daily limit, so <@U0ANA> didn't get one. More tomorrow!",
    );
    // Midnight in Los Angeles (08:00 UTC): a new day, and the limit starts again.
    t.clock.set("2026-03-03T08:00:30Z");
    const tomorrow = post("U0GUS", "<@U0ANA> ++ again");
    await deliver(tomorrow);
    await settle();
    expect(await kudosOf(`msg:${CHANNEL}:${tomorrow.ts}`)).toMatchObject([{ given_on: "2026-03-03" }]);
    await setWorkspaceTimezone(t.deps.db, TEAM, "UTC");
  });

  it("parallel deliveries of many messages never exceed the daily limit", async () => {
    t.clock.set("2026-03-04T12:00:00Z");
    const burst = Array.from({ length: 14 }, (_, i) => post("U0ANA", `kudos <@${PEOPLE[1 + (i % 6)]}> for thing ${i}`));
    await Promise.all(burst.map((e) => deliver(e)));
    await settle();
    const today = await rows<{ n: number }>(
      t.deps.db,
      sql`select count(*)::int as n from kudos where team_id = ${TEAM} and from_user = 'U0ANA' and given_on = '2026-03-04'`,
    );
    expect(today[0]!.n).toBe(10);
    const refusedNotices = noticesTo("U0ANA").filter((e) => e.text.includes("daily limit"));
    expect(refusedNotices).toHaveLength(4);
    expect(t.fake.callsTo("reactions.add").filter((c) => burst.some((e) => e.ts === c.args.timestamp))).toHaveLength(
      10,
    );
  });
});

describe("kudos without the reactions:write scope", async () => {
  const t = await useTestApp();
  const team = "T0NOREACT";
  await t.installTeam(team, { scopes: "chat:write,commands" });
  for (const id of ["U0ANA", "U0BEN"]) await t.addMember(team, id);
  t.fake.addUser(team, { id: "U0ANA", name: "ana", real_name: "Ana" });
  t.fake.addChannel(team, { id: "C0NOREACT", name: "team", members: ["U0ANA", "U0BEN", "B0NOREACTBOT"] });

  it("stores the kudo and never tries to react", async () => {
    const ts = t.fake.postAsUser(team, "C0NOREACT", "U0ANA", "<@U0BEN> kudos");
    await t.sendEvent(team, {
      type: "message",
      channel: "C0NOREACT",
      channel_type: "channel",
      user: "U0ANA",
      text: "<@U0BEN> kudos",
      ts,
    });
    await t.app.settle();
    await t.deps.queue.drain();
    const stored = await rows<{ to_user: string }>(t.deps.db, sql`select to_user from kudos where team_id = ${team}`);
    expect(stored).toEqual([{ to_user: "U0BEN" }]);
    expect(t.fake.callsTo("reactions.add")).toEqual([]);
    expect(t.fake.message(team, "C0NOREACT", ts)?.reactions).toEqual([]);
  });
});
