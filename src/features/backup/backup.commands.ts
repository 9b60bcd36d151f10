import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import type { Config } from "../../config.ts";
import { openDatabase } from "../../db/client.ts";
import { DataDirInUse, dataDirHolder } from "../../db/data-dir-lock.ts";
import type { Clock } from "../../lib/clock.ts";
import { type BackupManifest, checkWhole, NotABackup, readManifest } from "./backup-file.ts";
import { buildLevel } from "./migration-level.ts";
import { backupPglite, restorePglite } from "./pglite-backup.ts";
import { backupPostgres, PgToolsMissing, RestoreRefused, restorePostgres } from "./postgres-backup.ts";
import { listSnapshots, snapshotDir } from "./snapshots.ts";

/** `npm run backup` and `npm run restore`, as functions of their arguments (the CLI files print and exit). */

export class CommandFailed extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

export const BACKUP_HELP = `npm run backup -- --out FILE

Copies the database DATABASE_URL names into FILE (a gzip file that says what it holds).
  Embedded database (pglite://DIR): refused while the server runs (the directory belongs to one process): stop
    it first, or take the server's latest daily snapshot from <data>/backups instead.
  PostgreSQL: pg_dump (custom format), while the service runs; pg_dump must be on the PATH.
`;

export const RESTORE_HELP = `npm run restore -- FILE [--clean]

Replaces the database DATABASE_URL names with the backup in FILE (from npm run backup, or a daily snapshot),
then applies this version's migrations. Stop every Upbeat instance first.
  Embedded database: the data directory is rebuilt beside the current one, which is then moved aside (kept, its
    path printed) and replaced.
  PostgreSQL: pg_restore (on the PATH) into an empty database. A database that is not empty is refused, unless
    --clean: Upbeat's tables, and the pgboss and drizzle schemas, are dropped first.
`;

function pgliteDir(url: string): string | undefined {
  if (!url.startsWith("pglite://")) return undefined;
  const where = url.slice("pglite://".length);
  if (where === "" || where === "memory")
    throw new CommandFailed("DATABASE_URL is an in-memory database: nothing to copy");
  return resolve(where);
}

function inUse(err: DataDirInUse, dir: string, action: "backup" | "restore"): CommandFailed {
  const latest = listSnapshots(snapshotDir(dir))[0];
  const snapshot =
    action === "backup"
      ? latest
        ? `, or use the server's latest daily snapshot, ${latest.file} (of ${latest.day})`
        : `, or use the server's daily snapshots in ${snapshotDir(dir)} (none taken yet)`
      : "";
  return new CommandFailed(
    `${err.message}. The embedded database allows one process at a time: stop the server, then run npm run ${action} again${snapshot}.`,
  );
}

export async function backupCommand(
  argv: string[],
  config: Pick<Config, "databaseUrl">,
  clock: Clock,
): Promise<string> {
  const { values } = parseArgs({ args: argv, options: { out: { type: "string" }, help: { type: "boolean" } } });
  if (values.help) return BACKUP_HELP;
  if (!values.out) throw new CommandFailed(`--out FILE is required\n\n${BACKUP_HELP}`, 2);
  const out = resolve(values.out);
  const dir = pgliteDir(config.databaseUrl);
  let manifest: BackupManifest;
  if (dir) {
    if (!existsSync(join(dir, "PG_VERSION"))) throw new CommandFailed(`there is no embedded database in ${dir}`);
    const holder = dataDirHolder(dir);
    if (holder) throw inUse(new DataDirInUse(dir, holder), dir, "backup");
    let database: Awaited<ReturnType<typeof openDatabase>>;
    try {
      database = await openDatabase(config.databaseUrl, { holder: "backup" });
    } catch (err) {
      if (err instanceof DataDirInUse) throw inUse(err, dir, "backup");
      throw err;
    }
    try {
      manifest = await backupPglite(database, out, clock);
    } finally {
      await database.close();
    }
  } else {
    const database = await openDatabase(config.databaseUrl, { poolMax: 1 });
    try {
      manifest = await backupPostgres(database, out, clock);
    } catch (err) {
      if (err instanceof PgToolsMissing) throw new CommandFailed(err.message);
      throw err;
    } finally {
      await database.close();
    }
  }
  return `backup written: ${out} (${describe(manifest)})\n`;
}

function describe(m: BackupManifest): string {
  const kind = m.kind === "pglite" ? "embedded database" : `PostgreSQL ${m.serverVersion}`;
  return `${kind}, Upbeat ${m.upbeatVersion}, migration ${m.migrations.last || "none"}, made ${m.createdAt}`;
}

const KIND_NAMES = { pglite: "the embedded database (pglite://)", postgres: "PostgreSQL" } as const;

export async function restoreCommand(
  argv: string[],
  config: Pick<Config, "databaseUrl">,
  clock: Clock,
): Promise<string> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { clean: { type: "boolean" }, help: { type: "boolean" } },
  });
  if (values.help) return RESTORE_HELP;
  if (positionals.length !== 1) throw new CommandFailed(`one backup FILE is required\n\n${RESTORE_HELP}`, 2);
  const file = resolve(positionals[0]!);
  if (!existsSync(file)) throw new CommandFailed(`${file} does not exist`);
  let manifest: BackupManifest;
  try {
    manifest = await readManifest(file);
  } catch (err) {
    if (err instanceof NotABackup) throw new CommandFailed(err.message);
    throw err;
  }
  const dir = pgliteDir(config.databaseUrl);
  const target = dir ? "pglite" : "postgres";
  if (manifest.kind !== target) {
    throw new CommandFailed(
      `${file} is a backup of ${KIND_NAMES[manifest.kind]}, and DATABASE_URL names ${KIND_NAMES[target]}: restore it where it came from`,
    );
  }
  const ours = buildLevel();
  if (manifest.migrations.when > ours.when) {
    throw new CommandFailed(
      `${file} was made by a newer Upbeat (${manifest.upbeatVersion}, migration ${manifest.migrations.last}); this one knows migrations up to ${ours.last}: restore it with that version or newer`,
    );
  }
  try {
    await checkWhole(file);
  } catch (err) {
    if (err instanceof NotABackup) throw new CommandFailed(err.message);
    throw err;
  }
  const level = `migration ${manifest.migrations.last || "none"} → ${ours.last}`;
  if (dir) {
    try {
      const { previous } = await restorePglite(dir, file, clock);
      const kept = previous ? `; the data it replaced is kept in ${previous} (delete it when no longer needed)` : "";
      return `restored ${file} into ${dir} (${level})${kept}\n`;
    } catch (err) {
      if (err instanceof DataDirInUse) throw inUse(err, dir, "restore");
      throw err;
    }
  }
  const database = await openDatabase(config.databaseUrl, { poolMax: 1 });
  try {
    await restorePostgres(database, file, { clean: values.clean ?? false });
  } catch (err) {
    if (err instanceof PgToolsMissing || err instanceof RestoreRefused) throw new CommandFailed(err.message);
    throw err;
  } finally {
    await database.close();
  }
  return `restored ${file} (${level})\n`;
}
