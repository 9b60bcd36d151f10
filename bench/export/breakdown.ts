/**
 * Where the export's time goes, without HTTP, and what an alternative would give. Diagnostic for
 * bench/export, not part of the benchmark. Against a seeded database it runs, each over the whole range:
 *
 *   1. the insights feature's exportRows (keyset batches of 2000 through drizzle): the SQL and the driver's
 *      decoding;
 *   2. the feature's csvChunks, the keyset path's CSV generator (the route's on the embedded database):
 *      everything it does except HTTP (its "batches" are the 250-row chunks it yields);
 *   3. experiment, not the app's code: the same keyset batches with PostgreSQL building the CSV text of the
 *      spec's eight columns only (one string per batch, same quoting and formula guard as csv.ts);
 *   4. the experiment with batches of 10,000, checked byte-identical to pass 3;
 *   5. the feature's copyCsv, the route's path on PostgreSQL (one COPY, every column), minus HTTP: checked
 *      byte-identical to pass 2.
 *
 * It prints rows/s, per-batch query wait, node CPU and heap growth per pass, and the plan of one batch as
 * exportRows sends it (recorded, not copied). Run it pinned like the app:
 * `taskset -c 1 npx tsx --expose-gc bench/export/breakdown.ts`.
 *
 *   npx tsx bench/export/breakdown.ts <postgres url> [--team T0BENCH]
 *
 * Seed the database first, e.g. `BENCH_DATABASE_URL=<url> npm run bench:seed -- --members 4525`.
 */
import { createHash } from "node:crypto";
import { performance } from "node:perf_hooks";
import { StringDecoder } from "node:string_decoder";
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import pg from "pg";
import { type Database, type Db, type Executor, openDatabase, rows } from "../../src/db/client.ts";
import { copyCsv, csvChunks, DASH_FORMULA, exportRows } from "../../src/features/insights/index.ts";
import { cpuMs, fmtInt, percentiles, table } from "../seed/harness.ts";

const { values: args, positionals } = parseArgs({
  options: {
    team: { type: "string", default: "T0BENCH" },
  },
  allowPositionals: true,
  strict: true,
});
const url = positionals[0] ?? process.env.BENCH_DATABASE_URL;
if (!url) {
  process.stderr.write("usage: npx tsx bench/export/breakdown.ts <postgres url> [--team T0BENCH]\n");
  process.exit(2);
}
const TEAM = args.team;
const FROM = "2000-01-01";
const TO = "2100-01-01";

/** csv.ts's csvCell in SQL: formula guard (looksLikeFormula: = + @ tab CR, or - and DASH_FORMULA), then RFC 4180 quoting. */
function csvCellSql(expr: string): string {
  const formula = `ascii(${expr}) in (9, 13, 43, 61, 64) or (ascii(${expr}) = 45 and ${expr} ~ '${DASH_FORMULA}')`;
  const guarded = `(case when ${formula} then '''' || ${expr} else ${expr} end)`;
  return `(case when ${guarded} ~ '[",\\r\\n]' then '"' || replace(${guarded}, '"', '""') || '"' else ${guarded} end)`;
}

const LINE_SQL = [
  "r.standup_date::text",
  "r.user_id",
  "coalesce(m.real_name, '')",
  "r.yesterday",
  "r.today",
  "r.blockers",
  "coalesce(r.mood, '')",
  `to_char(r.submitted_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`,
]
  .map(csvCellSql)
  .join(` || ',' || `);

/** Experiment: keyset batches where PostgreSQL builds the CSV, one row per batch (text, count, last key). */
async function* sqlCsvBatches(ex: Executor, batch: number): AsyncGenerator<string> {
  let after: { date: string; id: number } | undefined;
  for (;;) {
    const [b] = await rows<{ csv: string | null; n: number; last_date: string | null; last_id: number | null }>(
      ex,
      sql`select string_agg(line, '' order by standup_date, id) as csv, count(*)::int as n,
                 max(standup_date)::text as last_date,
                 (array_agg(id order by standup_date desc, id desc))[1]::int as last_id
          from (select r.id, r.standup_date, ${sql.raw(LINE_SQL)} || E'\\r\\n' as line
                from responses r
                left join members m on m.team_id = r.team_id and m.user_id = r.user_id
                where r.team_id = ${TEAM} and r.standup_date between ${FROM} and ${TO}
                  ${after ? sql`and (r.standup_date, r.id) > (${after.date}::date, ${after.id})` : sql``}
                order by r.standup_date, r.id
                limit ${batch}) b`,
    );
    if (!b || b.n === 0 || b.csv === null) return;
    yield b.csv;
    if (b.n < batch) return;
    after = { date: b.last_date!, id: b.last_id! };
  }
}

interface Pass {
  name: string;
  rows: number;
  ms: number;
  batchMs: number[];
  cpuMs: number | undefined;
  heapGrowthMb: number;
  digest: string;
}

const gc = (globalThis as { gc?: () => void }).gc;

async function pass(
  name: string,
  produce: (ex: Executor, database: Database) => AsyncGenerator<string | number>,
): Promise<Pass> {
  const database = await openDatabase(url!);
  gc?.();
  const heap0 = process.memoryUsage().heapUsed;
  let heapPeak = heap0;
  const batchMs: number[] = [];
  const hash = createHash("sha256");
  let n = 0;
  const cpu0 = cpuMs(process.pid);
  const t0 = performance.now();
  let t = t0;
  try {
    for await (const chunk of produce(database.db, database)) {
      batchMs.push(performance.now() - t);
      if (typeof chunk === "number") n += chunk;
      else {
        hash.update(chunk);
        for (let i = chunk.indexOf("\n"); i !== -1; i = chunk.indexOf("\n", i + 1)) n += 1;
      }
      heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
      t = performance.now();
    }
  } finally {
    await database.close();
  }
  const ms = performance.now() - t0;
  const cpu1 = cpuMs(process.pid);
  return {
    name,
    rows: n,
    ms,
    batchMs,
    cpuMs: cpu0 !== undefined && cpu1 !== undefined ? cpu1 - cpu0 : undefined,
    heapGrowthMb: (heapPeak - heap0) / 1048576,
    digest: hash.digest("hex").slice(0, 12),
  };
}

async function* rowsOnly(ex: Executor): AsyncGenerator<number> {
  for await (const batch of exportRows(ex, TEAM, FROM, TO)) yield batch.length;
}
/** The route's CSV without its header line (the SQL experiment has none), so the digests compare. */
async function* routeCsv(ex: Executor): AsyncGenerator<string> {
  let header = true;
  for await (const chunk of csvChunks(ex, TEAM, FROM, TO)) {
    if (!header) yield chunk;
    header = false;
  }
}

/** The route's PostgreSQL path (COPY through copyCsv) without its header line, to compare with pass 2. */
async function* copyRouteCsv(_ex: Executor, database: Database): AsyncGenerator<string> {
  if (!database.pool) throw new Error("copyCsv needs a PostgreSQL pool");
  let header = true;
  // A character's bytes may straddle two chunks.
  const decoder = new StringDecoder("utf8");
  for await (const chunk of await copyCsv(database.pool, TEAM, FROM, TO)) {
    let text = decoder.write(chunk as Buffer);
    if (header) {
      const end = text.indexOf("\r\n");
      if (end === -1) continue;
      text = text.slice(end + 2);
      header = false;
    }
    if (text) yield text;
  }
}

/** The statement exportRows sends for its second batch (the first with a keyset bound), as text and parameters. */
async function secondBatchStatement(db: Db): Promise<{ sql: string; params: unknown[] }> {
  const dialect = new PgDialect();
  const sent: { sql: string; params: unknown[] }[] = [];
  const recording = new Proxy(db, {
    get(target, prop, receiver) {
      if (prop !== "execute") return Reflect.get(target, prop, receiver);
      return (query: ReturnType<typeof sql>) => {
        sent.push(dialect.sqlToQuery(query));
        return target.execute(query);
      };
    },
  });
  for await (const _ of exportRows(recording, TEAM, FROM, TO)) if (sent.length >= 2) break;
  const statement = sent[1] ?? sent[0];
  if (!statement) throw new Error(`no export rows for team ${TEAM}`);
  return statement;
}

async function main(): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  // A server-side termination (e.g. the cleanup's drop … with (force)) must not crash the process.
  admin.on("error", () => {});
  await admin.connect();
  const results: Pass[] = [];
  try {
    results.push(await pass("1 exportRows (SQL + decode)", rowsOnly));
    results.push(await pass("2 csvChunks (route minus HTTP)", routeCsv));
    results.push(await pass("3 experiment: CSV built in SQL, batch 2000", (ex) => sqlCsvBatches(ex, 2000)));
    results.push(await pass("4 experiment: CSV built in SQL, batch 10000", (ex) => sqlCsvBatches(ex, 10000)));
    results.push(await pass("5 copyCsv (the route on PostgreSQL minus HTTP)", copyRouteCsv));
    process.stdout.write(
      `${table(
        ["pass", "rows", "seconds", "rows/s", "batches", "wait p50 ms", "p99", "node CPU s", "heap +MB", "csv sha256"],
        results.map((r) => {
          const [p50, p99] = percentiles(r.batchMs, 0.5, 0.99);
          return [
            r.name,
            fmtInt(r.rows),
            (r.ms / 1000).toFixed(2),
            fmtInt((r.rows * 1000) / r.ms),
            String(r.batchMs.length),
            p50!.toFixed(1),
            p99!.toFixed(1),
            r.cpuMs === undefined ? "-" : (r.cpuMs / 1000).toFixed(1),
            r.heapGrowthMb.toFixed(1),
            r.name.startsWith("1") ? "-" : r.digest,
          ];
        }),
      )}\n`,
    );
    process.stdout.write(
      "(wait = time from asking for a batch to having it; heap +MB = peak heapUsed over the pass start, sampled per batch" +
        `${gc ? ", after a full GC" : "; run with --expose-gc for a clean start"}; the sha256 of the CSV must match between passes 2 and 5, and between 3 and 4)\n`,
    );
    // Passes 2 and 5 are the route's two paths (all columns); 3 and 4 build only the spec's eight columns.
    const digest = (n: string) => results.find((r) => r.name.startsWith(n))?.digest;
    if (digest("2") !== digest("5")) process.stdout.write("WARNING: the CSV differs between passes 2 and 5\n");
    if (digest("3") !== digest("4")) process.stdout.write("WARNING: the CSV differs between passes 3 and 4\n");

    const database = await openDatabase(url!);
    try {
      const statement = await secondBatchStatement(database.db);
      const plan = await admin.query<{ "QUERY PLAN": string }>(
        `explain (analyze, buffers) ${statement.sql}`,
        statement.params,
      );
      process.stdout.write(`\nplan of exportRows's second batch (parameters ${JSON.stringify(statement.params)}):\n`);
      for (const r of plan.rows) process.stdout.write(`  ${r["QUERY PLAN"]}\n`);
    } finally {
      await database.close();
    }
  } finally {
    await admin.end();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`breakdown failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
