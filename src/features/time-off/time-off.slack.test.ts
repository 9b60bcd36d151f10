import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import { createSchedule } from "../../../test/support/factories.ts";
import { rows } from "../../db/client.ts";
import { tick } from "../standups/index.ts";

const TEAM = "T0AWAYS";
const CHANNEL = "C0AWAYS";
const ANA = "U0SANA";
const BEN = "U0SBEN";

describe("time off from Slack: the command, App Home and a run already under way", async () => {
  const t = await useTestApp();
  t.clock.set("2026-03-02T08:00:00Z"); // a Monday
  await t.installTeam(TEAM);
  for (const [id, name] of [
    [ANA, "Ana"],
    [BEN, "Ben"],
  ] as const) {
    t.fake.addUser(TEAM, { id, name: name.toLowerCase(), real_name: name });
    await t.addMember(TEAM, id, { realName: name });
  }
  t.fake.addChannel(TEAM, { id: CHANNEL, name: "standup", members: [ANA, BEN, "B0AWAYSBOT"] });
  await createSchedule(t.deps.db, t.clock, { teamId: TEAM, channelId: CHANNEL, time: "09:00", tz: "UTC" });

  const command = async (user: string, text: string): Promise<string> => {
    const res = await t.sendCommand(TEAM, user, text);
    expect(res.statusCode).toBe(200);
    const body = res.json() as { response_type: string; text: string };
    expect(body.response_type).toBe("ephemeral");
    return body.text;
  };
  const ranges = (user: string) =>
    rows<{ start_date: string; end_date: string; reason: string }>(
      t.deps.db,
      sql`select start_date::text, end_date::text, reason from time_off where team_id = ${TEAM} and user_id = ${user}
          order by start_date`,
    );
  const dmsTo = (user: string) => {
    const dm = t.fake.dmFor(TEAM, user);
    return dm ? t.fake.callsTo("chat.postMessage").filter((c) => c.ok && c.args.channel === dm) : [];
  };
  const status = async (user: string) =>
    (
      await rows<{ status: string }>(
        t.deps.db,
        sql`select p.status from run_participants p join standup_runs r on r.id = p.run_id
            where p.team_id = ${TEAM} and p.user_id = ${user} order by r.local_date desc limit 1`,
      )
    )[0]?.status;

  it("answers usage and date errors privately and stores nothing", async () => {
    expect(await command(ANA, "away")).toContain("Usage: `/upbeat away 2026-12-21 2027-01-04 [reason]`");
    expect(await command(ANA, "away tomorrow")).toContain('"tomorrow" is not a date as YYYY-MM-DD');
    expect(await command(ANA, "away 2026-02-30")).toContain("start_date: not a real date");
    expect(await command(ANA, "away 2026-03-10 2026-03-05")).toContain("end_date: must be on or after start_date");
    expect(await command(ANA, "away 2026-02-20 2026-02-28")).toContain("end_date: must not be in the past");
    expect(await command(ANA, "away 2026-03-10 2027-03-11")).toContain("a range covers at most 366 days");
    expect(await command(ANA, `away 2026-03-10 ${"x".repeat(201)}`)).toContain("at most 200 characters");
    expect(await command(ANA, "back now please")).toContain("`/upbeat back` takes nothing after it");
    expect(await command(ANA, "back")).toBe("You are not away today.");
    expect(await ranges(ANA)).toEqual([]);
  });

  it("a range typed with to, until, a dash or as one word; a reason never starts with a date", async () => {
    for (const [text, end] of [
      ["away 2026-12-01 to 2026-12-04", "2026-12-04"],
      ["away 2026-11-01 until 2026-11-03 Trip", "2026-11-03"],
      ["away 2026-10-01 - 2026-10-02", "2026-10-02"],
      ["away 2026-09-01 – 2026-09-02", "2026-09-02"],
      ["away 2026-08-01 — 2026-08-03", "2026-08-03"],
      ["away 2026-07-01-2026-07-05", "2026-07-05"],
    ] as const) {
      expect(await command(BEN, text), text).toContain(":palm_tree:");
      const stored = (await ranges(BEN)).find((r) => r.end_date === end);
      expect(stored, text).toMatchObject({
        start_date: `${end.slice(0, 8)}01`,
        reason: text.endsWith("Trip") ? "Trip" : "",
      });
    }
    expect((await ranges(BEN)).length).toBe(6);
    for (const [text, message] of [
      ["away 2026-12-21 2027-1-4", 'The reason cannot start with a date ("2027-1-4")'],
      ["away 2026-12-21 to 2027-1-4", '"2027-1-4" is not a date as YYYY-MM-DD'],
      ["away 2026-12-21 to", 'The last day is missing after "to"'],
      ["away 2026-12-21 - soon", '"soon" is not a date'],
      ["away 2026-12-21 12/24 Holidays", "The reason cannot start with a date"],
    ] as const) {
      const reply = await command(BEN, text);
      expect(reply, text).toContain(message);
      expect(reply, text).toContain("Usage:");
    }
    expect((await ranges(BEN)).length).toBe(6);
    // "to" followed by words is a reason like any other.
    expect(await command(BEN, "away 2026-06-01 to see family")).toContain("2026-06-01 (to see family)");
    expect((await ranges(BEN)).length).toBe(7);
    await t.deps.db.execute(sql`delete from time_off where team_id = ${TEAM} and user_id = ${BEN}`);
  });

  it("one day with a reason; a second range next to it merges into one", async () => {
    expect(await command(ANA, "AWAY 2026-03-20 Dentist <3")).toContain("2026-03-20 (Dentist &lt;3)");
    expect(await ranges(ANA)).toEqual([{ start_date: "2026-03-20", end_date: "2026-03-20", reason: "Dentist <3" }]);
    await command(ANA, "away 2026-03-21 2026-03-22");
    expect(await ranges(ANA)).toEqual([{ start_date: "2026-03-20", end_date: "2026-03-22", reason: "Dentist <3" }]);
    expect(await command(ANA, "back")).toBe(
      "You are not away today. Still planned: 2026-03-20 to 2026-03-22 (Dentist &lt;3).",
    );
  });

  it("away after being asked today: no reminder, counted as away in the summary", async () => {
    t.clock.set("2026-03-02T09:00:10Z");
    expect((await tick(t.deps)).started).toHaveLength(1);
    await t.deps.queue.drain();
    expect(dmsTo(ANA)).toHaveLength(1);
    t.clock.set("2026-03-02T09:30:00Z");
    expect(await command(ANA, "away 2026-03-02")).toContain("You are away 2026-03-02");
    expect(await status(ANA)).toBe("away");
    t.clock.set("2026-03-02T11:00:10Z"); // the 120-minute reminder
    await tick(t.deps);
    await t.deps.queue.drain();
    expect(dmsTo(ANA)).toHaveLength(1);
    expect(dmsTo(BEN)).toHaveLength(2);
    t.clock.set("2026-03-03T00:00:10Z");
    expect((await tick(t.deps)).closed).toBe(1);
    await t.deps.queue.drain();
    const summary = t.fake
      .callsTo("chat.postMessage")
      .find((c) => c.args.channel === CHANNEL && String(c.args.text).startsWith("Standup closed"));
    expect(summary?.args.text).toBe("Standup closed: 0/1 answered (0%)");
    const blocks = JSON.stringify(summary?.args.blocks);
    expect(blocks).toContain("Did not answer:* Ben");
    expect(blocks).toContain("Away: Ana");
  });

  it("back during a run they were away for: asked on the spot, once", async () => {
    t.clock.set("2026-03-03T08:00:00Z");
    await command(ANA, "away 2026-03-03 2026-03-04");
    t.clock.set("2026-03-03T09:00:10Z");
    await tick(t.deps);
    await t.deps.queue.drain();
    const before = dmsTo(ANA).length;
    expect(await status(ANA)).toBe("away");
    t.clock.set("2026-03-03T10:00:00Z");
    // Yesterday's day away and this one touch: they merged, so yesterday stays and today on is not away.
    expect(await command(ANA, "back")).toContain(
      "Welcome back! Your time off 2026-03-02 to 2026-03-04 now ends yesterday",
    );
    expect((await ranges(ANA)).map((r) => [r.start_date, r.end_date])).toEqual([
      ["2026-03-02", "2026-03-02"],
      ["2026-03-20", "2026-03-22"],
    ]);
    expect(await status(ANA)).toBe("asked");
    await t.deps.queue.drain();
    expect(dmsTo(ANA)).toHaveLength(before + 1);
    expect(JSON.stringify(dmsTo(ANA).at(-1)!.args.blocks)).toContain("standup_answer");
  });

  it("back in the middle of a range ends it yesterday; back on its first day removes it", async () => {
    t.clock.set("2026-03-03T12:00:00Z");
    await command(BEN, "away 2026-03-02 2026-03-06 Conference");
    expect(await command(BEN, "back")).toContain("now ends yesterday");
    expect(await ranges(BEN)).toEqual([{ start_date: "2026-03-02", end_date: "2026-03-02", reason: "Conference" }]);
    await command(BEN, "away 2026-03-04 2026-03-06");
    t.clock.set("2026-03-04T12:00:00Z");
    expect(await command(BEN, "back")).toBe(
      "Welcome back! Your time off 2026-03-04 to 2026-03-06 is removed; you will be asked again from today.",
    );
    expect((await ranges(BEN)).map((r) => r.start_date)).toEqual(["2026-03-02"]);
  });

  it("App Home: the button opens the modal, its submission stores the range, and Back now ends it", async () => {
    t.clock.set("2026-03-05T08:00:00Z");
    const publishes = () => t.fake.callsTo("views.publish").filter((c) => c.args.user_id === BEN);
    await t.sendEvent(TEAM, { type: "app_home_opened", user: BEN, channel: "D0X", tab: "home" });
    await t.fake.waitFor(() => publishes().length === 1);
    const home = JSON.stringify(publishes()[0]!.args.view);
    expect(home).toContain("Time off:* none planned");
    expect(home).toContain('"action_id":"time_off_open"');
    expect(home).not.toContain("time_off_back");

    const opened = t.fake.callsTo("views.open").length;
    await t.sendInteraction({
      type: "block_actions",
      team: { id: TEAM, domain: "aways" },
      user: { id: BEN, team_id: TEAM },
      api_app_id: "A0UPBEAT",
      token: "legacy",
      trigger_id: "trigger.away",
      actions: [{ type: "button", action_id: "time_off_open", block_id: "b", action_ts: "1" }],
    });
    await t.fake.waitFor(() => t.fake.callsTo("views.open").length > opened);
    const open = t.fake.callsTo("views.open").at(-1)!;
    expect(open.args.trigger_id).toBe("trigger.away");
    const view = open.args.view as { callback_id: string; blocks: { block_id?: string; element?: { type: string } }[] };
    expect(view.callback_id).toBe("time_off_modal");
    expect(view.blocks.filter((b) => b.element?.type === "datepicker").map((b) => b.block_id)).toEqual([
      "start",
      "end",
    ]);

    const submit = (start: string, end: string, reason: string | null) =>
      t.sendInteraction({
        type: "view_submission",
        team: { id: TEAM, domain: "aways" },
        user: { id: BEN, team_id: TEAM },
        api_app_id: "A0UPBEAT",
        token: "legacy",
        trigger_id: "trigger.submit",
        view: {
          id: "V0AWAY",
          type: "modal",
          team_id: TEAM,
          callback_id: "time_off_modal",
          private_metadata: "",
          state: {
            values: {
              start: { date: { type: "datepicker", selected_date: start } },
              end: { date: { type: "datepicker", selected_date: end } },
              reason: { reason: { type: "plain_text_input", value: reason } },
            },
          },
        },
      });
    const wrong = await submit("2026-03-06", "2026-03-05", null);
    expect(wrong.statusCode).toBe(200);
    expect(wrong.json()).toEqual({
      response_action: "errors",
      errors: { end: "end_date: must be on or after start_date" },
    });
    const ok = await submit("2026-03-05", "2026-03-09", "Moving house");
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toBe("");
    expect((await ranges(BEN)).at(-1)).toEqual({
      start_date: "2026-03-05",
      end_date: "2026-03-09",
      reason: "Moving house",
    });
    await t.fake.waitFor(() => publishes().length === 2);
    const after = JSON.stringify(publishes()[1]!.args.view);
    expect(after).toContain("you are away 2026-03-05 to 2026-03-09 (Moving house)");
    expect(after).toContain('"action_id":"time_off_back"');

    await t.sendInteraction({
      type: "block_actions",
      team: { id: TEAM, domain: "aways" },
      user: { id: BEN, team_id: TEAM },
      api_app_id: "A0UPBEAT",
      token: "legacy",
      trigger_id: "trigger.back",
      actions: [{ type: "button", action_id: "time_off_back", block_id: "b", action_ts: "2" }],
    });
    await t.fake.waitFor(() => publishes().length === 3);
    expect((await ranges(BEN)).map((r) => r.start_date)).toEqual(["2026-03-02"]);
    expect(JSON.stringify(publishes()[2]!.args.view)).toContain("Time off:* none planned");
  });
});
