import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { TEST_SIGNING_SECRET } from "../dev/slack-signing.ts";
import { rows } from "../src/db/client.ts";
import { createLogger } from "../src/deps.ts";
import { BOT_SCOPES } from "../src/features/install/index.ts";
import { tick } from "../src/features/standups/index.ts";
import { useTestApp } from "./support/app.ts";
import { createSchedule } from "./support/factories.ts";
import { finishOAuth, startOAuth } from "./support/oauth.ts";

/**
 * Issue 10: at LOG_LEVEL=DEBUG, whatever reaches the log (pino's destination, and anything written to the
 * console or stdout/stderr, where Slack's libraries log by default) holds no secret and no answer text.
 */

const TEAM = "T0LOGS";
const ADMIN = "U0LOGADMIN";
const BEN = "U0LOGBEN";
const BOT_USER = "B0LOGSBOT";
const BOT_TOKEN = "xoxb-T0LOGS-9f8e7d6c5b4a-secret-bot-token";
const CLIENT_SECRET = "test-client-secret";
const SESSION_SECRET_KEY = "test-session-secret-key-0123456789abcdef";
const OAUTH_CODE = "oauth-code-logs-5521";
const CHANNEL = "C0LOGS";
const DM_ANSWERS = [
  "Quokkadm polished the zanzibar gateway",
  "Quokkadm tunes marzipan caches",
  "Quokkadm waits on vellum",
];
const MODAL_ANSWERS = [
  "Ocelotmodal rewired the tangerine",
  "Ocelotmodal drafts porcupine docs",
  "none at all ocelotmodal",
];
const MCP_QUERY = "ocelotmodal";

/** Every write to the console and to process.stdout/stderr while the file runs, kept instead of printed. */
function captureConsole(): { text: () => string; restore: () => void } {
  const seen: string[] = [];
  const methods = ["log", "info", "warn", "error", "debug", "trace"] as const;
  const saved = methods.map((m) => [m, console[m]] as const);
  for (const m of methods) {
    console[m] = (...args: unknown[]) => {
      seen.push(args.map((a) => (typeof a === "string" ? a : (JSON.stringify(a) ?? String(a)))).join(" "));
    };
  }
  const writes = [process.stdout, process.stderr].map((stream) => {
    const original = stream.write;
    stream.write = ((chunk: unknown, ...rest: unknown[]) => {
      seen.push(String(chunk));
      const done = rest.find((r) => typeof r === "function") as (() => void) | undefined;
      done?.();
      return true;
    }) as typeof stream.write;
    return () => {
      stream.write = original;
    };
  });
  return {
    text: () => seen.join("\n"),
    restore: () => {
      for (const [m, fn] of saved) console[m] = fn;
      for (const restore of writes) restore();
    },
  };
}

describe("logs at DEBUG carry no secrets and no answer text", async () => {
  const consoleOut = captureConsole();
  afterAll(() => consoleOut.restore());
  const lines: string[] = [];
  const log = createLogger({ logLevel: "debug" }, { write: (line: string) => void lines.push(line) });
  const t = await useTestApp({ env: { LOG_LEVEL: "DEBUG", CHAT_CLIENT_SECRET: CLIENT_SECRET }, log });
  t.clock.set("2026-03-02T08:50:00Z"); // a Monday

  const secrets = new Map<string, string>([
    ["bot token", BOT_TOKEN],
    ["signing secret", TEST_SIGNING_SECRET],
    ["client secret", CLIENT_SECRET],
    ["session secret key", SESSION_SECRET_KEY],
    ["OAuth code", OAUTH_CODE],
    ...DM_ANSWERS.map((a, i) => [`DM answer ${i}`, a] as [string, string]),
    ...MODAL_ANSWERS.map((a, i) => [`modal answer ${i}`, a] as [string, string]),
    ["MCP search text", MCP_QUERY],
  ]);
  let adminCookie = "";
  let runId = 0;
  const dm = (user: string) => t.fake.dmFor(TEAM, user);
  const postsTo = (channel: string) =>
    t.fake.callsTo("chat.postMessage").filter((c) => c.ok && c.args.channel === channel);
  /** Login tokens (`?t=`) in any text: a redirect, an ephemeral answer, a recorded Slack call. */
  const keepLoginTokens = (where: string, text: string) => {
    for (const m of text.matchAll(/[?&]t=([^"&\s\\]+)/g))
      secrets.set(`login token in ${where}`, decodeURIComponent(m[1]!));
  };

  t.fake.addTeam({ id: TEAM, name: "Log Co", botToken: BOT_TOKEN, botUserId: BOT_USER });
  t.fake.addUser(TEAM, { id: ADMIN, name: "ada", real_name: "Ada Admin", tz: "UTC" });
  t.fake.addUser(TEAM, { id: BEN, name: "ben", real_name: "Ben Member", tz: "UTC" });
  t.fake.addChannel(TEAM, { id: CHANNEL, name: "standup", members: [ADMIN, BEN, BOT_USER] });

  it("installs through OAuth and signs the installer in", async () => {
    t.fake.setOAuthCode(OAUTH_CODE, {
      team: { id: TEAM, name: "Log Co" },
      botToken: BOT_TOKEN,
      botUserId: BOT_USER,
      scope: BOT_SCOPES.join(","),
      authedUserId: ADMIN,
      clientId: "test-client-id",
      clientSecret: CLIENT_SECRET,
    });
    const start = await startOAuth(t);
    secrets.set("OAuth state", start.state);
    secrets.set("install cookie", start.cookie.split("=")[1]!);
    const cb = await finishOAuth(t, start, `code=${OAUTH_CODE}`);
    expect(cb.statusCode).toBe(302);
    const location = String(cb.headers.location);
    keepLoginTokens("install redirect", location);
    await t.deps.queue.drain();
    const login = await t.inject({ method: "GET", url: location });
    expect(login.statusCode).toBe(302);
    adminCookie = String([login.headers["set-cookie"]].flat()[0]).split(";")[0]!;
    secrets.set("session cookie", adminCookie.split("=")[1]!);
    expect(t.fake.callsTo("oauth.v2.access").filter((c) => c.ok)).toHaveLength(1);
    expect(t.fake.callsTo("users.list").length).toBeGreaterThan(0);
  });

  it("publishes App Home with the dashboard link", async () => {
    await t.sendEvent(TEAM, { type: "app_home_opened", user: ADMIN, channel: "D0X", tab: "home" });
    await t.fake.waitFor((calls) => calls.some((c) => c.method === "views.publish" && c.ok));
    expect(JSON.stringify(t.fake.callsTo("views.publish").at(-1)!.args.view)).toMatch(/dashboard\/login\?t=/);
  });

  it("answers the slash command with an ephemeral Open dashboard link", async () => {
    const res = await t.sendCommand(TEAM, ADMIN, "");
    expect(res.statusCode).toBe(200);
    expect(res.body).toMatch(/dashboard\/login\?t=/);
    keepLoginTokens("slash command answer", res.body);
  });

  it("runs a standup: asks by DM, takes answers in the DM and in the modal, posts them", async () => {
    await createSchedule(t.deps.db, t.clock, { teamId: TEAM, channelId: CHANNEL, time: "09:00", tz: "UTC" });
    t.clock.set("2026-03-02T09:00:10Z");
    const started = (await tick(t.deps)).started;
    expect(started).toHaveLength(1);
    runId = started[0]!;
    await t.deps.queue.drain();
    expect(postsTo(dm(BEN))).toHaveLength(1);

    for (const [n, text] of DM_ANSWERS.entries()) {
      await t.sendEvent(TEAM, {
        type: "message",
        channel_type: "im",
        channel: dm(BEN),
        user: BEN,
        text,
        ts: `1772442000.00${n + 1}`,
      });
      if (n < DM_ANSWERS.length - 1) await t.fake.waitFor(() => postsTo(dm(BEN)).length === n + 2);
    }
    const answersOf = async (user: string) =>
      (await rows<{ answers: string[] }>(t.deps.db, sql`select answers from responses where user_id = ${user}`))[0]
        ?.answers;
    await expect.poll(() => answersOf(BEN)).toEqual(DM_ANSWERS);

    const res = await t.sendInteraction({
      type: "view_submission",
      team: { id: TEAM, domain: "logs" },
      user: { id: ADMIN, team_id: TEAM },
      api_app_id: "A0UPBEAT",
      token: "legacy",
      trigger_id: "trigger.logs",
      view: {
        id: "V0LOGS",
        type: "modal",
        team_id: TEAM,
        callback_id: "standup_modal",
        private_metadata: JSON.stringify({ runId }),
        state: {
          values: {
            ...Object.fromEntries(
              MODAL_ANSWERS.map((a, i) => [`q${i}`, { answer: { type: "plain_text_input", value: a } }]),
            ),
            mood: { mood: { type: "static_select", selected_option: null } },
          },
        },
      },
    });
    expect(res.statusCode).toBe(200);
    await t.deps.queue.drain();
    const posted = JSON.stringify(t.fake.messages(CHANNEL));
    for (const answer of [...DM_ANSWERS, ...MODAL_ANSWERS]) expect(posted).toContain(answer);
  });

  it("serves an MCP search with a bearer svc_ key, and the public feed", async () => {
    const created = await t.inject({
      method: "POST",
      url: "/dashboard/api/mcp/keys",
      headers: { cookie: adminCookie, "content-type": "application/json" },
      payload: JSON.stringify({ name: "log probe" }),
    });
    expect(created.statusCode).toBe(201);
    const key = created.json<{ key: string }>().key;
    secrets.set("MCP key", key);
    await t.app.server.listen({ port: 0, host: "127.0.0.1" });
    const address = t.app.server.server.address();
    const port = typeof address === "object" && address ? address.port : 0;
    const res = await fetch(`http://127.0.0.1:${port}/mcp`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${key}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-06-18",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "search_standups", arguments: { query: MCP_QUERY } },
      }),
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("Ocelotmodal");

    const feed = await t.inject({ method: "POST", url: "/dashboard/api/feed-token", headers: { cookie: adminCookie } });
    expect(feed.statusCode).toBe(200);
    const feedToken = feed.json<{ token: string }>().token;
    secrets.set("feed token", feedToken);
    expect((await t.inject({ method: "GET", url: `/feed/${feedToken}` })).statusCode).toBe(200);
  });

  it("no secret, login token or answer text reaches the log or the console, and Slack's debug lines do", async () => {
    await t.deps.queue.drain();
    for (const call of t.fake.calls) {
      if (call.token) secrets.set(`token of ${call.method}`, call.token);
      keepLoginTokens(call.method, JSON.stringify(call.args));
    }
    expect([...secrets.keys()].filter((k) => k.startsWith("login token")).length).toBeGreaterThanOrEqual(3);

    const logged = lines.join("");
    const printed = consoleOut.text();
    const leaks = [...secrets].flatMap(([what, value]) => [
      ...(logged.includes(value) ? [`${what} in the log`] : []),
      ...(printed.includes(value) ? [`${what} on the console`] : []),
    ]);
    expect(leaks).toEqual([]);

    // The bridge works at DEBUG: Bolt's and our own clients' lines arrive in pino, reduced.
    const entries = lines.map((l) => JSON.parse(l) as { level: number; component?: string; msg: string });
    const debugOf = (component: string) =>
      entries.filter((e) => e.level === 20 && e.component === component).map((e) => e.msg);
    expect(debugOf("bolt")).toContain("apiCall('views.publish') start");
    expect(debugOf("slack-web-api")).toContain("apiCall('oauth.v2.access') start");
    expect(debugOf("slack-web-api")).toContain("apiCall('chat.postMessage') start");
    expect(debugOf("slack-web-api")).toContain("http request result: ok");
    expect(logged).not.toMatch(/http request (body|headers|url)/);
    // Nothing of Slack's went to the console by itself.
    expect(printed).not.toMatch(/web-api:|bolt-app|apiCall|http request/);
  });
});
