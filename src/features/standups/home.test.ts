import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import { createSchedule } from "../../../test/support/factories.ts";
import { tick } from "./scheduler.ts";

describe.each(["http", "socket"] as const)("App Home and the slash command (over %s)", async (transport) => {
  const t = await useTestApp({ transport });
  t.clock.set("2026-03-02T08:00:00Z");
  await t.installTeam("T0HOME");
  t.fake.addUser("T0HOME", { id: "U0HOMER", name: "homer", real_name: "Homer", tz: "America/Los_Angeles" });
  await t.addMember("T0HOME", "U0HOMER", { tz: "America/Los_Angeles" });
  t.fake.addChannel("T0HOME", { id: "C0HOME", name: "home", members: ["U0HOMER", "BT0HOMEBOT"] });
  await createSchedule(t.deps.db, t.clock, {
    teamId: "T0HOME",
    channelId: "C0HOME",
    time: "09:00",
    tz: "Europe/London",
  });

  it("app_home_opened publishes the member's schedules, today's status, the next run in their timezone and a dashboard button", async () => {
    await t.deliver.event("T0HOME", { type: "app_home_opened", user: "U0HOMER", channel: "D0X", tab: "home" });
    await t.fake.waitFor((calls) => calls.some((c) => c.method === "views.publish"));
    const call = t.fake.callsTo("views.publish").at(-1)!;
    expect(call.args.user_id).toBe("U0HOMER");
    const text = JSON.stringify(call.args.view);
    expect(text).toContain("<#C0HOME>");
    expect(text).toContain("no run for you today");
    // 09:00 London on Monday 2 March is 01:00 in Los Angeles.
    expect(text).toContain("Mon 2 Mar, 01:00 PST");
    expect(text).toMatch(/dashboard\/login\?t=/);
  });

  it("shows 'waiting for your answer' once today's run has asked the member", async () => {
    t.clock.set("2026-03-02T09:00:05Z");
    await tick(t.deps);
    await t.deps.queue.drain();
    await t.deliver.event("T0HOME", { type: "app_home_opened", user: "U0HOMER", channel: "D0X", tab: "home" });
    await t.fake.waitFor((calls) => calls.filter((c) => c.method === "views.publish").length === 2);
    expect(JSON.stringify(t.fake.callsTo("views.publish").at(-1)!.args.view)).toContain("waiting for your answer");
  });

  it("/upbeat with no text or help answers an ephemeral help with an Open dashboard button carrying a working login link", async () => {
    for (const text of ["", "help"]) {
      const res = await t.deliver.command("T0HOME", "U0HOMER", text);
      expect(res.acknowledged).toBe(true);
      const body = res.body!;
      expect(body.response_type).toBe("ephemeral");
      const button = JSON.stringify(body.blocks).match(/"url":"([^"]+)"/)?.[1];
      expect(button).toMatch(/^http:\/\/localhost:3000\/dashboard\/login\?t=/);
      const login = await t.inject({ method: "GET", url: new URL(button!).pathname + new URL(button!).search });
      expect(login.statusCode).toBe(302);
    }
  });

  it("/upbeat profile acknowledges with an empty body and opens the profile modal", async () => {
    const res = await t.deliver.command("T0HOME", "U0HOMER", "profile");
    expect(res).toEqual({ acknowledged: true, body: undefined });
    await t.fake.waitFor((calls) => calls.some((c) => c.method === "views.open"));
    expect(t.fake.callsTo("views.open").at(-1)!.args.view).toMatchObject({ callback_id: "profile_modal" });
  });
});
