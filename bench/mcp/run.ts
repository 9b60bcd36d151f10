/**
 * The MCP endpoint, warm, tool by tool against JSON-RPC `ping`:
 *
 *   npm run bench:mcp -- [--members 1000] [--days 365] [--calls 200] [--warmup 20] [--max-seconds 8]
 *                        [--connections 4] [--duration 3] [--keys 1000] [--embedded] [--no-pin] [--cpu-prof]
 *
 * Creates a fresh database (upbeat_bench_mcp_<pid>) on the server of BENCH_DATABASE_URL or TEST_DATABASE_URL
 * (--embedded: a PGlite directory instead), seeds one workspace (members × weekdays ending today, UTC: the
 * app reads the real clock), creates API keys through the mcp-keys feature (stored hashed, as the product
 * stores them), starts the real app as a child pinned to CPU 1 and drives POST /mcp from CPU 0. Every
 * scenario (bench/mcp/harness.ts: ping, tools/list and each tool of tools/list with a member of the seeded
 * team, the last 30 days and a search term that occurs) is probed once and must answer a success; then
 * --warmup calls, then --calls sequential calls (at most --max-seconds), then --duration s at --connections
 * connections with autocannon. Prints p50/p99 per scenario and p50 / ping p50; target for the small tools
 * (member-scoped): ≤ 2 × ping, PASS/FAIL. Exit 0 with the report whatever the verdicts; 1 when the bench
 * itself fails (seed, start, a probe that errors, failed requests). The database is dropped at the end.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { startFakeSlack } from "../../dev/fake-slack/index.ts";
import { deriveKey, encryptSecret } from "../../src/lib/crypto.ts";
import { positiveInt } from "../lib/args.ts";
import { type CpuProfile, summarizeProfile } from "../lib/profile.ts";
import {
  askApp,
  BENCH_SESSION_SECRET_KEY,
  benchBaseUrl,
  cpuMs,
  createBenchDatabase,
  fmtInt,
  fmtMs,
  migrateDatabaseAt,
  onCleanup,
  percentiles,
  pinning,
  runMain,
  startApp,
  waitIdle,
} from "../seed/harness.ts";
import { isoDate, seedWorkspace, shiftIsoDate } from "../seed/seed.ts";
import {
  concurrent,
  createBenchKeys,
  KeyRing,
  listTools,
  type Measured,
  probe,
  report,
  scenarios,
  sequential,
  TARGET_RATIO,
  uncovered,
  verdicts,
} from "./harness.ts";

const TEAM = "T0BENCH";
const BOT_TOKEN = "xoxb-bench-token";
const BOT_USER_ID = "B0BENCHBOT";

/** Waits (at most 30 s) until the process uses under 5% of a CPU over 250 ms. */
async function cpuIdle(pid: number): Promise<void> {
  const end = Date.now() + 30_000;
  let last = cpuMs(pid);
  while (Date.now() < end) {
    await new Promise((r) => setTimeout(r, 250));
    const now = cpuMs(pid);
    if (now === undefined || last === undefined || now - last < 12.5) return;
    last = now;
  }
}

const { values: args } = parseArgs({
  options: {
    members: { type: "string", default: "1000" },
    days: { type: "string", default: "365" },
    calls: { type: "string", default: "200" },
    warmup: { type: "string", default: "20" },
    "max-seconds": { type: "string", default: "8" },
    connections: { type: "string", default: "4" },
    duration: { type: "string", default: "3" },
    keys: { type: "string", default: "1000" },
    member: { type: "string", default: "37" },
    embedded: { type: "boolean", default: false },
    "no-pin": { type: "boolean", default: false },
    "cpu-prof": { type: "boolean", default: false },
    help: { type: "boolean", short: "h", default: false },
  },
  strict: true,
});
if (args.help) {
  process.stdout.write(
    "usage: npm run bench:mcp -- [--members 1000] [--days 365] [--calls 200] [--warmup 20] [--max-seconds 8] [--connections 4] [--duration 3] [--keys 1000] [--member 37] [--embedded] [--no-pin] [--cpu-prof]\n",
  );
  process.exit(0);
}
const MEMBERS = positiveInt("members", args.members);
const DAYS = positiveInt("days", args.days);
const CALLS = positiveInt("calls", args.calls);
const WARMUP = positiveInt("warmup", args.warmup);
const MAX_SECONDS = positiveInt("max-seconds", args["max-seconds"]);
const CONNECTIONS = positiveInt("connections", args.connections);
const DURATION = positiveInt("duration", args.duration);
const KEYS = positiveInt("keys", args.keys);
const MEMBER = positiveInt("member", args.member);
if (MEMBER > MEMBERS) {
  process.stderr.write(`--member must be at most --members (${MEMBERS})\n`);
  process.exit(2);
}

async function main(): Promise<number> {
  const problems: string[] = [];
  const pin = pinning(args["no-pin"]);
  const load0 = loadavg();
  process.stdout.write(
    `mcp bench: node ${process.version}, ${MEMBERS} members × ${DAYS} days on ${args.embedded ? "PGlite (embedded)" : "PostgreSQL"}; per scenario ${WARMUP} warm-up + ${CALLS} sequential calls (≤ ${MAX_SECONDS} s), then ${DURATION} s at ${CONNECTIONS} connections\n`,
  );
  process.stdout.write(
    pin.pin
      ? `pinning: load generator on CPU ${pin.clientCpu}, app on CPU ${pin.serverCpu} (database unpinned)\n`
      : `pinning: OFF (${pin.why})\n`,
  );
  process.stdout.write(`load average at start: ${load0.map((l) => l.toFixed(2)).join(" ")}\n`);

  let url: string;
  if (args.embedded) {
    const dir = mkdtempSync(join(tmpdir(), "upbeat-bench-mcp-"));
    onCleanup(async () => rmSync(dir, { recursive: true, force: true }));
    url = `pglite://${dir}`;
    process.stdout.write(`PGlite directory ${dir}\n`);
  } else {
    const dbName = `upbeat_bench_mcp_${process.pid}`;
    url = await createBenchDatabase(benchBaseUrl(), dbName);
    process.stdout.write(`database ${dbName} created\n`);
  }
  await migrateDatabaseAt(url);
  const today = isoDate(new Date());
  const fromDate = shiftIsoDate(today, -(DAYS - 1));
  process.stdout.write(`seeding ${fromDate} .. ${today}\n`);
  const seeded = await seedWorkspace(url, {
    teamId: TEAM,
    members: MEMBERS,
    fromDate,
    toDate: today,
    botTokenEnc: encryptSecret(deriveKey(BENCH_SESSION_SECRET_KEY, "token-encryption"), BOT_TOKEN),
    log: (l) => process.stdout.write(`${l}\n`),
  });
  process.stdout.write(
    `seeded ${fmtInt(seeded.members)} members, ${fmtInt(seeded.runs)} runs, ${fmtInt(seeded.responses)} responses in ${(seeded.totalMs / 1000).toFixed(1)} s\n`,
  );
  const keys = await createBenchKeys(url, TEAM, seeded.adminUserId, KEYS);
  process.stdout.write(`${fmtInt(keys.length)} API keys created through the mcp-keys feature (stored as SHA-256)\n`);

  // The tools that show responses name unnamed standups after their channel (conversations.list, cached by
  // the app): a Slack that answers, in this process, so the bench does not measure a failing lookup.
  const fake = await startFakeSlack();
  onCleanup(() => fake.close());
  fake.addTeam({ id: TEAM, name: `Bench ${TEAM}`, botToken: BOT_TOKEN, botUserId: BOT_USER_ID });
  // The seed's schedule posts in C0BENCH1 as B0BENCHBOT (bench/seed/seed.ts).
  fake.addChannel(TEAM, { id: "C0BENCH1", name: "standup", members: [BOT_USER_ID] });

  const t0 = performance.now();
  const app = await startApp(url, pin, { env: { CHAT_API_URL: fake.url } });
  process.stdout.write(`app started in ${((performance.now() - t0) / 1000).toFixed(1)} s (pid ${app.pid})\n`);
  const ring = new KeyRing(keys);
  // Calls still queued in the app when a run ends must not spill into the next (PGlite: the app's CPU only).
  const idle = () => (args.embedded ? cpuIdle(app.pid) : waitIdle(app.pid, url));

  const userId = `U${String(MEMBER).padStart(8, "0")}`;
  const toolNames = await listTools(app.port, ring.take());
  const list = scenarios(userId, today, seeded.scheduleIds[0]!);
  problems.push(...uncovered(toolNames, list));
  process.stdout.write(`member ${userId}; tools/list: ${toolNames.join(", ")}\n`);
  const probes = [];
  for (const s of list) {
    const p = await probe(app.port, ring.take(), s, toolNames);
    probes.push(p);
    process.stdout.write(
      `  probe ${s.label}: ${p.problem ? `ERROR ${p.problem}` : `ok, ${fmtInt(p.bytes)} bytes, ${p.ms.toFixed(1)} ms, ${p.summary}`}\n`,
    );
    if (p.problem) problems.push(`${s.label}: ${p.problem}`);
  }
  if (problems.length > 0) {
    await app.stop();
    process.stdout.write(`\nproblems:\n${problems.map((p) => `  - ${p}`).join("\n")}\n`);
    return 1;
  }

  const ping = list.find((s) => s.kind === "baseline")!;
  const measured: Measured[] = [];
  const profiles: { name: string; file: string }[] = [];
  for (const [i, s] of list.entries()) {
    const profile =
      args["cpu-prof"] && s.kind !== "report"
        ? join(tmpdir(), `upbeat-mcp-${process.pid}-${s.label.replace(/\W+/g, "-")}.cpuprofile`)
        : undefined;
    const seq = await sequential(app.port, ring, s, {
      warmup: WARMUP,
      calls: CALLS,
      maxSeconds: MAX_SECONDS,
      ...(s.kind === "baseline" ? {} : { baseline: ping }),
      ...(profile
        ? {
            onMeasureStart: () => askApp(app, { type: "profile-start" }).then(() => {}),
          }
        : {}),
    });
    if (profile) {
      await askApp(app, { type: "profile-stop", file: profile });
      profiles.push({ name: s.label, file: profile });
    }
    await idle();
    const conc = await concurrent(app.port, ring, s, CONNECTIONS, { seconds: DURATION });
    await idle();
    if (seq.bad > 0) problems.push(`${s.label}: ${seq.bad} sequential calls not answered 200`);
    if (conc.bad > 0)
      problems.push(`${s.label}: ${conc.bad} concurrent calls failed ${JSON.stringify(conc.statusCodes)}`);
    measured.push({ scenario: s, bytes: probes[i]!.bytes, seq, conc });
    const [p50, p99] = percentiles(seq.latencies, 0.5, 0.99);
    const [cp50] = percentiles(conc.latencies, 0.5);
    process.stdout.write(
      `  ${s.label}: ${seq.latencies.length} calls in ${seq.seconds.toFixed(1)} s, p50 ${fmtMs(p50!)} ms, p99 ${fmtMs(p99!)} ms | c=${CONNECTIONS} ${conc.rps.toFixed(0)} req/s, p50 ${fmtMs(cp50!)} ms\n`,
    );
  }
  process.stdout.write(
    `Slack calls the app made during the run: ${fake.calls.length} (${[...new Set(fake.calls.map((c) => c.method))].join(", ") || "none"})\n`,
  );
  for (const [msg, n] of app.errors) problems.push(`the app logged ${n} × ${msg}`);
  await app.stop();

  process.stdout.write(`\n${report(measured, CONNECTIONS)}\n`);
  process.stdout.write(
    `(sequential: one call at a time, time to the last byte; × ping = p50 / p50 of the ping calls made in turn with the scenario's (ping p50); small = member-scoped, target ≤ ${TARGET_RATIO}×; concurrent: autocannon, ${CONNECTIONS} connections, ${DURATION} s)\n\n`,
  );
  for (const v of verdicts(measured)) {
    process.stdout.write(
      `${v.label}: p50 ${v.ratio.toFixed(2)} × ping (target ≤ ${TARGET_RATIO}) ${v.pass ? "PASS" : "FAIL"}\n`,
    );
  }
  for (const { name, file } of profiles) {
    process.stdout.write(`\nCPU profile of the app, sequential ${name}: ${file}\n`);
    process.stdout.write(`${summarizeProfile(JSON.parse(readFileSync(file, "utf8")) as CpuProfile, 12)}\n`);
  }
  const load1 = loadavg();
  process.stdout.write(`\nload average at end: ${load1.map((l) => l.toFixed(2)).join(" ")}\n`);
  if (Math.max(load0[0]!, load1[0]!) > cpus().length + 0.5) {
    process.stdout.write(
      `note: the machine was busy with other work (load average above ${cpus().length} CPUs + 0.5); numbers are noisy\n`,
    );
  }
  if (problems.length > 0) {
    process.stdout.write(`\nproblems:\n${problems.map((p) => `  - ${p}`).join("\n")}\n`);
    return 1;
  }
  return 0;
}

runMain(main, "bench:mcp");
