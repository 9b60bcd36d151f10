import { spawn, spawnSync } from "node:child_process";
import { createReadStream, createWriteStream, mkdirSync } from "node:fs";
import { open, rename, rm } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import type { Readable, Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip, createGzip } from "node:zlib";
import type { Database } from "../../db/client.ts";
import { MIGRATION_LOCK_KEY, runMigrations } from "../../db/migrate.ts";
import type { Clock } from "../../lib/clock.ts";
import { BACKUP_FORMAT, BACKUP_FORMAT_VERSION, type BackupManifest, manifestMember } from "./backup-file.ts";
import { databaseLevel, upbeatVersion } from "./migration-level.ts";
import { partialNameOf } from "./pglite-backup.ts";

/** The commands `npm run backup` / `restore` run on PostgreSQL, for an operator without them here (and docs/operations.md). */
export const MANUAL_COMMANDS = {
  backup: 'pg_dump --format=custom --file=upbeat.pgdump "$DATABASE_URL"',
  restore: 'pg_restore --no-owner --exit-on-error --single-transaction --dbname="$DATABASE_URL" upbeat.pgdump',
} as const;

export class PgToolsMissing extends Error {
  constructor(tool: string, action: "backup" | "restore") {
    super(
      `${tool} is not on the PATH (install the PostgreSQL client tools of the server's version or newer, e.g. the postgresql-client package). Or run it where it is:\n  ${MANUAL_COMMANDS[action]}`,
    );
  }
}

export class RestoreRefused extends Error {}

export function hasTool(tool: "pg_dump" | "pg_restore"): boolean {
  return spawnSync(tool, ["--version"], { stdio: "ignore" }).status === 0;
}

/**
 * How the tools reach the database: the URL without its password on the command line (which other users can
 * read in the process list), the password in PGPASSWORD.
 */
function connection(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = "";
  return { dbname: parsed.toString(), env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) } };
}

/** Runs a tool; resolves when it exits 0, rejects with its error output otherwise. */
function run(
  tool: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  io: { stdin?: Readable; stdout?: Writable },
): Promise<void> {
  const child = spawn(tool, args, {
    env,
    stdio: [io.stdin ? "pipe" : "ignore", io.stdout ? "pipe" : "ignore", "pipe"],
  });
  let errors = "";
  child.stderr!.setEncoding("utf8").on("data", (d: string) => {
    errors = (errors + d).slice(-4_000);
  });
  const streams: Promise<void>[] = [];
  if (io.stdin) streams.push(pipeline(io.stdin, child.stdin!));
  if (io.stdout) streams.push(pipeline(child.stdout!, io.stdout));
  const exited = new Promise<void>((done, fail) => {
    child.once("error", fail);
    child.once("close", (code) =>
      code === 0 ? done() : fail(new Error(`${tool} failed (exit ${code}): ${errors.trim()}`)),
    );
  });
  // The tool's own failure explains more than the broken pipe it leaves behind, so it is the one reported.
  return Promise.allSettled([exited, ...streams]).then((results) => {
    const failed = results.find((r) => r.status === "rejected");
    if (failed) throw failed.reason;
  });
}

export async function postgresManifest(database: Database, clock: Clock): Promise<BackupManifest> {
  const [version] = await database.query<{ v: string }>("select current_setting('server_version') as v", []);
  return {
    format: BACKUP_FORMAT,
    formatVersion: BACKUP_FORMAT_VERSION,
    kind: "postgres",
    upbeatVersion: upbeatVersion(),
    migrations: await databaseLevel(database),
    createdAt: clock.now().toISOString(),
    serverVersion: version?.v ?? "unknown",
  };
}

/**
 * `pg_dump` of the database (a consistent snapshot, taken while the service runs) into `file`: the manifest, then
 * the custom-format archive gzipped (pg_dump's own compression off, so it is not compressed twice).
 */
export async function backupPostgres(database: Database, file: string, clock: Clock): Promise<BackupManifest> {
  if (!hasTool("pg_dump")) throw new PgToolsMissing("pg_dump", "backup");
  const manifest = await postgresManifest(database, clock);
  mkdirSync(dirname(resolve(file)), { recursive: true, mode: 0o700 });
  const partial = partialNameOf(file);
  try {
    const head = await open(partial, "w", 0o600);
    await head.write(manifestMember(manifest));
    await head.close();
    const { dbname, env } = connection(database.url);
    const gz = createGzip();
    const written = pipeline(gz, createWriteStream(partial, { flags: "a" }));
    await Promise.all([
      run("pg_dump", ["--format=custom", "--compress=0", `--dbname=${dbname}`], env, { stdout: gz }),
      written,
    ]);
    const synced = await open(partial, "r+");
    await synced.sync();
    await synced.close();
    await rename(partial, file);
  } catch (err) {
    await rm(partial, { force: true });
    throw err;
  }
  return manifest;
}

/** Anything in the database besides PostgreSQL's own schemas (an empty public schema is empty). */
async function relationCount(database: Pick<Database, "query">): Promise<number> {
  const [row] = await database.query<{ n: number | string }>(
    `select count(*) as n from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg\\_%'`,
    [],
  );
  return Number(row?.n ?? 0);
}

/** Drops what Upbeat keeps in the database: its tables in public, and the pg-boss and drizzle schemas. */
export async function dropUpbeatObjects(database: Pick<Database, "query">): Promise<void> {
  await database.query("drop schema if exists pgboss cascade", []);
  await database.query("drop schema if exists drizzle cascade", []);
  const found = await database.query<{ kind: string; name: string }>(
    `select case c.relkind when 'v' then 'view' when 'm' then 'materialized view' when 'S' then 'sequence'
              else 'table' end as kind, c.relname as name
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind in ('r', 'p', 'v', 'm', 'S')`,
    [],
  );
  for (const { kind, name } of found) {
    await database.query(`drop ${kind} if exists public."${name.replaceAll('"', '""')}" cascade`, []);
  }
  // The migrations' trigger functions (all named upbeat_…): a restore creates them again from the backup.
  const functions = await database.query<{ signature: string }>(
    `select format('%I.%I(%s)', n.nspname, p.proname, pg_get_function_identity_arguments(p.oid)) as signature
       from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname = 'public' and starts_with(p.proname, 'upbeat_')`,
    [],
  );
  for (const { signature } of functions) await database.query(`drop function if exists ${signature} cascade`, []);
}

/**
 * Restores `file` into the database `database` points at, then applies this version's migrations. The database
 * must be empty, or `clean` drops Upbeat's objects first; no other session may be connected (a running instance
 * would write into a half-restored database). pg_restore runs in one transaction: if it fails, nothing of the
 * backup is left (after `clean`, the database is then empty).
 *
 * From the first check to the end of pg_restore this session holds the lock every instance migrates under at start:
 * one starting meanwhile connects after the check, and would otherwise migrate beside pg_restore's transaction.
 * It waits instead, then finds the restored database (and migrates it, if it is the newer version).
 */
export async function restorePostgres(database: Database, file: string, opts: { clean: boolean }): Promise<void> {
  if (!hasTool("pg_restore")) throw new PgToolsMissing("pg_restore", "restore");
  const client = await database.pool!.connect();
  const session = {
    query: async <T>(text: string, params: unknown[]) => (await client.query(text, params)).rows as T[],
  };
  try {
    await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_KEY.toString()]);
    try {
      await restoreLocked(session, database.url, file, opts);
    } finally {
      await client.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY.toString()]);
    }
  } finally {
    client.release();
  }
  await runMigrations(database);
}

async function restoreLocked(
  session: Pick<Database, "query">,
  url: string,
  file: string,
  opts: { clean: boolean },
): Promise<void> {
  const [others] = await session.query<{ n: number | string }>(
    `select count(*) as n from pg_stat_activity
      where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend'`,
    [],
  );
  if (Number(others?.n ?? 0) > 0) {
    throw new RestoreRefused(
      `${others?.n} other session(s) are connected to this database: stop every Upbeat instance using it, then restore`,
    );
  }
  if ((await relationCount(session)) > 0) {
    if (!opts.clean) {
      throw new RestoreRefused(
        "the database is not empty: restore into a new empty database (createdb …, then point DATABASE_URL at it), or add --clean to drop Upbeat's tables in it first",
      );
    }
    await dropUpbeatObjects(session);
    const left = await relationCount(session);
    if (left > 0)
      throw new RestoreRefused(`--clean left ${left} objects that are not Upbeat's: restore into a new empty database`);
  }
  const { dbname, env } = connection(url);
  const gunzip = createGunzip();
  const reading = pipeline(createReadStream(file), gunzip);
  const restoring = run(
    "pg_restore",
    ["--no-owner", "--exit-on-error", "--single-transaction", `--dbname=${dbname}`],
    env,
    { stdin: gunzip },
  );
  const [restored, read] = await Promise.allSettled([restoring, reading]);
  if (restored.status === "rejected") throw restored.reason;
  if (read.status === "rejected") throw read.reason;
}
