import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { sign, slashCommandForm } from "../../../dev/slack-signing.ts";
import { type TestApp, useTestApp } from "../../../test/support/app.ts";
import { rows } from "../../db/client.ts";

const TEAM = "T0PSLACK";
const USER = "U0PSLACK";

type Block = { block_id?: string; element?: Record<string, unknown> };
type View = { callback_id: string; blocks: Block[] };

describe("the profile modal in Slack", async () => {
  const t: TestApp = await useTestApp();
  await t.installTeam(TEAM);
  await t.addMember(TEAM, USER);
  const stored = () =>
    rows<Record<string, unknown>>(
      t.deps.db,
      sql`select * from profiles where team_id = ${TEAM} and user_id = ${USER}`,
    ).then((r) => r[0]);

  const command = (text: string, triggerId: string) => {
    const form = new URLSearchParams(slashCommandForm(TEAM, USER, text));
    form.set("trigger_id", triggerId);
    const s = sign(form.toString(), {
      nowMs: t.clock.now().getTime(),
      contentType: "application/x-www-form-urlencoded",
    });
    return t.inject({ method: "POST", url: "/chat/commands", headers: s.headers, payload: s.payload });
  };
  const lastOpen = async (count: number) => {
    await t.fake.waitFor((calls) => calls.filter((c) => c.method === "views.open").length >= count);
    const call = t.fake.callsTo("views.open")[count - 1]!;
    return { triggerId: call.args.trigger_id, view: call.args.view as View };
  };
  const submit = (values: Record<string, Record<string, unknown>>) =>
    t.sendInteraction({
      type: "view_submission",
      team: { id: TEAM, domain: "p" },
      user: { id: USER, team_id: TEAM },
      api_app_id: "A0UPBEAT",
      token: "legacy",
      trigger_id: "trigger.sub",
      view: { id: "V0PROFILE", type: "modal", team_id: TEAM, callback_id: "profile_modal", state: { values } },
    });
  const values = (o: {
    month?: string;
    day?: string;
    start?: string | null;
    role?: string;
    location?: string;
    ask?: string;
    celebrate?: boolean;
  }) => ({
    birth_month: { birth_month: { type: "static_select", selected_option: o.month ? { value: o.month } : null } },
    birth_day: { birth_day: { type: "static_select", selected_option: o.day ? { value: o.day } : null } },
    start_date: { start_date: { type: "datepicker", selected_date: o.start ?? null } },
    role: { role: { type: "plain_text_input", value: o.role ?? null } },
    location: { location: { type: "plain_text_input", value: o.location ?? null } },
    ask_me_about: { ask_me_about: { type: "plain_text_input", value: o.ask ?? null } },
    celebrate: {
      celebrate: { type: "checkboxes", selected_options: o.celebrate === false ? [] : [{ value: "yes" }] },
    },
  });

  it("/upbeat profile acknowledges at once and opens the modal with the command's trigger id", async () => {
    const res = await command("profile", "trig.profile.1");
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe("");
    const { triggerId, view } = await lastOpen(1);
    expect(triggerId).toBe("trig.profile.1");
    expect(view.callback_id).toBe("profile_modal");
    expect(view.blocks.map((b) => b.block_id).filter(Boolean)).toEqual([
      "birth_month",
      "birth_day",
      "start_date",
      "role",
      "location",
      "ask_me_about",
      "celebrate",
    ]);
    // Never set: nothing prefilled but the celebrate box.
    expect(view.blocks.find((b) => b.block_id === "birth_month")?.element?.initial_option).toBeUndefined();
    expect(view.blocks.find((b) => b.block_id === "celebrate")?.element?.initial_options).toHaveLength(1);
  });

  it("the submission stores the profile as the member's own", async () => {
    const res = await submit(values({ month: "2", day: "29", start: "2021-06-07", role: "Engineer", ask: "Chess" }));
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe("");
    expect(await stored()).toMatchObject({
      birth_month: 2,
      birth_day: 29,
      role: "Engineer",
      location: "",
      ask_me_about: "Chess",
      celebrate: true,
      set_by_admin: false,
    });
  });

  it("the next modal is prefilled with the stored profile", async () => {
    await command("PROFILE", "trig.profile.2");
    const { triggerId, view } = await lastOpen(2);
    expect(triggerId).toBe("trig.profile.2");
    const el = (id: string) => view.blocks.find((b) => b.block_id === id)?.element ?? {};
    expect(el("birth_month").initial_option).toMatchObject({ value: "2" });
    expect(el("birth_day").initial_option).toMatchObject({ value: "29" });
    expect(el("start_date").initial_date).toBe("2021-06-07");
    expect(el("role").initial_value).toBe("Engineer");
    expect(el("ask_me_about").initial_value).toBe("Chess");
  });

  it("problems are shown at their field with response_action errors, and nothing is saved", async () => {
    const before = await stored();
    const cases: [Parameters<typeof values>[0], string][] = [
      [{ month: "4", day: "31" }, "birth_day"],
      [{ month: "4" }, "birth_day"],
      [{ day: "4" }, "birth_month"],
      [{ start: "2030-01-01" }, "start_date"],
      [{ role: "r".repeat(81) }, "role"],
    ];
    for (const [v, block] of cases) {
      const res = await submit(values(v));
      expect(res.statusCode).toBe(200);
      const body = res.json() as { response_action: string; errors: Record<string, string> };
      expect(body.response_action).toBe("errors");
      expect(Object.keys(body.errors)).toEqual([block]);
    }
    expect(await stored()).toEqual(before);
  });

  it("unticking celebrate opts out", async () => {
    await submit(values({ month: "2", day: "29", celebrate: false }));
    expect(await stored()).toMatchObject({ celebrate: false, birth_month: 2 });
  });

  it("a button with action_id open_profile_modal opens the same modal with the interaction's trigger id", async () => {
    const res = await t.sendInteraction({
      type: "block_actions",
      team: { id: TEAM, domain: "p" },
      user: { id: USER, team_id: TEAM },
      api_app_id: "A0UPBEAT",
      token: "legacy",
      trigger_id: "trig.button.1",
      container: { type: "message", channel_id: "D0PSLACK" },
      channel: { id: "D0PSLACK" },
      actions: [{ type: "button", action_id: "open_profile_modal", block_id: "b", value: "profile", action_ts: "1" }],
    });
    expect(res.statusCode).toBe(200);
    const { triggerId, view } = await lastOpen(3);
    expect(triggerId).toBe("trig.button.1");
    expect(view.callback_id).toBe("profile_modal");
    expect(view.blocks.find((b) => b.block_id === "celebrate")?.element?.initial_options).toBeUndefined();
  });

  it("App Home has an Edit my profile button that opens the modal", async () => {
    await t.sendEvent(TEAM, { type: "app_home_opened", user: USER, channel: "D0PSLACK", tab: "home" });
    await t.fake.waitFor((calls) => calls.some((c) => c.method === "views.publish"));
    const home = JSON.stringify(t.fake.callsTo("views.publish").at(-1)!.args.view);
    expect(home).toContain('"action_id":"open_profile_modal"');
    expect(home).toContain("Edit my profile");
  });
});
