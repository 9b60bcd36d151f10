import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startFakeSlack } from "../dev/fake-slack/index.ts";
import type { Database } from "../src/db/client.ts";
import { TEST_APP_TOKEN } from "./support/app.ts";
import { type AppProcess, startAppProcess } from "./support/app-process.ts";
import { freshDatabase, onPostgres } from "./support/database.ts";
import { standupSubmission } from "./support/standup-answers.ts";

const TEAM = "T0CLONE";
const CHANNEL = "C0CLONE";
const BOT = "U0CLONEBOT";
const BOT_TOKEN = "xoxb-clone-token";
const PEOPLE = ["U0LEAD", "U0ANA", "U0BEN"];
const SHIFT_PRELOAD = new URL("./support/clock-shift.ts", import.meta.url).href;
const WEEKDAYS = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"];

/**
 * The ten-minute path of issue 23 as a new user takes it: a fresh clone (an empty directory as its working directory,
 * so ./data is new), `src/main.ts` started with nothing but CHAT_BOT_TOKEN and CHAT_APP_TOKEN (plus CHAT_API_URL at
 * the fake Slack, and DATABASE_URL on PostgreSQL). No public URL, no OAuth client, no signing secret: everything
 * arrives over the socket. A Slack admin signs in from /upbeat, makes a standup in the dashboard and runs it; members
 * answer in the modal and in the DM; the close posts the summary.
 */
// Each test starts or drives a whole app process: on a loaded machine (a shared CI box) that takes far longer than
// the suite's 30 s default.
describe("a fresh clone with only CHAT_BOT_TOKEN and CHAT_APP_TOKEN, in Socket Mode", {
  timeout: 180_000,
}, async () => {
  const fake = await startFakeSlack();
  fake.addTeam({ id: TEAM, name: "Clone Co", botToken: BOT_TOKEN, botUserId: BOT });
  fake.addUser(TEAM, { id: "U0LEAD", name: "lea", real_name: "Lea Lead", tz: "UTC", is_admin: true });
  fake.addUser(TEAM, { id: "U0ANA", name: "ana", real_name: "Ana", tz: "UTC" });
  fake.addUser(TEAM, { id: "U0BEN", name: "ben", real_name: "Ben", tz: "UTC" });
  fake.addChannel(TEAM, { id: CHANNEL, name: "daily", members: [...PEOPLE, BOT] });
  const clone = mkdtempSync(join(tmpdir(), "upbeat-clone-"));
  const database: Database | undefined = onPostgres ? await freshDatabase() : undefined;
  const env: Record<string, string> = {
    CHAT_BOT_TOKEN: BOT_TOKEN,
    CHAT_APP_TOKEN: TEST_APP_TOKEN,
    CHAT_API_URL: fake.url,
    ...(database ? { DATABASE_URL: database.url } : {}),
  };
  const processes: AppProcess[] = [];
  const start = async (name: string, extra: Record<string, string> = {}, preload: string[] = []) => {
    const p = await startAppProcess(name, { ...env, ...extra }, 60_000, { cwd: clone, preload });
    processes.push(p);
    return p;
  };
  afterAll(async () => {
    for (const p of processes) await p.stop();
    await database?.close();
    await fake.close();
    rmSync(clone, { recursive: true, force: true });
  });
  let app: AppProcess;
  let admin = "";
  let runId = 0;
  const dm = (u: string) => fake.dmFor(TEAM, u);
  const dmTexts = (u: string) => fake.messages(dm(u)).map((m) => m.text);
  const parent = () => fake.messages(CHANNEL).find((m) => !m.thread_ts);
  const thread = () => fake.messages(CHANNEL).filter((m) => m.thread_ts !== undefined && m.thread_ts === parent()?.ts);
  const api = async (method: "GET" | "POST", path: string, body?: unknown) => {
    const res = await fetch(`${app.address}${path}`, {
      method,
      headers: { cookie: admin, ...(body ? { "content-type": "application/json" } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return { status: res.status, json: (await res.json()) as Record<string, unknown> & unknown[] };
  };

  it("starts, installs the workspace from the bot token and connects its socket", async () => {
    app = await start("clone-1");
    await expect
      .poll(async () => (await fetch(`${app.address}/healthz`)).json(), { timeout: 15_000, interval: 100 })
      .toEqual({ status: "ok", db: "connected", socket: "connected" });
    expect(app.lines.join("\n")).toContain("workspace of CHAT_BOT_TOKEN installed");
  });

  it("the workspace's Slack admin signs in from /upbeat (over the socket) and is an admin", async () => {
    // The member sync the install queued marks Slack's admins; until it ran, the sign-in waits for it.
    await expect
      .poll(
        async () => {
          const help = await fake.socket.sendCommand(TEAM, "U0LEAD", "");
          const link = JSON.stringify(help?.payload.blocks).match(/"url":"([^"]+)"/)?.[1];
          if (!link) return "no link";
          const url = new URL(link);
          const login = await fetch(`${app.address}${url.pathname}${url.search}`, { redirect: "manual" });
          admin =
            login.headers
              .getSetCookie()
              .find((c) => c.startsWith("svc_session="))
              ?.split(";")[0] ?? "";
          return admin ? (await api("GET", "/dashboard/api/me")).json.role : `sign-in ${login.status}`;
        },
        { timeout: 20_000, interval: 500 },
      )
      .toBe("admin");
  });

  it("makes a standup in the dashboard and runs it now: each member of the channel is asked once", async () => {
    // The member sync the install queued has listed everyone (a standup made sooner counts those known so far).
    await expect
      .poll(async () => (await api("GET", "/dashboard/api/members")).json, { timeout: 20_000, interval: 250 })
      .toHaveLength(PEOPLE.length);
    // Only today's weekday: the later start at the close's time must not find another day's run due.
    const created = await api("POST", "/dashboard/api/schedules", {
      channel_id: CHANNEL,
      schedule_time: "09:00",
      schedule_tz: "UTC",
      schedule_days: WEEKDAYS[new Date().getUTCDay()],
      questions: ["Yesterday?", "Today?", "Blockers?"],
    });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    const run = await api("POST", `/dashboard/api/standups/${created.json.id}/run`, {});
    expect(run.status, JSON.stringify(run.json)).toBe(201);
    expect(run.json, JSON.stringify(run.json)).toMatchObject({ asked: 3, trigger: "manual" });
    runId = Number(run.json.run_id);
    await fake.waitFor(() => PEOPLE.every((u) => dmTexts(u).some((t) => t.startsWith("Time for standup"))), 20_000);
    for (const u of PEOPLE)
      expect(
        dmTexts(u).filter((t) => t.startsWith("Time for standup")),
        u,
      ).toHaveLength(1);
  });

  it("Ana answers in the modal (button, then submission), Ben in the DM, each over the socket", async () => {
    const button = await fake.socket.sendInteraction({
      type: "block_actions",
      team: { id: TEAM, domain: "clone" },
      user: { id: "U0ANA", team_id: TEAM },
      api_app_id: "A0UPBEAT",
      token: "legacy",
      trigger_id: "trigger.clone.ana",
      channel: { id: dm("U0ANA") },
      container: { type: "message", channel_id: dm("U0ANA") },
      actions: [{ type: "button", action_id: "standup_answer", block_id: "b", value: String(runId), action_ts: "1" }],
    });
    expect(button).toBeDefined();
    await fake.waitFor((calls) => calls.some((c) => c.method === "views.open"), 10_000);
    const submitted = await fake.socket.sendInteraction(
      standupSubmission(TEAM, "U0ANA", runId, ["Shipped search", "Billing", "none"]),
    );
    expect(submitted?.payload).toEqual({});

    for (const [i, text] of ["Reviews", "Docs", "Blocked on review"].entries()) {
      const ack = await fake.socket.sendEvent(TEAM, {
        type: "message",
        channel_type: "im",
        channel: dm("U0BEN"),
        user: "U0BEN",
        text,
        ts: `1772442000.00000${i + 1}`,
      });
      expect(ack).toBeDefined();
      // The next question (or, after the last, the confirmation) before the next answer.
      await fake.waitFor(() => dmTexts("U0BEN").length === i + 2, 10_000);
    }
    await fake.waitFor(() => thread().length === 2, 20_000);
    expect(JSON.stringify(thread().map((m) => m.blocks))).toContain("Shipped search");
    expect(JSON.stringify(thread().map((m) => m.blocks))).toContain("Blocked on review");
  });

  it("the same instance started again at the close's time posts the summary in the thread", async () => {
    await app.stop();
    expect(app.child.exitCode).toBe(0);
    // Past the run's close (the end of today in UTC, at least 4 h after the start): 28 hours on.
    app = await start("clone-2", { UPBEAT_TEST_CLOCK_SHIFT_MS: String(28 * 3600_000) }, [SHIFT_PRELOAD]);
    await fake.waitFor(() => thread().some((m) => m.text.startsWith("Standup closed")), 30_000);
    expect(
      thread()
        .filter((m) => m.text.startsWith("Standup closed"))
        .map((m) => m.text),
    ).toEqual(["Standup closed: 2/3 answered (67%)"]);
    for (const u of PEOPLE)
      expect(
        dmTexts(u).filter((t) => t.startsWith("Time for standup")),
        u,
      ).toHaveLength(1);
    expect(fake.callsTo("oauth.v2.access")).toEqual([]);
    expect(fake.unexpected).toEqual([]);
    await app.stop();
  });

  it("in production config (NODE_ENV=production, an http://localhost APP_URL) it starts and connects", async () => {
    // A database of its own: the development runs' token is encrypted with their generated session key.
    const prodDatabase = onPostgres ? await freshDatabase() : undefined;
    const url = prodDatabase?.url ?? `pglite://${join(clone, "prod-data")}`;
    app = await start("clone-prod", {
      NODE_ENV: "production",
      APP_URL: "http://localhost:3000",
      SESSION_SECRET_KEY: "clone-session-secret-key-0123456789abcdef",
      DATABASE_URL: url,
    });
    await expect
      .poll(async () => (await fetch(`${app.address}/healthz`)).json(), { timeout: 15_000, interval: 100 })
      .toEqual({ status: "ok", db: "connected", socket: "connected" });
    await app.stop();
    expect(app.child.exitCode).toBe(0);
    await prodDatabase?.close();
  });
});
