import { afterAll, describe, expect, it } from "vitest";
import { startFakeSlack } from "../dev/fake-slack/index.ts";
import { tick } from "../src/features/standups/index.ts";
import { ManualClock } from "../src/lib/clock.ts";
import { createTestApp } from "./support/app.ts";
import { standupSubmission } from "./support/standup-answers.ts";

/**
 * One workspace without OAuth, end to end over signed HTTP and over Socket Mode (CHAT_APP_TOKEN): the start installs it from CHAT_BOT_TOKEN, and from then
 * on everything a team does (an admin signing in from Slack, a standup made in the dashboard, run, answered and
 * summarised) works with no OAuth client configured and no OAuth call made.
 */
const TEAM = "T0SOLO";
const CHANNEL = "C0DAILY";
const BOT = "U0SOLOBOT";

describe.each(["http", "socket"] as const)(
  "a standup in one workspace without OAuth (CHAT_BOT_TOKEN, over %s)",
  async (transport) => {
    const fake = await startFakeSlack();
    fake.addTeam({ id: TEAM, name: "Solo", botToken: "xoxb-solo", botUserId: BOT });
    fake.addUser(TEAM, { id: "U0LEAD", name: "lea", real_name: "Lea Lead", tz: "UTC", is_admin: true });
    fake.addUser(TEAM, { id: "U0ANA", name: "ana", real_name: "Ana", tz: "UTC" });
    fake.addUser(TEAM, { id: "U0BEN", name: "ben", real_name: "Ben", tz: "UTC" });
    fake.addChannel(TEAM, { id: CHANNEL, name: "daily", members: ["U0LEAD", "U0ANA", "U0BEN", BOT] });
    const t = await createTestApp({
      fake,
      clock: new ManualClock("2026-03-02T08:00:00Z"), // a Monday
      transport,
      env: { CHAT_BOT_TOKEN: "xoxb-solo", CHAT_CLIENT_ID: "", CHAT_CLIENT_SECRET: "" },
    });
    afterAll(async () => {
      await t.close();
      await fake.close();
    });
    let admin = "";
    let scheduleId = "";
    let runId = 0;

    it("the workspace's Slack admin signs in from Slack (/upbeat → Open dashboard) and is an admin", async () => {
      await t.deps.queue.drain(); // the member sync the install queued
      const help = await t.deliver.command(TEAM, "U0LEAD", "");
      expect(help.acknowledged).toBe(true);
      const link = JSON.stringify(help.body?.blocks).match(/"url":"([^"]+)"/)?.[1];
      expect(link).toMatch(/\/dashboard\/login\?t=/);
      const login = await t.inject({ method: "GET", url: new URL(link!).pathname + new URL(link!).search });
      expect(login.statusCode).toBe(302);
      admin = String([login.headers["set-cookie"]].flat().find((c) => c?.startsWith("svc_session="))).split(";")[0]!;
      const me = await t.inject({ method: "GET", url: "/dashboard/api/me", headers: { cookie: admin } });
      expect(me.json()).toEqual({
        user_id: "U0LEAD",
        team_id: TEAM,
        team_name: "Solo",
        role: "admin",
        ai_summaries_available: false,
      });
    });

    it("creates a standup in the dashboard and runs it now: each member of the channel is asked once", async () => {
      const post = (url: string, payload: unknown) =>
        t.inject({
          method: "POST",
          url,
          headers: { cookie: admin, "content-type": "application/json" },
          payload: JSON.stringify(payload),
        });
      const created = await post("/dashboard/api/schedules", {
        channel_id: CHANNEL,
        schedule_time: "09:00",
        schedule_tz: "UTC",
        schedule_days: "mon,tue,wed,thu,fri",
        questions: ["Yesterday?", "Today?", "Blockers?"],
      });
      expect(created.statusCode, created.body).toBe(201);
      scheduleId = created.json().id;
      const run = await post(`/dashboard/api/standups/${scheduleId}/run`, {});
      expect(run.statusCode, run.body).toBe(201);
      expect(run.json()).toMatchObject({ asked: 3, trigger: "manual" });
      runId = run.json().run_id;
      await t.deps.queue.drain();
      for (const user of ["U0LEAD", "U0ANA", "U0BEN"]) {
        const asked = fake.messages(fake.dmFor(TEAM, user)).filter((m) => m.text.startsWith("Time for standup"));
        expect(asked, user).toHaveLength(1);
      }
    });

    it("two answer in the modal, and the day's close posts the summary in the standup's thread", async () => {
      for (const user of ["U0ANA", "U0BEN"]) {
        const res = await t.deliver.interaction(
          standupSubmission(TEAM, user, runId, [`${user} did things`, "more things", "none"]),
        );
        expect(res).toEqual({ acknowledged: true, body: undefined });
      }
      await t.app.settle();
      await t.deps.queue.drain();
      t.clock.set("2026-03-03T00:00:30Z");
      expect((await tick(t.deps)).closed).toBe(1);
      await t.deps.queue.drain();
      const parent = fake.messages(CHANNEL).find((m) => !m.thread_ts);
      const summary = fake
        .messages(CHANNEL)
        .find((m) => m.thread_ts === parent?.ts && m.text.startsWith("Standup closed"));
      expect(summary?.text).toBe("Standup closed: 2/3 answered (67%)");
    });

    it("nothing needed OAuth: no oauth.v2.access, no call the fake did not expect", () => {
      expect(fake.callsTo("oauth.v2.access")).toEqual([]);
      expect(fake.unexpected).toEqual([]);
    });
  },
);
