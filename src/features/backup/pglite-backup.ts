import { existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { open, readFile, rename, rm } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { promisify } from "node:util";
import { gunzip, gzip } from "node:zlib";
import type { PGlite } from "@electric-sql/pglite";
import { type Database, openDatabase, PGLITE_VERSION } from "../../db/client.ts";
import { lockDataDir } from "../../db/data-dir-lock.ts";
import { runMigrations } from "../../db/migrate.ts";
import type { Clock } from "../../lib/clock.ts";
import { BACKUP_FORMAT, BACKUP_FORMAT_VERSION, type BackupManifest, manifestMember } from "./backup-file.ts";
import { databaseLevel, upbeatVersion } from "./migration-level.ts";

/**
 * A consistent copy of the data directory, as a tar. PGlite is one WebAssembly PostgreSQL running in this process:
 * while the dump holds its transaction lock, no statement runs and no transaction is open, and every committed
 * write is already in the files (PGlite writes through), so the copy is the database as of that moment. Every
 * query waits meanwhile: about 0.25 s for a new instance's 40 MB (measured), longer as data grows.
 */
export async function dumpDataDir(pglite: PGlite): Promise<Buffer> {
  const blob = await pglite._runExclusiveTransaction(() => pglite.dumpDataDir("none"));
  return Buffer.from(await blob.arrayBuffer());
}

export async function pgliteManifest(database: Database, clock: Clock): Promise<BackupManifest> {
  return {
    format: BACKUP_FORMAT,
    formatVersion: BACKUP_FORMAT_VERSION,
    kind: "pglite",
    upbeatVersion: upbeatVersion(),
    migrations: await databaseLevel(database),
    createdAt: clock.now().toISOString(),
    pgliteVersion: PGLITE_VERSION,
  };
}

/** The name a file is written under before it is complete: never taken for a backup or a snapshot. */
export function partialNameOf(file: string): string {
  return join(dirname(file), `.${basename(file)}.${process.pid}.partial`);
}

/** Writes `parts` to `file` through a temporary name, synced and renamed, so a half-written file never has its name. */
export async function writeAtomically(file: string, parts: readonly Buffer[]): Promise<void> {
  // A folder made for it (the snapshots' <data>/backups) is the owner's alone, like the file and the database.
  mkdirSync(dirname(resolve(file)), { recursive: true, mode: 0o700 });
  const partial = partialNameOf(file);
  const handle = await open(partial, "w", 0o600);
  try {
    for (const part of parts) await handle.write(part);
    await handle.sync();
  } catch (err) {
    await handle.close();
    await rm(partial, { force: true });
    throw err;
  }
  await handle.close();
  await rename(partial, file);
}

/** A backup of the open embedded database into `file` (the server's daily snapshot, or the CLI's copy). */
export async function backupPglite(database: Database, file: string, clock: Clock): Promise<BackupManifest> {
  const manifest = await pgliteManifest(database, clock);
  const tar = await dumpDataDir(database.pglite!);
  // Compressed after the dump, outside PGlite's lock: queries run again while zlib works on its own thread.
  await writeAtomically(file, [manifestMember(manifest), await promisify(gzip)(tar)]);
  return manifest;
}

export interface PgliteRestore {
  /** Where the data directory that was replaced now is (absent when there was none). */
  previous?: string;
}

/**
 * Replaces the data directory `dir` with the backup in `file`. The new directory is built beside it and migrated
 * first; only then is the old one moved aside (kept: its path is returned) and the new one moved in. The lock on
 * `dir` is held throughout, so this refuses (DataDirInUse) while the server runs, and a server starting meanwhile
 * is refused. Nothing changes if any step before the swap fails.
 */
export async function restorePglite(dir: string, file: string, clock: Clock): Promise<PgliteRestore> {
  const target = resolve(dir);
  const lock = lockDataDir(target, "restore");
  const building = `${target}.restoring`;
  try {
    const tar = await promisify(gunzip)(await readFile(file));
    rmSync(building, { recursive: true, force: true });
    const restored = await openDatabase(`pglite://${building}`, { loadDataDir: new Blob([tar]), holder: "restore" });
    try {
      // A backup from an older version gets this version's migrations, as the server would at start.
      await runMigrations(restored);
    } finally {
      await restored.close();
    }
    let previous: string | undefined;
    if (existsSync(join(target, "PG_VERSION"))) {
      previous = `${target}.before-restore-${clock.now().toISOString().replace(/[:.]/g, "-")}`;
      renameSync(target, previous);
    } else {
      rmSync(target, { recursive: true, force: true });
    }
    try {
      renameSync(building, target);
    } catch (err) {
      if (previous) renameSync(previous, target);
      throw err;
    }
    return previous ? { previous } : {};
  } finally {
    rmSync(building, { recursive: true, force: true });
    lock.release();
  }
}
