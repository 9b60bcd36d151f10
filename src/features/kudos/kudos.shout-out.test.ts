import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import { rows } from "../../db/client.ts";
import { tick } from "../standups/index.ts";
import { giveShoutOut } from "./index.ts";

const TEAM = "T0SHOUT";
const ADMIN = "U0SHOUTADMIN";
const CHANNEL = "C0SHOUT";
const PEOPLE = ["U0ANA", "U0BEN", "U0CAT"];

interface ModalView {
  blocks: { block_id?: string; element?: { type?: string; max_length?: number } }[];
}

describe("the standup modal's shout-out", async () => {
  const t = await useTestApp();
  t.clock.set("2026-03-02T08:59:30Z"); // a Monday
  await t.installTeam(TEAM, { installer: ADMIN });
  for (const id of PEOPLE) {
    t.fake.addUser(TEAM, { id, name: id.toLowerCase(), real_name: id });
    await t.addMember(TEAM, id, { realName: id });
  }
  t.fake.addUser(TEAM, { id: "U0ROBOT", name: "robot", real_name: "Robot", is_bot: true });
  t.fake.addChannel(TEAM, { id: CHANNEL, name: "shout", members: [...PEOPLE, "U0ROBOT", "B0SHOUTBOT"] });
  t.fake.addChannel(TEAM, { id: "C0OTHER", name: "other", members: PEOPLE });
  const admin = await t.signIn(TEAM, ADMIN);
  const api = (method: "POST" | "PUT", url: string, body: unknown) =>
    t.inject({
      method,
      url,
      headers: { cookie: admin, "content-type": "application/json" },
      payload: JSON.stringify(body),
    });

  it("kudos_field is a schedule setting: false unless set, true or false only", async () => {
    const plain = await api("POST", "/dashboard/api/standups", { channel_id: "C0OTHER", schedule_time: "10:00" });
    expect(plain.statusCode).toBe(201);
    expect(plain.json().kudos_field).toBe(false);
    const bad = await api("PUT", `/dashboard/api/standups/${plain.json().id}`, { kudos_field: "yes" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ error: "kudos_field must be true or false" });
    const on = await api("PUT", `/dashboard/api/standups/${plain.json().id}`, { kudos_field: true });
    expect(on.json()).toMatchObject({ kudos_field: true, schedule_time: "10:00" });
    const off = await api("PUT", `/dashboard/api/schedules/${plain.json().id}`, { kudos_field: false });
    expect(off.json().kudos_field).toBe(false);
  });

  const created = await api("POST", "/dashboard/api/standups", {
    channel_id: CHANNEL,
    schedule_time: "09:00",
    schedule_tz: "UTC",
    kudos_field: true,
  });
  const scheduleId = created.json().id as string;
  t.clock.set("2026-03-02T09:00:10Z");
  const [runId] = (await tick(t.deps)).started;
  await t.deps.queue.drain();

  let clicks = 0;
  const openModal = async (user: string) => {
    const before = t.fake.callsTo("views.open").length;
    // Each click has its own trigger id at Slack; the same bytes twice would be one delivery to the intake.
    clicks += 1;
    await t.sendInteraction({
      type: "block_actions",
      team: { id: TEAM, domain: "shout" },
      user: { id: user, team_id: TEAM },
      api_app_id: "A0UPBEAT",
      token: "legacy",
      trigger_id: `trigger.${user}.${clicks}`,
      channel: { id: t.fake.dmFor(TEAM, user) },
      actions: [{ type: "button", action_id: "standup_answer", block_id: "b", value: String(runId), action_ts: "1" }],
    });
    await t.fake.waitFor(() => t.fake.callsTo("views.open").length > before);
    return t.fake.callsTo("views.open").at(-1)!.args.view as ModalView;
  };

  const submit = (user: string, shoutOut?: { people?: string[] | null; message?: string | null }) =>
    t.sendInteraction({
      type: "view_submission",
      team: { id: TEAM, domain: "shout" },
      user: { id: user, team_id: TEAM },
      api_app_id: "A0UPBEAT",
      token: "legacy",
      trigger_id: "trigger.submit",
      view: {
        id: `V0${user}`,
        type: "modal",
        team_id: TEAM,
        callback_id: "standup_modal",
        private_metadata: JSON.stringify({ runId }),
        state: {
          values: {
            q0: { answer: { type: "plain_text_input", value: "Shipped" } },
            q1: { answer: { type: "plain_text_input", value: "Reviews" } },
            q2: { answer: { type: "plain_text_input", value: "none" } },
            mood: { mood: { type: "static_select", selected_option: null } },
            ...(shoutOut
              ? {
                  kudos_to: { users: { type: "multi_users_select", selected_users: shoutOut.people ?? [] } },
                  kudos_msg: { message: { type: "plain_text_input", value: shoutOut.message ?? null } },
                }
              : {}),
          },
        },
      },
    });

  const kudosOf = (user: string) =>
    rows<{ to_user: string; message: string; channel_id: string; source: string; source_key: string }>(
      t.deps.db,
      sql`select to_user, message, channel_id, source, source_key from kudos
          where team_id = ${TEAM} and from_user = ${user} order by id`,
    );
  const responseIdOf = async (user: string) =>
    (
      await rows<{ id: number }>(t.deps.db, sql`select id from responses where run_id = ${runId} and user_id = ${user}`)
    )[0]?.id;

  it("the modal has the shout-out when the standup has it switched on, and not otherwise", async () => {
    const view = await openModal("U0ANA");
    const people = view.blocks.find((b) => b.block_id === "kudos_to");
    const message = view.blocks.find((b) => b.block_id === "kudos_msg");
    expect(people?.element?.type).toBe("multi_users_select");
    expect(message?.element).toMatchObject({ type: "plain_text_input", max_length: 500 });
    await api("PUT", `/dashboard/api/standups/${scheduleId}`, { kudos_field: false });
    const without = await openModal("U0ANA");
    expect(without.blocks.some((b) => b.block_id?.startsWith("kudos"))).toBe(false);
    await api("PUT", `/dashboard/api/standups/${scheduleId}`, { kudos_field: true });
    expect(t.fake.unexpected).toEqual([]);
  });

  it("a shout-out gives each person picked (and mentioned) one kudo with the standup's channel", async () => {
    const res = await submit("U0ANA", { people: ["U0BEN"], message: "for the help with <@U0CAT>'s review" });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe("");
    const responseId = await responseIdOf("U0ANA");
    expect(await kudosOf("U0ANA")).toEqual(
      ["U0BEN", "U0CAT"].map((to) => ({
        to_user: to,
        message: "for the help with <@U0CAT>'s review",
        channel_id: CHANNEL,
        source: "standup",
        source_key: `standup:${responseId}`,
      })),
    );
  });

  it("editing the answer never gives the same person a second kudo from it; new people get theirs", async () => {
    await submit("U0ANA", { people: ["U0BEN"], message: "for the help" });
    await submit("U0ANA", { people: ["U0BEN", "U0CAT"], message: "for the help" });
    expect((await kudosOf("U0ANA")).map((k) => k.to_user)).toEqual(["U0BEN", "U0CAT"]);
    // Leaving the shout-out empty on an edit changes nothing either.
    await submit("U0ANA", { people: [], message: "" });
    expect(await kudosOf("U0ANA")).toHaveLength(2);
  });

  it.each([
    [{ people: ["U0BEN"] }, { kudos_msg: "Say what the kudos are for." }],
    [{ message: "thanks!" }, { kudos_to: "Pick who the kudos are for, or clear the message." }],
    [{ people: ["U0BEN"], message: "x".repeat(501) }, { kudos_msg: "At most 500 characters (this has 501)." }],
    [
      { people: ["U0BEN", "U0BEN"], message: "🙏".repeat(501) },
      { kudos_msg: "At most 500 characters (this has 501)." },
    ],
  ])("a shout-out that cannot be given keeps the modal open with the reason: %j", async (shoutOut, errors) => {
    const res = await submit("U0BEN", shoutOut);
    expect(res.json()).toEqual({ response_action: "errors", errors });
    expect(await responseIdOf("U0BEN")).toBeUndefined();
  });

  it("refuses kudos to oneself and to bots before saving anything", async () => {
    const self = await submit("U0BEN", { people: ["U0BEN"], message: "me" });
    expect(self.json()).toEqual({
      response_action: "errors",
      errors: { kudos_to: "You can't give kudos to yourself." },
    });
    const bot = await submit("U0BEN", { people: ["U0ROBOT"], message: "beep" });
    expect(bot.json()).toEqual({
      response_action: "errors",
      errors: { kudos_to: "Kudos are for active members of this workspace, not bots or apps." },
    });
    expect(await responseIdOf("U0BEN")).toBeUndefined();
    expect(await kudosOf("U0BEN")).toEqual([]);
  });

  it("past the giver's daily limit the modal says how many fewer to pick", async () => {
    await t.deps.db.execute(
      sql`insert into kudos (team_id, from_user, to_user, message, channel_id, source, source_key, given_on, created_at)
          select ${TEAM}, 'U0CAT', 'U0ANA', 'seeded', ${CHANNEL}, 'command', 'cmd:seed' || n, '2026-03-02', now()
          from generate_series(1, 9) n`,
    );
    const two = await submit("U0CAT", { people: ["U0ANA", "U0BEN"], message: "thanks" });
    expect(two.json()).toEqual({
      response_action: "errors",
      errors: { kudos_to: "You've reached the daily limit of 10 kudos: pick 1 person fewer, or give them tomorrow." },
    });
    const one = await submit("U0CAT", { people: ["U0BEN"], message: "thanks" });
    expect(one.body).toBe("");
    expect((await kudosOf("U0CAT")).filter((k) => k.source === "standup").map((k) => k.to_user)).toEqual(["U0BEN"]);
    // At the limit now, an edit may still name Ben, whom this answer already thanked.
    const again = await submit("U0CAT", { people: ["U0BEN"], message: "thanks again" });
    expect(again.body).toBe("");
    const more = await submit("U0CAT", { people: ["U0BEN", "U0ANA"], message: "thanks" });
    expect(more.json().errors.kudos_to).toMatch(/^You've reached the daily limit of 10 kudos: pick 1 person fewer/);
    expect(await kudosOf("U0CAT")).toHaveLength(10);
  });

  it("a limit reached between the check and the save is told to the giver privately in the standup's channel", async () => {
    // U0CAT has given 10 today: another answer's shout-out, checked before that, arrives now.
    const outcome = await giveShoutOut(t.deps, {
      teamId: TEAM,
      userId: "U0CAT",
      responseId: 999_999,
      channelId: CHANNEL,
      shoutOut: { receivers: ["U0ANA"], message: "late thanks" },
    });
    expect(outcome).toEqual({ given: [], already: [], refused: [{ userId: "U0ANA", reason: "limit" }] });
    await t.deps.queue.drain();
    expect(
      t.fake
        .ephemerals(CHANNEL)
        .filter((e) => e.user === "U0CAT")
        .map((e) => e.text),
    ).toEqual([":warning: You've given 10 kudos today, the daily limit, so <@U0ANA> didn't get one. More tomorrow!"]);
  });
});
