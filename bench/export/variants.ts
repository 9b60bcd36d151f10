/**
 * What-if runs for the export route: bench/export/variant-server.ts (the route's code with knobs, in its
 * own process pinned like the app) downloaded the way bench/export/run.ts downloads the app's export,
 * measuring rows/s and the server's peak RSS growth, with and without an index on responses
 * (team_id, standup_date, id) (created in that database for the run and dropped after). Diagnostic for
 * suggestions to src/; not part of the benchmark.
 *
 *   npx tsx bench/export/variants.ts <postgres url of a database seeded by bench:seed> [--with-index] [--team T0BENCH]
 */
import type { ChildProcess } from "node:child_process";
import { performance } from "node:perf_hooks";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import pg from "pg";
import { fmtInt, pinning, procStatusKb, runMain, spawnPinned, table } from "../seed/harness.ts";

const { values: args, positionals } = parseArgs({
  options: {
    team: { type: "string", default: "T0BENCH" },
    "with-index": { type: "boolean", default: false },
    "no-pin": { type: "boolean", default: false },
  },
  allowPositionals: true,
  strict: true,
});
const url = positionals[0] ?? process.env.BENCH_DATABASE_URL;
if (!url) {
  process.stderr.write("usage: npx tsx bench/export/variants.ts <postgres url> [--with-index] [--team T0BENCH]\n");
  process.exit(2);
}
const TSX_LOADER = import.meta.resolve("tsx");

const VARIANTS: { name: string; env: Record<string, string> }[] = [
  { name: "as src: batch 2000, yield whole batch", env: { EXPORT_BATCH: "2000" } },
  { name: "batch 2000, yield 250 rows", env: { EXPORT_BATCH: "2000", EXPORT_CHUNK: "250" } },
  { name: "batch 500, yield whole batch", env: { EXPORT_BATCH: "500" } },
  { name: "batch 2000, prefetch, yield 250", env: { EXPORT_BATCH: "2000", EXPORT_PREFETCH: "1", EXPORT_CHUNK: "250" } },
  { name: "batch 5000, prefetch, yield 250", env: { EXPORT_BATCH: "5000", EXPORT_PREFETCH: "1", EXPORT_CHUNK: "250" } },
];

function startServer(
  pin: ReturnType<typeof pinning>,
  env: Record<string, string>,
): Promise<{ child: ChildProcess; port: number }> {
  const script = fileURLToPath(new URL("./variant-server.ts", import.meta.url));
  const child = spawnPinned(pin, process.execPath, ["--import", TSX_LOADER, script], {
    env: { ...process.env, DATABASE_URL: url, ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`variant server exited ${code}`)));
    createInterface({ input: child.stdout! }).on("line", (line) => {
      const m = /^ready (\d+)$/.exec(line.trim());
      if (m) resolve({ child, port: Number(m[1]) });
    });
  });
}

async function measure(port: number, pid: number, from: string, to: string) {
  await new Promise((r) => setTimeout(r, 1000));
  const baseline = procStatusKb(pid, "VmRSS") ?? 0;
  let peak = baseline;
  const timer = setInterval(() => {
    peak = Math.max(peak, procStatusKb(pid, "VmRSS") ?? 0);
  }, 100);
  const t0 = performance.now();
  let lines = 0;
  try {
    const res = await fetch(`http://127.0.0.1:${port}/export?team=${args.team}&from=${from}&to=${to}`);
    if (!res.body) throw new Error("no body");
    for await (const chunk of res.body) {
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines += 1;
    }
  } finally {
    clearInterval(timer);
  }
  const ms = performance.now() - t0;
  return { rows: lines - 1, ms, growthMb: (peak - baseline) / 1024 };
}

async function main(): Promise<number> {
  const pin = pinning(args["no-pin"]);
  const admin = new pg.Client({ connectionString: url });
  // A server-side termination (e.g. the cleanup's drop … with (force)) must not crash the process.
  admin.on("error", () => {});
  await admin.connect();
  const out: string[][] = [];
  try {
    const { rows } = await admin.query<{ from: string; to: string }>(
      "select min(standup_date)::text as from, max(standup_date)::text as to from responses where team_id = $1",
      [args.team],
    );
    const { from, to } = rows[0]!;
    const sets = args["with-index"] ? [false, true] : [false];
    for (const withIndex of sets) {
      if (withIndex) {
        await admin.query("create index bench_responses_team_date_id_idx on responses (team_id, standup_date, id)");
        await admin.query("analyze responses");
      }
      try {
        for (const v of VARIANTS) {
          const server = await startServer(pin, v.env);
          try {
            const m = await measure(server.port, server.child.pid!, from, to);
            const name = `${v.name}${withIndex ? " + index" : ""}`;
            process.stdout.write(
              `  ${name}: ${fmtInt(m.rows)} rows, ${fmtInt((m.rows * 1000) / m.ms)} rows/s, RSS +${m.growthMb.toFixed(1)} MB\n`,
            );
            out.push([
              name,
              fmtInt(m.rows),
              (m.ms / 1000).toFixed(1),
              fmtInt((m.rows * 1000) / m.ms),
              m.growthMb.toFixed(1),
            ]);
          } finally {
            server.child.kill("SIGTERM");
            await new Promise((r) => server.child.once("exit", r));
          }
        }
      } finally {
        if (withIndex) await admin.query("drop index if exists bench_responses_team_date_id_idx");
      }
    }
  } finally {
    await admin.end();
  }
  process.stdout.write(`\n${table(["variant", "rows", "seconds", "rows/s", "RSS growth MB"], out)}\n`);
  return 0;
}

runMain(main, "export variants");
