import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import { rows } from "../../db/client.ts";

const TEAM = "T0KCMD";

interface KudoDb {
  from_user: string;
  to_user: string;
  message: string;
  channel_id: string;
  source: string;
  source_key: string;
}

describe("/upbeat kudos", async () => {
  const t = await useTestApp();
  await t.installTeam(TEAM);
  const people: [string, string, string][] = [
    ["U0ANA", "Ana Lima", "ana"],
    ["U0BEN", "Ben Okoro", "ben"],
    ["U0CAT", "Cat", "cat"],
    ["U0DAN", "Dan", "dan"],
    ["U0SAM1", "Sam One", "sam"],
    ["U0SAM2", "Sam Two", "sam"],
  ];
  for (const [id, realName, display] of people) {
    await t.addMember(TEAM, id, { realName });
    await t.deps.db.execute(
      sql`update members set display_name = ${display} where team_id = ${TEAM} and user_id = ${id}`,
    );
  }

  const command = async (user: string, text: string) => {
    const res = await t.sendCommand(TEAM, user, text);
    expect(res.statusCode).toBe(200);
    return res.json() as { response_type: string; text: string };
  };
  const newest = async (n = 1) =>
    (
      await rows<KudoDb>(
        t.deps.db,
        sql`select from_user, to_user, message, channel_id, source, source_key from kudos
            where team_id = ${TEAM} order by id desc limit ${n}`,
      )
    ).reverse();
  const total = async () =>
    (await rows<{ n: number }>(t.deps.db, sql`select count(*)::int as n from kudos where team_id = ${TEAM}`))[0]!.n;

  it("gives a kudo to the person mentioned and says so in the channel", async () => {
    const reply = await command("U0ANA", "kudos <@U0BEN|ben> thanks for the demo");
    expect(reply).toEqual({
      response_type: "in_channel",
      text: ":tada: <@U0ANA> gave kudos to <@U0BEN>: thanks for the demo",
    });
    const [kudo] = await newest();
    expect(kudo).toMatchObject({
      from_user: "U0ANA",
      to_user: "U0BEN",
      message: "thanks for the demo",
      channel_id: "C0GENERAL",
      source: "command",
    });
    expect(kudo!.source_key).toMatch(/^cmd:trig\.[0-9a-f]+$/);
  });

  it("gives one to each person mentioned; the verb is case-insensitive", async () => {
    const reply = await command("U0ANA", "KUDOS <@U0BEN>, <@U0CAT> and <@U0BEN> for pairing");
    expect(reply.text).toBe(":tada: <@U0ANA> gave kudos to <@U0BEN> and <@U0CAT>: for pairing");
    expect((await newest(2)).map((k) => [k.to_user, k.message])).toEqual([
      ["U0BEN", "for pairing"],
      ["U0CAT", "for pairing"],
    ]);
  });

  it("resolves a plain @name (a command that does not escape mentions) through the members", async () => {
    const reply = await command("U0BEN", "kudos @Ana, nice review @cat.");
    expect(reply.text).toBe(":tada: <@U0BEN> gave kudos to <@U0ANA> and <@U0CAT>: nice review <@U0CAT>.");
    expect((await newest(2)).map((k) => k.to_user)).toEqual(["U0ANA", "U0CAT"]);
  });

  it("asks who is meant when a plain @name is nobody's or several people's, and gives nothing", async () => {
    const before = await total();
    const unknown = await command("U0ANA", "kudos @nobody thanks");
    expect(unknown.response_type).toBe("ephemeral");
    expect(unknown.text).toContain("I couldn't tell who @nobody is.");
    const twoSams = await command("U0ANA", "kudos @sam thanks");
    expect(twoSams.text).toContain("I couldn't tell who @sam is.");
    expect(await total()).toBe(before);
  });

  it("without a mention it explains how, and gives nothing", async () => {
    const before = await total();
    const reply = await command("U0ANA", "kudos great job everyone");
    expect(reply.response_type).toBe("ephemeral");
    expect(reply.text).toMatch(/^Who are the kudos for\? Mention them: `\/upbeat kudos @someone thanks for …`/);
    expect((await command("U0ANA", "kudos")).text).toMatch(/^Who are the kudos for\?/);
    expect(await total()).toBe(before);
  });

  it("refuses kudos to oneself, to bots and apps, and to people who are not members", async () => {
    const before = await total();
    expect(await command("U0ANA", "kudos <@U0ANA> me")).toEqual({
      response_type: "ephemeral",
      text: ":warning: You can't give kudos to yourself.",
    });
    const bot = await command("U0ANA", "kudos <@U0ROBOT|robot> beep");
    expect(bot).toEqual({
      response_type: "ephemeral",
      text: ":warning: <@U0ROBOT> can't get kudos: kudos are for active members of this workspace, not bots or apps.",
    });
    expect(await total()).toBe(before);
  });

  it("a partly refused command gives the rest and tells the giver privately", async () => {
    const reply = await command("U0CAT", "kudos <@U0DAN> <@U0ROBOT> thanks");
    expect(reply.response_type).toBe("ephemeral");
    expect(reply.text).toBe(
      ":tada: <@U0CAT> gave kudos to <@U0DAN>: thanks\n" +
        ":warning: <@U0ROBOT> can't get kudos: kudos are for active members of this workspace, not bots or apps.",
    );
    expect((await newest()).map((k) => k.to_user)).toEqual(["U0DAN"]);
  });

  it("refuses a message over 500 characters with the reason; 500 is fine", async () => {
    const before = await total();
    const tooLong = await command("U0DAN", `kudos <@U0ANA> ${"x".repeat(501)}`);
    expect(tooLong).toEqual({
      response_type: "ephemeral",
      text: "A kudo can be at most 500 characters; yours has 501. Shorten it and send it again.",
    });
    expect(await total()).toBe(before);
    const fits = await command("U0DAN", `kudos <@U0ANA> ${"😀".repeat(500)}`);
    expect(fits.response_type).toBe("in_channel");
    expect([...(await newest())[0]!.message]).toHaveLength(500);
  });

  it("quotes the message safely: no broadcast pings, Slack's escapes stored as plain characters", async () => {
    const reply = await command("U0DAN", "kudos <@U0BEN> you rock <!channel> &amp; @here &lt;3");
    expect(reply.text).toBe(
      ":tada: <@U0DAN> gave kudos to <@U0BEN>: you rock &lt;!channel&gt; &amp; @\u200bhere &lt;3",
    );
    expect((await newest())[0]!.message).toBe("you rock <!channel> & @here <3");
  });

  it("the 11th kudo of a giver's day is refused", async () => {
    const giver = "U0SAM1";
    for (let i = 0; i < 10; i++) {
      expect((await command(giver, `kudos <@U0ANA> number ${i + 1}`)).response_type).toBe("in_channel");
    }
    expect(await command(giver, "kudos <@U0BEN> one more")).toEqual({
      response_type: "ephemeral",
      text: ":warning: You've given 10 kudos today, the daily limit, so <@U0BEN> didn't get one. More tomorrow!",
    });
    t.clock.set("2026-03-03T00:00:30Z");
    expect((await command(giver, "kudos <@U0BEN> one more")).response_type).toBe("in_channel");
  });

  it("the help names the kudos command", async () => {
    const help = await command("U0ANA", "help");
    expect(JSON.stringify(help)).toContain("/upbeat kudos @someone");
  });
});
