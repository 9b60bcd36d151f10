/**
 * Start-up benchmark: the real service as a child process, timed from spawn to the first 200 from `/healthz`, then
 * its resident memory once idle.
 *
 *   npm run bench:startup -- [--runs 3] [--idle 5] [--database-url postgres://…] [--no-build] [--no-source]
 *   CI_ONLY_DB=1 bash .ci/run npm run bench:startup      # PostgreSQL from TEST_DATABASE_URL as well
 *
 * Two ways to start: `prod` (`node dist/main.js`, what `npm run start:prod` runs; built first unless --no-build) and
 * `source` (`src/main.ts` through tsx, as `npm start` runs it, with tsx as a loader so that one process is measured). Two databases: the embedded one (a fresh `pglite://` directory)
 * and, with --database-url / BENCH_DATABASE_URL / TEST_DATABASE_URL, a PostgreSQL server (a fresh database per cold
 * start, dropped at the end). Cold: a database nobody used (the embedded cluster is created, every migration and
 * pg-boss's schema run); warm: the same database again (what every restart costs). Each start runs in an empty
 * working directory (its `./data`: fresh development secrets). Idle RSS: `VmRSS` of the warm process `--idle`
 * seconds after it was healthy. Targets (production start): ≤ 5 s embedded, ≤ 2 s on PostgreSQL, idle RSS ≤ 150 MB on
 * PostgreSQL, printed PASS/FAIL (exit 0); exit 1 only when a start fails.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { availableParallelism, cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import pg from "pg";
import { positiveInt } from "../lib/args.ts";
import { procStatusKb } from "../lib/proc.ts";
import { table } from "../lib/report.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
/** tsx as a loader in the service's own process (its CLI would run the service in a second process). */
const TSX_LOADER = import.meta.resolve("tsx");
const START_TIMEOUT_MS = 60_000;
const TARGET_EMBEDDED_MS = 5_000;
const TARGET_POSTGRES_MS = 2_000;
const TARGET_IDLE_RSS_MB = 150;

const { values: args } = parseArgs({
  options: {
    runs: { type: "string", default: "3" },
    idle: { type: "string", default: "5" },
    "database-url": { type: "string" },
    "no-build": { type: "boolean", default: false },
    "no-source": { type: "boolean", default: false },
    help: { type: "boolean", default: false },
  },
});
if (args.help) {
  process.stdout.write(
    "usage: npm run bench:startup -- [--runs <n>=3] [--idle <s>=5] [--database-url postgres://…] [--no-build] [--no-source]\n",
  );
  process.exit(0);
}
const RUNS = positiveInt("runs", args.runs!);
const IDLE_S = positiveInt("idle", args.idle!);
const SERVER_URL = args["database-url"] ?? process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;

type Kind = "prod" | "source";
type Db = "embedded" | "postgres";

interface Started {
  child: ChildProcess;
  ms: number;
  exited: Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/** Spawns the service and resolves when `/healthz` first answers 200 (spawn → 200, in ms). */
async function start(kind: Kind, databaseUrl: string, cwd: string): Promise<Started> {
  const port = await freePort();
  const command = kind === "prod" ? [join(ROOT, "dist/main.js")] : ["--import", TSX_LOADER, join(ROOT, "src/main.ts")];
  const t0 = performance.now();
  const child = spawn(process.execPath, command, {
    cwd,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? cwd,
      NODE_ENV: "development",
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: "127.0.0.1",
      APP_URL: `http://127.0.0.1:${port}`,
      LOG_LEVEL: "WARNING",
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr!.on("data", (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-4_000);
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let gone = false;
  void exited.then(() => {
    gone = true;
  });
  for (;;) {
    if (gone) throw new Error(`${kind} start exited before it was healthy:\n${stderr}`);
    if (performance.now() - t0 > START_TIMEOUT_MS) {
      child.kill("SIGKILL");
      throw new Error(`${kind} start not healthy within ${START_TIMEOUT_MS} ms:\n${stderr}`);
    }
    try {
      const res = await fetch(`http://127.0.0.1:${port}/healthz`);
      await res.arrayBuffer();
      if (res.status === 200) return { child, ms: performance.now() - t0, exited };
    } catch {
      // not listening yet
    }
    await sleep(10);
  }
}

async function stop(s: Started): Promise<void> {
  s.child.kill("SIGTERM");
  const timer = setTimeout(() => s.child.kill("SIGKILL"), 15_000);
  await s.exited;
  clearTimeout(timer);
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const secs = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

interface Row {
  kind: Kind;
  db: Db;
  cold: number[];
  warm: number[];
  rssMb?: number;
}

const temps: string[] = [];
const databases: string[] = [];
let admin: pg.Client | undefined;

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temps.push(dir);
  return dir;
}

async function freshDatabase(n: number): Promise<string> {
  const name = `upbeat_bench_startup_${process.pid}_${n}`;
  await admin!.query(`create database ${name}`);
  databases.push(name);
  const url = new URL(SERVER_URL!);
  url.pathname = `/${name}`;
  return url.toString();
}

async function cleanUp(): Promise<void> {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
  if (admin) {
    for (const name of databases) await admin.query(`drop database if exists ${name} with (force)`).catch(() => {});
    await admin.end().catch(() => {});
  }
}

async function measure(kind: Kind, db: Db, counter: { n: number }): Promise<Row> {
  const row: Row = { kind, db, cold: [], warm: [] };
  for (let i = 0; i < RUNS; i++) {
    counter.n += 1;
    const cwd = tempDir("upbeat-startup-");
    const url = db === "embedded" ? `pglite://${join(cwd, "data/pglite")}` : await freshDatabase(counter.n);
    const cold = await start(kind, url, cwd);
    row.cold.push(cold.ms);
    await stop(cold);
    const warm = await start(kind, url, cwd);
    row.warm.push(warm.ms);
    if (i === RUNS - 1) {
      await sleep(IDLE_S * 1000);
      const kb = warm.child.pid ? procStatusKb(warm.child.pid, "VmRSS") : undefined;
      if (kb !== undefined) row.rssMb = kb / 1024;
    }
    await stop(warm);
    process.stdout.write(`  ${kind} ${db} run ${i + 1}: cold ${secs(cold.ms)}, warm ${secs(warm.ms)}\n`);
  }
  return row;
}

async function main(): Promise<void> {
  const model = cpus()[0]?.model ?? "unknown CPU";
  process.stdout.write(
    `startup bench: node ${process.version}, ${availableParallelism()} CPUs (${model}), load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}, ${RUNS} runs each\n`,
  );
  if (!args["no-build"]) {
    process.stdout.write("building (npm run build) …\n");
    const built = spawnSync("npm", ["run", "build"], { cwd: ROOT, stdio: ["ignore", "ignore", "inherit"] });
    if (built.status !== 0) throw new Error("npm run build failed");
  }
  if (!existsSync(join(ROOT, "dist/main.js"))) throw new Error("dist/main.js is missing: run npm run build");
  if (SERVER_URL) {
    admin = new pg.Client({ connectionString: SERVER_URL });
    await admin.connect();
  } else {
    process.stdout.write("no --database-url / BENCH_DATABASE_URL / TEST_DATABASE_URL: embedded database only\n");
  }
  const kinds: Kind[] = args["no-source"] ? ["prod"] : ["prod", "source"];
  const dbs: Db[] = SERVER_URL ? ["embedded", "postgres"] : ["embedded"];
  const counter = { n: 0 };
  const rows: Row[] = [];
  for (const kind of kinds) for (const db of dbs) rows.push(await measure(kind, db, counter));

  const verdict = (ok: boolean) => (ok ? "PASS" : "FAIL");
  const body = rows.map((r) => {
    const target = r.db === "embedded" ? TARGET_EMBEDDED_MS : TARGET_POSTGRES_MS;
    const judged = r.kind === "prod";
    return [
      `${r.kind} (${r.kind === "prod" ? "node dist/main.js" : "tsx src/main.ts"})`,
      r.db,
      `${secs(median(r.cold))} / ${secs(Math.max(...r.cold))}`,
      `${secs(median(r.warm))} / ${secs(Math.max(...r.warm))}`,
      r.rssMb === undefined ? "-" : `${r.rssMb.toFixed(0)} MB`,
      judged
        ? `≤ ${target / 1000} s: cold ${verdict(Math.max(...r.cold) <= target)}, warm ${verdict(Math.max(...r.warm) <= target)}` +
          (r.db === "postgres" && r.rssMb !== undefined
            ? `; RSS ≤ ${TARGET_IDLE_RSS_MB} MB ${verdict(r.rssMb <= TARGET_IDLE_RSS_MB)}`
            : "")
        : "(information)",
    ];
  });
  process.stdout.write(
    `\n${table(["start", "database", "cold median / max", "warm median / max", `idle RSS (${IDLE_S} s)`, "target"], body)}\n`,
  );
  process.stdout.write(
    `load average at the end: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}\n`,
  );
}

let failed = false;
try {
  await main();
} catch (err) {
  failed = true;
  process.stderr.write(`bench:startup failed: ${err instanceof Error ? err.message : String(err)}\n`);
} finally {
  await cleanUp();
}
process.exit(failed ? 1 : 0);
