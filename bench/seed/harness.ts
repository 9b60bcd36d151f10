/**
 * Shared plumbing for bench/insights, bench/export and bench/soak: throwaway databases on the server named by
 * BENCH_DATABASE_URL / TEST_DATABASE_URL, the real app as a child process (optionally pinned to one CPU),
 * signing in through a login token, /proc readings, cleanup on error and on signals, and tables.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { appendFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { openDatabase } from "../../src/db/client.ts";
import { runMigrations } from "../../src/db/migrate.ts";
import { insertSession, issueLoginToken } from "../../src/features/session/index.ts";
import { SESSION_TTL_MS } from "../../src/http/auth.ts";
import { systemClock } from "../../src/lib/clock.ts";
import { deriveKey, randomToken, sha256Hex } from "../../src/lib/crypto.ts";
import { askChild } from "../lib/child.ts";
import { type Pinning, pinning } from "../lib/pinning.ts";
import { cpuMs, procStatusKb } from "../lib/proc.ts";

/** Bench-only secret: the app child is started with it, so the runner can mint login tokens. */
export const BENCH_SESSION_SECRET_KEY = "bench-insights-session-secret-0123456789abcdef";
export const BENCH_SIGNING_SECRET = "bench-insights-signing-secret-0123456789";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const TSX_LOADER = import.meta.resolve("tsx");
const START_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 15_000;

export function benchBaseUrl(): string {
  const url = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;
  if (!url) {
    throw new Error(
      "set BENCH_DATABASE_URL or TEST_DATABASE_URL to a PostgreSQL server (or run under `CI_ONLY_DB=1 bash .ci/run …`)",
    );
  }
  if (!/^postgres(ql)?:\/\//.test(url)) throw new Error("the bench database URL must be postgres://…");
  return url;
}

// ---------------------------------------------------------------------------------------------- cleanup

const cleanups: (() => Promise<void>)[] = [];
/** Runs on normal exit of main (call runCleanups), on error and on SIGINT/SIGTERM/SIGHUP. Last in, first out. */
export function onCleanup(fn: () => Promise<void>): void {
  cleanups.push(fn);
}
let cleaning: Promise<void> | undefined;
/** Idempotent: a signal and a failing main may both ask; both wait for the same run. */
export function runCleanups(): Promise<void> {
  cleaning ??= (async () => {
    while (cleanups.length > 0) {
      const fn = cleanups.pop()!;
      await fn().catch((err: unknown) => process.stderr.write(`cleanup: ${String(err)}\n`));
    }
  })();
  return cleaning;
}
const children = new Set<ChildProcess>();
process.on("exit", () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
});
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.on(signal, () => {
    process.stderr.write(`\n${signal}: cleaning up\n`);
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
    const hard = setTimeout(() => process.exit(130), 20_000);
    runCleanups().finally(() => {
      clearTimeout(hard);
      process.exit(130);
    });
  });
}

/** Runs main, then the cleanups (also when main throws); exits with main's code, or 1 on an error. */
export function runMain(main: () => Promise<number>, name: string): void {
  main()
    .then(
      async (code) => {
        await runCleanups();
        process.exit(code);
      },
      async (err: unknown) => {
        process.stderr.write(`${name} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
        await runCleanups();
        process.exit(1);
      },
    )
    .catch(() => process.exit(1));
}

// ---------------------------------------------------------------------------------------------- databases

async function withAdmin<T>(baseUrl: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: baseUrl });
  // A server-side termination (e.g. the cleanup's drop … with (force)) must not crash the process.
  client.on("error", () => {});
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => {});
  }
}

/** Creates a database next to the one in baseUrl and registers its drop as a cleanup; returns its URL. */
/** Applies every migration to the database at `url` (a server database or a `pglite://` directory), then closes it. */
export async function migrateDatabaseAt(url: string): Promise<void> {
  const database = await openDatabase(url, { poolMax: 1 });
  try {
    await runMigrations(database);
  } finally {
    await database.close();
  }
}

export async function createBenchDatabase(baseUrl: string, name: string): Promise<string> {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`bad database name ${name}`);
  await withAdmin(baseUrl, async (c) => {
    await c.query(`drop database if exists ${name} with (force)`);
    await c.query(`create database ${name}`);
  });
  onCleanup(async () => {
    await withAdmin(baseUrl, (c) => c.query(`drop database if exists ${name} with (force)`));
    process.stdout.write(`dropped database ${name}\n`);
  });
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

// ---------------------------------------------------------------------------------------------- pinning

/** Re-exported for the insight and export runners, which import their harness from here. */
export { type Pinning, pinning };

/** `command args` pinned to cpu when pinning is on (taskset execs, so the pid is the command's). */
export function spawnPinned(
  pin: Pinning,
  command: string,
  args: string[],
  opts: Parameters<typeof spawn>[2],
): ChildProcess {
  const child = pin.pin ? spawn("taskset", ["-c", pin.serverCpu, command, ...args], opts) : spawn(command, args, opts);
  children.add(child);
  child.once("exit", () => children.delete(child));
  return child;
}

// ---------------------------------------------------------------------------------------------- the app

export interface AppChild {
  readonly child: ChildProcess;
  readonly pid: number;
  readonly port: number;
  readonly tail: string[];
  /** Error lines the app logged (pino level ≥ 50), by message and innermost cause. */
  readonly errors: Map<string, number>;
  stop(): Promise<void>;
}

/** "msg: innermost error message" of a pino JSON line. */
function errorSummary(line: string): string {
  try {
    const entry = JSON.parse(line) as { msg?: string; err?: unknown };
    let e: unknown = entry.err;
    let message = typeof e === "string" ? e : "";
    while (e && typeof e === "object") {
      const o = e as { message?: unknown; cause?: unknown; stack?: unknown };
      if (typeof o.message === "string") message = o.message.split("\n")[0]!.slice(0, 70);
      // pino's serializer appends the causes to the stack: "caused by: Error: …".
      const caused = typeof o.stack === "string" ? /.*caused by: (.*)/.exec(o.stack) : null;
      if (caused) message += ` … caused by: ${caused[1]!.slice(0, 120)}`;
      e = o.cause;
    }
    return `${entry.msg ?? "error"}: ${message}`;
  } catch {
    return line.slice(0, 200);
  }
}

/**
 * The real app on databaseUrl, as a child; resolves once it prints `ready <port>`. The script is
 * bench/seed/app-server.ts (workers off) unless opts.script names another (bench/soak/instance.ts);
 * opts.onLine sees every line the child writes to stdout or stderr.
 */
export function startApp(
  databaseUrl: string,
  pin: Pinning,
  opts: { env?: NodeJS.ProcessEnv; nodeArgs?: string[]; script?: string; onLine?: (line: string) => void } = {},
): Promise<AppChild> {
  const script = opts.script ?? fileURLToPath(new URL("./app-server.ts", import.meta.url));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    APP_URL: "https://upbeat.example.test",
    HOST: "127.0.0.1",
    PORT: "0",
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: "WARNING",
    CHAT_CLIENT_ID: "bench-client-id",
    CHAT_CLIENT_SECRET: "bench-client-secret",
    CHAT_SIGNING_SECRET: BENCH_SIGNING_SECRET,
    SESSION_SECRET_KEY: BENCH_SESSION_SECRET_KEY,
    CHAT_API_URL: "http://127.0.0.1:9/api/",
    CHAT_OAUTH_URL: "http://127.0.0.1:9/oauth/v2/authorize",
    ...opts.env,
  };
  const logFile = process.env.BENCH_APP_LOG;
  // Diagnostics: node flags for the app only (BENCH_APP_NODE_ARGS="--trace-gc"), a file that gets all its output.
  const nodeArgs = [...(opts.nodeArgs ?? []), ...(process.env.BENCH_APP_NODE_ARGS ?? "").split(/\s+/).filter(Boolean)];
  const child = spawnPinned(pin, process.execPath, [...nodeArgs, "--import", TSX_LOADER, script], {
    cwd: ROOT,
    env,
    stdio: ["ignore", "pipe", "pipe", "ipc"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const tail: string[] = [];
  const errors = new Map<string, number>();
  let stopping = false;
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    stopping = true;
    child.kill("SIGTERM");
    const timedOut = await Promise.race([
      exited.then(() => false),
      new Promise<boolean>((r) => setTimeout(() => r(true), STOP_TIMEOUT_MS).unref()),
    ]);
    if (timedOut) {
      child.kill("SIGKILL");
      await exited;
    }
  };
  onCleanup(stop);
  return new Promise<AppChild>((resolve, reject) => {
    let started = false;
    const fail = (why: string) => {
      clearTimeout(timer);
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      reject(new Error(`the app failed to start: ${why}\n${tail.map((l) => `  | ${l}`).join("\n")}`));
    };
    const timer = setTimeout(() => fail(`no "ready" line within ${START_TIMEOUT_MS / 1000} s`), START_TIMEOUT_MS);
    const onLine = (line: string) => {
      if (logFile) appendFileSync(logFile, `${line}\n`);
      opts.onLine?.(line);
      tail.push(line);
      if (tail.length > 40) tail.shift();
      if (/"level":(50|60)\b/.test(line)) {
        const key = errorSummary(line);
        errors.set(key, (errors.get(key) ?? 0) + 1);
      }
      const ready = /^ready (\d+)$/.exec(line.trim());
      if (ready && !started) {
        started = true;
        clearTimeout(timer);
        resolve({ child, pid: child.pid!, port: Number(ready[1]), tail, errors, stop });
      }
    };
    createInterface({ input: child.stdout! }).on("line", onLine);
    createInterface({ input: child.stderr! }).on("line", onLine);
    child.once("error", (err) => fail(err.message));
    child.once("exit", (code, signal) => {
      if (!started) fail(`exited (${signal ?? `code ${code}`}) before "ready"`);
      else if (!stopping) process.stderr.write(`the app exited unexpectedly (${signal ?? code})\n`);
    });
  });
}

/** One request/answer over the app child's IPC channel (see app-server.ts). */
export function askApp(app: AppChild, msg: { type: string; file?: string }): Promise<Record<string, unknown>> {
  return askChild(app.child, msg, "the app", 60_000);
}

/**
 * Signs in the way a person does: a login token (minted with the app's key) exchanged at
 * GET /dashboard/login?t=… for the svc_session cookie. Returns the cookie header value.
 */
export async function signIn(port: number, teamId: string, userId: string): Promise<string> {
  const keys = {
    loginToken: deriveKey(BENCH_SESSION_SECRET_KEY, "login-token"),
    oauthState: deriveKey(BENCH_SESSION_SECRET_KEY, "oauth-state"),
    tokenEncryption: deriveKey(BENCH_SESSION_SECRET_KEY, "token-encryption"),
    emailUnsubscribe: deriveKey(BENCH_SESSION_SECRET_KEY, "email-unsubscribe"),
  };
  const token = issueLoginToken({ keys, clock: systemClock }, teamId, userId);
  const res = await fetch(`http://127.0.0.1:${port}/dashboard/login?t=${encodeURIComponent(token)}`, {
    redirect: "manual",
  });
  await res.arrayBuffer();
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0]!)
    .find((c) => c.startsWith("svc_session="));
  if (res.status !== 302 || !cookie) throw new Error(`sign-in answered ${res.status} without a session cookie`);
  const me = await fetch(`http://127.0.0.1:${port}/dashboard/api/me`, { headers: { cookie } });
  const body = (await me.json()) as { role?: string };
  if (me.status !== 200 || body.role !== "admin") {
    throw new Error(`/dashboard/api/me answered ${me.status} ${JSON.stringify(body)}, expected an admin`);
  }
  return cookie;
}

/**
 * More sessions for the same admin, written as the login route writes them (insertSession, sha256 of the
 * cookie). The dashboard API allows 600 requests a minute per session; a load test rotates over many
 * sessions, like many people with the dashboard open, so it measures the endpoint and not the 429 path.
 */
export async function extraSessions(url: string, teamId: string, userId: string, n: number): Promise<string[]> {
  const raws = Array.from({ length: n }, () => randomToken(32));
  const now = new Date();
  const database = await openDatabase(url, { poolMax: 4 });
  try {
    await Promise.all(
      raws.map((raw) =>
        insertSession(database.db, {
          idHash: sha256Hex(raw),
          teamId,
          userId,
          createdAt: now,
          expiresAt: new Date(now.getTime() + SESSION_TTL_MS),
        }),
      ),
    );
  } finally {
    await database.close();
  }
  return raws.map((r) => `svc_session=${r}`);
}

// ---------------------------------------------------------------------------------------------- /proc

/** Re-exported for the insight and export runners. */
export { cpuMs, procStatusKb };

/**
 * Waits (at most maxMs) until the database at url runs no other query and the process uses under 5% of a
 * CPU over 250 ms: requests still queued in the app when a load run ends must not spill into the next.
 */
export async function waitIdle(pid: number, url: string, maxMs = 30_000): Promise<void> {
  const end = Date.now() + maxMs;
  const client = new pg.Client({ connectionString: url });
  // A server-side termination (e.g. the cleanup's drop … with (force)) must not crash the process.
  client.on("error", () => {});
  await client.connect();
  try {
    let last = cpuMs(pid);
    while (Date.now() < end) {
      await new Promise((r) => setTimeout(r, 250));
      const { rows } = await client.query<{ n: number }>(
        `select count(*)::int as n from pg_stat_activity
         where datname = current_database() and state = 'active' and pid <> pg_backend_pid()`,
      );
      const now = cpuMs(pid);
      const cpuIdle = now === undefined || last === undefined || now - last < 12.5;
      last = now;
      if (rows[0]!.n === 0 && cpuIdle) return;
    }
  } finally {
    await client.end();
  }
}

// ---------------------------------------------------------------------------------------------- output

export { fmtInt, fmtMs, percentiles, table } from "../lib/report.ts";
