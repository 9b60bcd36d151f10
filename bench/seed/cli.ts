/**
 * Seeds one benchmark workspace into an existing PostgreSQL database (migrated first):
 *
 *   npm run bench:seed -- [--members 1000] [--days 365] [--to YYYY-MM-DD] [--team T0BENCH]
 *                         [--schedules 1] [--seed 42] [--replace] [--url postgres://…]
 *
 * The database is --url, else BENCH_DATABASE_URL, else TEST_DATABASE_URL. --days counts calendar days
 * back from --to (default today, UTC), so 365 days give ~261 weekday runs. Prints what was written.
 */
import { parseArgs } from "node:util";
import { benchBaseUrl, fmtInt, migrateDatabaseAt, table } from "./harness.ts";
import { isoDate, seedWorkspace, shiftIsoDate } from "./seed.ts";

const { values: args } = parseArgs({
  options: {
    members: { type: "string", default: "1000" },
    days: { type: "string", default: "365" },
    to: { type: "string" },
    team: { type: "string", default: "T0BENCH" },
    schedules: { type: "string", default: "1" },
    seed: { type: "string", default: "42" },
    replace: { type: "boolean", default: false },
    url: { type: "string" },
    help: { type: "boolean", short: "h", default: false },
  },
  strict: true,
});
if (args.help) {
  process.stdout.write(
    "usage: npm run bench:seed -- [--members 1000] [--days 365] [--to YYYY-MM-DD] [--team T0BENCH] [--schedules 1] [--seed 42] [--replace] [--url <postgres url>]\n",
  );
  process.exit(0);
}

function int(name: string, raw: string): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) {
    process.stderr.write(`--${name} must be a whole number (got ${raw})\n`);
    process.exit(2);
  }
  return n;
}

async function main(): Promise<void> {
  const url = args.url ?? benchBaseUrl();
  const toDate = args.to ?? isoDate(new Date());
  const days = int("days", args.days);
  if (days < 1) throw new Error("--days must be at least 1");
  const fromDate = shiftIsoDate(toDate, -(days - 1));

  await migrateDatabaseAt(url);
  process.stdout.write(`seeding ${args.team}: ${args.members} members, ${fromDate} .. ${toDate}\n`);
  const r = await seedWorkspace(url, {
    teamId: args.team,
    members: int("members", args.members),
    fromDate,
    toDate,
    schedulesPerTeam: int("schedules", args.schedules),
    seed: int("seed", args.seed),
    replace: args.replace,
    log: (line) => process.stdout.write(`${line}\n`),
  });
  process.stdout.write(
    `\n${table(
      ["team", "members", "schedules", "runs", "participants", "responses", "active blockers", "seconds"],
      [
        [
          r.teamId,
          fmtInt(r.members),
          String(r.schedules),
          fmtInt(r.runs),
          fmtInt(r.participants),
          fmtInt(r.responses),
          fmtInt(r.activeBlockers),
          (r.totalMs / 1000).toFixed(1),
        ],
      ],
    )}\nsign in as ${r.adminUserId} (admin)\n`,
  );
}

main().catch((err: unknown) => {
  // drizzle wraps the database's error in one that lists the whole statement with every parameter.
  let cause = err;
  while (cause instanceof Error && cause.cause !== undefined) cause = cause.cause;
  process.stderr.write(`bench:seed failed: ${cause instanceof Error ? cause.message : String(cause)}\n`);
  process.exit(1);
});
