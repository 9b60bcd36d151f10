import type { LightMyRequestResponse } from "fastify";
import pino, { type Logger } from "pino";
import { afterAll } from "vitest";
import { type FakeSlack, startFakeSlack } from "../../dev/fake-slack/index.ts";
import {
  eventEnvelope,
  interactionForm,
  sign,
  slashCommandForm,
  TEST_SIGNING_SECRET,
} from "../../dev/slack-signing.ts";
import { buildApp, type Upbeat } from "../../src/app.ts";
import { upsertInstallation } from "../../src/chat/installations.repo.ts";
import type { SocketOptions } from "../../src/chat/socket/socket-transport.ts";
import { type DemoSignIn, loadConfig } from "../../src/config.ts";
import type { Database } from "../../src/db/client.ts";
import { buildDeps, type Deps } from "../../src/deps.ts";
import { ensureAdmin, upsertPeople } from "../../src/features/members/index.ts";
import { issueLoginToken } from "../../src/features/session/index.ts";
import { ManualClock } from "../../src/lib/clock.ts";
import { encryptSecret } from "../../src/lib/crypto.ts";
import type { Outbound } from "../../src/lib/outbound.ts";
import { type ChatDelivery, httpDelivery, socketDelivery } from "./chat-delivery.ts";
import { freshDatabase } from "./database.ts";

export const APP_URL = "http://localhost:3000";
/** The app token of test apps in Socket Mode (the fake accepts any xapp- token). */
export const TEST_APP_TOKEN = "xapp-1-A0UPBEAT-test";

/**
 * The configuration (as environment variables) of a test app on this database and fake Slack; app processes a test
 * starts (test/support/app-process.ts) use it too, so they read the tokens the test app stored.
 */
export function testEnv(databaseUrl: string, chatApiUrl: string): Record<string, string> {
  return {
    NODE_ENV: "test",
    APP_URL,
    CHAT_CLIENT_ID: "test-client-id",
    CHAT_CLIENT_SECRET: "test-client-secret",
    CHAT_SIGNING_SECRET: TEST_SIGNING_SECRET,
    SESSION_SECRET_KEY: "test-session-secret-key-0123456789abcdef",
    DATABASE_URL: databaseUrl,
    CHAT_API_URL: chatApiUrl,
    CHAT_OAUTH_URL: "http://127.0.0.1:9/oauth/v2/authorize",
    LOG_LEVEL: "WARNING",
  };
}

export interface TestApp {
  app: Upbeat;
  deps: Deps;
  clock: ManualClock;
  fake: FakeSlack;
  database: Database;
  inject: Upbeat["server"]["inject"];
  /**
   * Installs a workspace (database row + fake Slack team) with an admin installer. `scopes` (comma-separated) are
   * what the installation was granted, in the database and at the fake; default chat:write,commands,reactions:write.
   */
  installTeam(
    teamId: string,
    opts?: { name?: string; installer?: string; botToken?: string; scopes?: string },
  ): Promise<void>;
  addMember(
    teamId: string,
    userId: string,
    opts?: { role?: "admin" | "member"; realName?: string; tz?: string; email?: string },
  ): Promise<void>;
  /**
   * A session cookie header value for the user (through the real login-token exchange). Each sign-in comes from
   * its own address, so the per-address sign-in limit never decides a test that is not about it.
   */
  signIn(teamId: string, userId: string): Promise<string>;
  /** Signed POST to /chat/events with an Events API envelope; returns the response. */
  sendEvent(
    teamId: string,
    event: Record<string, unknown>,
    opts?: { eventId?: string; retryNum?: number },
  ): Promise<LightMyRequestResponse>;
  sendCommand(teamId: string, userId: string, text: string): Promise<LightMyRequestResponse>;
  sendInteraction(payload: Record<string, unknown>): Promise<LightMyRequestResponse>;
  /** Events, commands and interactions over the app's transport (`transport`): the same test runs on either. */
  deliver: ChatDelivery;
  close(): Promise<void>;
}

export interface TestAppOptions {
  clock?: ManualClock;
  fake?: FakeSlack;
  database?: Database;
  env?: Record<string, string>;
  /** Queue workers off (default): tests drain jobs with deps.queue.drain(). */
  workers?: boolean;
  logLevel?: string;
  /** A logger of the test's own (to read what the service logs). */
  log?: Logger;
  /** Name resolution and plain-http allowance for webhook targets (a rebinding DNS, a local receiver). */
  outbound?: Partial<Outbound>;
  /** Run as the demo does: `GET /demo/sign-in` signs in as this member. */
  demoSignIn?: DemoSignIn;
  /** "socket": CHAT_APP_TOKEN is set, the app connects to the fake's socket (awaited), and `deliver` uses it. */
  transport?: "http" | "socket";
  /** Reconnect timings and the like of the Socket Mode transport. */
  socket?: SocketOptions;
}

export async function createTestApp(opts: TestAppOptions = {}): Promise<TestApp> {
  const clock = opts.clock ?? new ManualClock("2026-03-02T14:00:00Z");
  const fake = opts.fake ?? (await startFakeSlack());
  const ownFake = !opts.fake;
  const database = opts.database ?? (await freshDatabase());
  const config = loadConfig(
    {
      ...testEnv(database.url.startsWith("pglite") ? "pglite://memory" : database.url, fake.url),
      ...(opts.transport === "socket" ? { CHAT_APP_TOKEN: TEST_APP_TOKEN } : {}),
      ...opts.env,
    },
    opts.demoSignIn ? { demoSignIn: opts.demoSignIn } : {},
  );
  const log = opts.log ?? pino({ level: opts.logLevel ?? process.env.TEST_LOG_LEVEL ?? "silent" });
  const deps = await buildDeps(config, {
    clock,
    log,
    database,
    migrate: false,
    queue: { workers: opts.workers ?? false, retryDelaySeconds: 0 },
    ...(opts.outbound ? { outbound: opts.outbound } : {}),
  });
  const app = await buildApp(deps, opts.socket ? { socket: opts.socket } : {});
  await app.start();
  await app.server.ready();
  if (opts.transport === "socket") await app.socket?.whenConnected();

  let signIns = 0;
  const t: TestApp = {
    app,
    deps,
    clock,
    fake,
    database,
    inject: app.server.inject.bind(app.server),
    async installTeam(teamId, o = {}) {
      const botToken = o.botToken ?? `xoxb-${teamId.toLowerCase()}-token`;
      const installer = o.installer ?? `U${teamId.slice(1)}ADMIN`;
      fake.addTeam({
        id: teamId,
        name: o.name ?? `Team ${teamId}`,
        botToken,
        botUserId: `B${teamId.slice(1)}BOT`,
        ...(o.scopes !== undefined ? { scopes: o.scopes } : {}),
      });
      await upsertInstallation(
        deps.db,
        {
          teamId,
          teamName: o.name ?? `Team ${teamId}`,
          botUserId: `B${teamId.slice(1)}BOT`,
          botTokenEnc: encryptSecret(deps.keys.tokenEncryption, botToken),
          scopes: o.scopes ?? "chat:write,commands,reactions:write",
          installerUserId: installer,
        },
        clock.now(),
      );
      deps.chat.forget(teamId);
      await ensureAdmin(deps.db, teamId, installer, clock.now());
    },
    async addMember(teamId, userId, o = {}) {
      await upsertPeople(
        deps.db,
        teamId,
        [
          {
            userId,
            realName: o.realName ?? `Person ${userId}`,
            displayName: userId.toLowerCase(),
            email: o.email ?? `${userId.toLowerCase()}@example.com`,
            tz: o.tz ?? "UTC",
            active: true,
            slackAdmin: o.role === "admin",
          },
        ],
        clock.now(),
      );
    },
    async signIn(teamId, userId) {
      const token = issueLoginToken(deps, teamId, userId);
      signIns += 1;
      const res = await app.server.inject({
        method: "GET",
        url: `/dashboard/login?t=${encodeURIComponent(token)}`,
        remoteAddress: `10.250.${signIns >> 8}.${signIns & 255}`,
      });
      const cookie = [res.headers["set-cookie"]].flat().find((c) => c?.startsWith("svc_session="));
      if (res.statusCode !== 302 || !cookie) throw new Error(`sign-in failed: ${res.statusCode} ${res.body}`);
      return cookie.split(";")[0]!;
    },
    async sendEvent(teamId, event, o = {}) {
      const body = JSON.stringify(eventEnvelope(teamId, event, o.eventId ? { eventId: o.eventId } : {}));
      const s = sign(body, {
        nowMs: clock.now().getTime(),
        ...(o.retryNum !== undefined ? { retryNum: o.retryNum } : {}),
      });
      return app.server.inject({ method: "POST", url: "/chat/events", headers: s.headers, payload: s.payload });
    },
    async sendCommand(teamId, userId, text) {
      const s = sign(slashCommandForm(teamId, userId, text), {
        nowMs: clock.now().getTime(),
        contentType: "application/x-www-form-urlencoded",
      });
      return app.server.inject({ method: "POST", url: "/chat/events", headers: s.headers, payload: s.payload });
    },
    async sendInteraction(payload) {
      const s = sign(interactionForm(payload), {
        nowMs: clock.now().getTime(),
        contentType: "application/x-www-form-urlencoded",
      });
      return app.server.inject({ method: "POST", url: "/chat/interactions", headers: s.headers, payload: s.payload });
    },
    deliver:
      opts.transport === "socket"
        ? socketDelivery(fake)
        : httpDelivery({
            sendEvent: (teamId, event, o) => t.sendEvent(teamId, event, o),
            sendCommand: (teamId, userId, text) => t.sendCommand(teamId, userId, text),
            sendInteraction: (payload) => t.sendInteraction(payload),
          }),
    async close() {
      await app.stop();
      if (ownFake) await fake.close();
    },
  };
  return t;
}

/** createTestApp for a whole file, closed after it. */
export async function useTestApp(opts: TestAppOptions = {}): Promise<TestApp> {
  const t = await createTestApp(opts);
  afterAll(() => t.close());
  return t;
}
