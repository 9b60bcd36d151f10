import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";

const TEAM = "T0SOCK";
const USER = "U0SOCKER";

/** The same deliveries over both transports reach the same listeners and get the same answers. */
describe.each(["http", "socket"] as const)("over %s", async (transport) => {
  const t = await useTestApp({ transport });
  await t.installTeam(TEAM);
  await t.addMember(TEAM, USER);

  it("an event reaches its listener once (app_home_opened publishes the Home tab)", async () => {
    const delivered = await t.deliver.event(TEAM, { type: "app_home_opened", user: USER, channel: "D0X", tab: "home" });
    expect(delivered).toEqual({ acknowledged: true, body: undefined });
    await t.app.settle();
    const publishes = t.fake.callsTo("views.publish").filter((c) => c.args.user_id === USER);
    expect(publishes).toHaveLength(1);
    expect(JSON.stringify(publishes[0]?.args.view)).toMatch(/dashboard\/login\?t=/);
  });

  it("a slash command's ephemeral reply is the acknowledgement's payload", async () => {
    const delivered = await t.deliver.command(TEAM, USER, "help");
    expect(delivered.acknowledged).toBe(true);
    expect(delivered.body).toMatchObject({ response_type: "ephemeral" });
    expect(JSON.stringify(delivered.body)).toMatch(/dashboard\/login\?t=/);
  });

  it("a modal submission with problems is answered with response_action errors", async () => {
    const delivered = await t.deliver.interaction({
      type: "view_submission",
      team: { id: TEAM, domain: "sock" },
      user: { id: USER, team_id: TEAM },
      api_app_id: "A0UPBEAT",
      token: "legacy",
      trigger_id: `trigger.sub.${transport}`,
      view: {
        id: "V0PROFILE",
        type: "modal",
        team_id: TEAM,
        callback_id: "profile_modal",
        state: {
          values: {
            birth_month: { birth_month: { type: "static_select", selected_option: { value: "4" } } },
            birth_day: { birth_day: { type: "static_select", selected_option: { value: "31" } } },
          },
        },
      },
    });
    expect(delivered.acknowledged).toBe(true);
    expect(delivered.body).toMatchObject({ response_action: "errors", errors: { birth_day: expect.any(String) } });
  });

  it("/healthz names the transport", async () => {
    const res = await t.inject({ method: "GET", url: "/healthz" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: "ok", db: "connected", socket: transport === "socket" ? "connected" : "off" });
  });
});
