import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { startFakeSlack } from "../dev/fake-slack/index.ts";
import { buildApp } from "../src/app.ts";
import { loadConfig } from "../src/config.ts";
import { buildDeps, createLogger } from "../src/deps.ts";
import { loginUrl } from "../src/features/session/index.ts";
import { ADMIN, DEMO_BOT, DEMO_TEAM, MEMBER } from "./people.ts";
import { startDemoReceiver } from "./receiver.ts";
import { populateFakeSlack, seedDemo } from "./seed.ts";
import { giveTodaysKudos, openTodaysRuns, seedRuleAndWebhook } from "./seed-live.ts";
import { MemberSimulator, overSocket, signedHttp } from "./simulate.ts";

/**
 * `npm run demo`: the service on the embedded database in ./data/demo, a simulated Slack workspace on
 * 127.0.0.1, two teams' standups with weeks of history from a fixed seed, run by the scheduler and answered by
 * simulated members, and a webhook receiver on 127.0.0.1 the demo's webhook delivers to.
 * `--socket-mode`: the service takes Slack's deliveries over the fake's Socket Mode WebSocket (CHAT_APP_TOKEN), and
 * the simulated members' clicks and messages arrive as envelopes instead of signed HTTP posts.
 */
const DATA_DIR = "./data/demo";
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
// A fixed port next to the app's, so the endpoint stored at the first start still reaches it at the next.
const receiver = await startDemoReceiver(port + 1);
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
    // The documented way to let webhooks reach a receiver on this machine: the demo's own receiver is on 127.0.0.1.
    WEBHOOK_ALLOW_PRIVATE: "true",
  },
  {
    dataDir: DATA_DIR,
    demoSignIn: {
      teamId: DEMO_TEAM.id,
      userId: ADMIN.id,
      name: ADMIN.realName,
      member: { userId: MEMBER.id, name: MEMBER.realName },
    },
  },
);
const log = createLogger(config);
// Plain http to the demo's receiver (the way tests reach theirs): the demo has no certificate to offer over TLS.
const deps = await buildDeps(config, { log, outbound: { allowPlainHttp: true } });
await seedDemo(deps);
const app = await buildApp(deps);
await seedRuleAndWebhook(deps, receiver.url);
await app.start();
await giveTodaysKudos(deps);
await openTodaysRuns(deps);
await app.server.listen({ port, host: "127.0.0.1" });
if (SOCKET_MODE) await app.socket?.whenConnected();

const simulator = new MemberSimulator(
  fake,
  SOCKET_MODE ? overSocket(fake) : signedHttp(`http://127.0.0.1:${port}`, SIGNING_SECRET),
);
simulator.start();

if ((await webBuild) !== 0) process.stderr.write("demo: the dashboard could not be built; the API still runs.\n");
process.stdout.write(
  `Upbeat demo (${DEMO_TEAM.name}) is running${SOCKET_MODE ? " in Socket Mode" : ""}. Sign in as ${ADMIN.realName}: ${loginUrl(deps, DEMO_TEAM.id, ADMIN.id)}\n` +
    `(fresh links any time: the admin http://localhost:${port}/demo/sign-in, a member http://localhost:${port}/demo/sign-in?as=member)\n`,
);

const shutdown = () => {
  simulator.stop();
  app
    .stop()
    .then(() => Promise.all([fake.close(), receiver.close()]))
    .finally(() => process.exit(0));
};
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);
