import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { startFakeSlack } from "../dev/fake-slack/index.ts";
import { buildApp } from "../src/app.ts";
import { loadConfig } from "../src/config.ts";
import { buildDeps, createLogger } from "../src/deps.ts";
import { loginUrl } from "../src/features/session/index.ts";
import { DEMO_BOT, DEMO_PEOPLE, DEMO_TEAM } from "./people.ts";
import { isSeeded, populateFakeSlack, schedulePulse, seedDemo } from "./seed.ts";
import { MemberSimulator, overSocket, signedHttp } from "./simulate.ts";

/**
 * `npm run demo`: the service on the embedded database in ./data/demo, a simulated Slack workspace on
 * 127.0.0.1, history from a fixed seed, a live standup every few minutes answered by simulated members.
 * `--socket-mode`: the service takes Slack's deliveries over the fake's Socket Mode WebSocket (CHAT_APP_TOKEN), and
 * the simulated members' clicks and messages arrive as envelopes instead of signed HTTP posts.
 */
const DATA_DIR = "./data/demo";
const PULSE_MS = 5 * 60_000;
const ADMIN = DEMO_PEOPLE.find((p) => p.admin)!;
// Demo-only secrets: the simulated Slack signs with the same one. Never use these for a real install.
const SIGNING_SECRET = "demo-signing-secret-not-for-production";
const SESSION_KEY = "demo-session-secret-key-not-for-production-0123456789";

const SOCKET_MODE = process.argv.includes("--socket-mode");
// Any xapp- token opens the fake's socket; a real app-level token comes from the Slack app's Basic Information page.
const APP_TOKEN = "xapp-1-A0FAKEUPBEAT-demo-not-for-production";

if (process.argv.includes("--reset")) rmSync(DATA_DIR, { recursive: true, force: true });

// The dashboard build (when missing or stale) runs beside the database start-up instead of before it.
const webBuild = new Promise<number>((resolve) => {
  const child = spawn(process.execPath, ["scripts/ensure-web-build.mjs"], { stdio: "inherit" });
  child.on("exit", (code) => resolve(code ?? 1));
  child.on("error", () => resolve(1));
});

const fake = await startFakeSlack();
populateFakeSlack(fake);
// /install works in the demo too: the fake's authorize page approves at once, installing Northwind for its admin
// (after an uninstall event, say).
fake.onAuthorize(({ scope }) => ({
  team: { id: DEMO_TEAM.id, name: DEMO_TEAM.name },
  botToken: `${DEMO_BOT.token}-${Date.now()}`,
  botUserId: DEMO_BOT.userId,
  scope,
  authedUserId: ADMIN.id,
}));
const port = Number(process.env.PORT ?? 3000);
const config = loadConfig(
  {
    NODE_ENV: "development",
    PORT: String(port),
    APP_URL: `http://localhost:${port}`,
    DATABASE_URL: `pglite://${DATA_DIR}/pglite`,
    CHAT_API_URL: fake.url,
    CHAT_OAUTH_URL: `${fake.url.replace(/api\/$/, "")}oauth/v2/authorize`,
    CHAT_SIGNING_SECRET: SIGNING_SECRET,
    SESSION_SECRET_KEY: SESSION_KEY,
    CHAT_CLIENT_ID: "demo-client-id",
    CHAT_CLIENT_SECRET: "demo-client-secret",
    LOG_LEVEL: process.env.LOG_LEVEL ?? "WARNING",
    ...(SOCKET_MODE ? { CHAT_APP_TOKEN: APP_TOKEN } : {}),
    // Lets webhooks reach a receiver on this machine (still https only), to try them without a public address.
    ...(process.env.WEBHOOK_ALLOW_PRIVATE ? { WEBHOOK_ALLOW_PRIVATE: process.env.WEBHOOK_ALLOW_PRIVATE } : {}),
  },
  {
    dataDir: DATA_DIR,
    demoSignIn: { teamId: DEMO_TEAM.id, userId: ADMIN.id, name: ADMIN.realName },
  },
);
const log = createLogger(config);
const deps = await buildDeps(config, { log });
if (!(await isSeeded(deps))) await seedDemo(deps);
const app = await buildApp(deps);
await app.start();
await app.server.listen({ port, host: "127.0.0.1" });
if (SOCKET_MODE) await app.socket?.whenConnected();

const simulator = new MemberSimulator(
  fake,
  SOCKET_MODE ? overSocket(fake) : signedHttp(`http://127.0.0.1:${port}`, SIGNING_SECRET),
);
simulator.start();
await schedulePulse(deps);
const pulse = setInterval(() => void schedulePulse(deps).catch(() => {}), PULSE_MS);
pulse.unref();

if ((await webBuild) !== 0) process.stderr.write("demo: the dashboard could not be built; the API still runs.\n");
process.stdout.write(
  `Upbeat demo (${DEMO_TEAM.name}) is running${SOCKET_MODE ? " in Socket Mode" : ""}. Sign in as ${ADMIN.realName}: ${loginUrl(deps, DEMO_TEAM.id, ADMIN.id)}\n` +
    `(a fresh link any time: http://localhost:${port}/demo/sign-in)\n`,
);

const shutdown = () => {
  clearInterval(pulse);
  simulator.stop();
  app
    .stop()
    .then(() => fake.close())
    .finally(() => process.exit(0));
};
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);
