import { mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { type FakeSlack, startFakeSlack } from "../dev/fake-slack/index.ts";
import { testEnv } from "../test/support/app.ts";
import { type AppProcess, startAppProcess } from "../test/support/app-process.ts";
import { freshDatabase, onPostgres } from "../test/support/database.ts";
import { installCookieOf } from "../test/support/oauth.ts";
import { type Database, openDatabase, rows } from "./db/client.ts";

/** The promise of the issue: SIGTERM drains requests and jobs and the process exits 0 within this long. */
const SHUTDOWN_LIMIT_MS = 10_000;

/** Resolves with the error code of a fresh TCP connection to `port` ("connected" when the server accepted it). */
function tryConnect(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve("connected");
    });
    socket.once("error", (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
  });
}

async function waitUntil(what: string, predicate: () => boolean, proc: AppProcess, ms = 15_000): Promise<void> {
  const until = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}\n${proc.tail(25)}`);
    await sleep(10);
  }
}

interface Instance {
  fake: FakeSlack;
  proc: AppProcess;
  url: string;
  base: string;
  port: number;
  /** Opens the instance's database in the test (on PGlite only once the process has exited). */
  openDb(): Promise<Database>;
  /** GET /install, then GET /oauth/callback with `code` and the signed state. */
  install(code: string): Promise<Response>;
  cleanup(): Promise<void>;
}

/**
 * A real instance (src/main.ts in a child process, production queue settings) on a fresh database, with two Slack
 * workspaces ready to install (codes code-drain-1 and code-drain-2, two people each) at the fake Slack.
 */
async function startInstance(): Promise<Instance> {
  const fake = await startFakeSlack();
  for (const [team, code] of [
    ["T0DRAIN1", "code-drain-1"],
    ["T0DRAIN2", "code-drain-2"],
  ] as const) {
    fake.addTeam({ id: team, name: `Drain ${team}`, botToken: `xoxb-${team}`, botUserId: `U${team}BOT` });
    fake.addUser(team, { id: `U${team}A`, name: "ada", real_name: "Ada Admin", tz: "UTC" });
    fake.addUser(team, { id: `U${team}B`, name: "bo", real_name: "Bo Member", tz: "UTC" });
    fake.setOAuthCode(code, {
      team: { id: team, name: `Drain ${team}` },
      botToken: `xoxb-${team}`,
      botUserId: `U${team}BOT`,
      scope: "chat:write,commands,users:read,users:read.email,team:read",
      authedUserId: `U${team}A`,
      clientId: "test-client-id",
      clientSecret: "test-client-secret",
    });
  }
  let database: Database | undefined;
  let dir: string | undefined;
  let url: string;
  if (onPostgres) {
    database = await freshDatabase();
    url = database.url;
  } else {
    // PGlite belongs to one process: the child migrates a fresh directory, the test opens it after the exit.
    dir = mkdtempSync(join(tmpdir(), "upbeat-shutdown-"));
    url = `pglite://${dir}`;
  }
  const proc = await startAppProcess("drain", { ...testEnv(url, fake.url), LOG_LEVEL: "INFO" }, 60_000);
  const base = proc.address;
  return {
    fake,
    proc,
    url,
    base,
    port: Number(new URL(base).port),
    openDb: async () => database ?? (await openDatabase(url)),
    async install(code) {
      // As a browser: the callback carries back the cookie /install set (the state is bound to it).
      const start = await fetch(`${base}/install`, { redirect: "manual" });
      const state = new URL(String(start.headers.get("location"))).searchParams.get("state");
      const cookie = installCookieOf(start.headers.getSetCookie());
      return fetch(`${base}/oauth/callback?code=${code}&state=${state}`, { redirect: "manual", headers: { cookie } });
    },
    async cleanup() {
      await proc.stop(1_000);
      await database?.close();
      await fake.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Sends SIGTERM; resolves with the exit code and how long after the signal the process exited. */
function terminate(proc: AppProcess): { sentAt: number; exited: Promise<{ code: number | null; ms: number }> } {
  const sentAt = Date.now();
  const exited = new Promise<{ code: number | null; ms: number }>((resolve) => {
    proc.child.once("exit", (code) => resolve({ code, ms: Date.now() - sentAt }));
  });
  proc.child.kill("SIGTERM");
  return { sentAt, exited };
}

async function jobStates(db: Database): Promise<Record<string, string>> {
  const found = await rows<{ team: string; state: string }>(
    db.db,
    sql`select data->>'teamId' as team, state from pgboss.job where name = 'members.sync'`,
  );
  return Object.fromEntries(found.map((j) => [j.team, j.state]));
}

describe(`graceful shutdown on SIGTERM (${onPostgres ? "PostgreSQL" : "PGlite in a directory"})`, () => {
  const started: Instance[] = [];
  afterAll(async () => {
    for (const i of started) await i.cleanup();
  });

  /**
   * An HTTP request and a job in flight at SIGTERM, each waiting on a slow Slack: the OAuth callback of a second
   * install (oauth.v2.access answers after 2.5 s) and the member sync job the first install queued (users.list answers
   * after 3 s). New connections are refused at once, the request gets its usual answer, the job finishes, the
   * database is closed, the process exits 0.
   */
  it("finishes the in-flight request and job, refuses new connections and exits 0 within 10 s", async () => {
    const i = await startInstance();
    started.push(i);
    const { fake: f, proc: p } = i;

    // The first install queues T0DRAIN1's member sync; its users.list waits 3 s at Slack.
    f.fail("users.list", { delayMs: 3_000 });
    const first = await i.install("code-drain-1");
    expect(first.status, p.tail()).toBe(302);
    await waitUntil("the member sync job to call users.list", () => f.arrived("users.list") === 1, p);

    // The second install's callback waits 2.5 s for oauth.v2.access.
    f.fail("oauth.v2.access", { delayMs: 2_500 });
    let answered = false;
    const second = i.install("code-drain-2").then((res) => {
      answered = true;
      return res;
    });
    await waitUntil("the callback to call oauth.v2.access", () => f.arrived("oauth.v2.access") === 2, p);
    expect(f.callsTo("users.list")).toHaveLength(0); // the job is still waiting on Slack
    expect(answered).toBe(false);

    const { sentAt, exited } = terminate(p);

    // New connections are refused while the request is still being answered.
    let refused = "";
    while (Date.now() - sentAt < 2_000) {
      refused = await tryConnect(i.port);
      if (refused !== "connected") break;
      await sleep(20);
    }
    expect(refused).toBe("ECONNREFUSED");
    expect(answered, "the in-flight request was still running when new connections were refused").toBe(false);

    // The in-flight request gets its normal answer: signed in on the dashboard.
    const res = await second;
    expect(res.status, p.tail()).toBe(302);
    expect(res.headers.get("location")).toMatch(/^\/dashboard\?t=/);

    const { code, ms } = await exited;
    expect(code, p.tail(25)).toBe(0);
    expect(ms).toBeLessThan(SHUTDOWN_LIMIT_MS);
    expect(
      p.lines.some((l) => l.includes('"msg":"stopped"')),
      p.tail(25),
    ).toBe(true);

    // The job finished during the drain: Slack answered users.list, the members are stored, the job is completed.
    expect(f.callsTo("users.list").filter((c) => c.ok && c.teamId === "T0DRAIN1")).toHaveLength(1);
    expect(p.lines.some((l) => l.includes("members synced") && l.includes("T0DRAIN1"))).toBe(true);
    // After the exit the database opens again (on PGlite this also shows it was closed cleanly).
    const db = await i.openDb();
    try {
      const states = await jobStates(db);
      expect(states.T0DRAIN1).toBe("completed");
      // The second install's sync was queued during the drain: done, or left queued for the next start; never
      // stuck as active.
      expect(["completed", "created", "retry"]).toContain(states.T0DRAIN2);
      const members = await rows<{ n: number }>(
        db.db,
        sql`select count(*)::int as n from members where team_id = 'T0DRAIN1'`,
      );
      expect(members[0]?.n).toBe(2);
    } finally {
      if (!onPostgres) await db.close();
    }
  }, 120_000);

  /**
   * Work that would outlast the budget: a request and a job each waiting 30 s on Slack. The request's connection is
   * closed after the drain time, the job is marked for a retry (not left active), and the process still exits 0
   * within 10 s.
   */
  it("cuts off what outlasts the budget: the request's connection closes, the job is left for a retry", async () => {
    const i = await startInstance();
    started.push(i);
    const { fake: f, proc: p } = i;
    f.fail("users.list", { delayMs: 30_000 });
    expect((await i.install("code-drain-1")).status, p.tail()).toBe(302);
    await waitUntil("the member sync job to call users.list", () => f.arrived("users.list") === 1, p);
    f.fail("oauth.v2.access", { delayMs: 30_000 });
    const second = i.install("code-drain-2").then(
      (res) => `answered ${res.status}`,
      (err: Error) => `failed: ${err.message}`,
    );
    await waitUntil("the callback to call oauth.v2.access", () => f.arrived("oauth.v2.access") === 2, p);

    const { exited } = terminate(p);
    const { code, ms } = await exited;
    expect(code, p.tail(25)).toBe(0);
    expect(ms).toBeLessThan(SHUTDOWN_LIMIT_MS);
    expect(await second).toBe("failed: fetch failed");

    const db = await i.openDb();
    try {
      expect((await jobStates(db)).T0DRAIN1).toBe("retry");
    } finally {
      if (!onPostgres) await db.close();
    }
  }, 120_000);
});
