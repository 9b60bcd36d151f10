import { existsSync, readdirSync, rmSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { Deps } from "../../deps.ts";
import { type StopTicker, startTicker } from "../../jobs/ticker.ts";
import { backupPglite } from "./pglite-backup.ts";

/**
 * Daily snapshots of the embedded database, taken by the server: it is the one process that can read a consistent
 * copy while it runs. One file per UTC day, `upbeat-YYYY-MM-DD.tar.gz` in <data>/backups; the last BACKUP_KEEP are
 * kept. The file is the day's claim: the embedded database has one process (its lock sees to it), so nothing else
 * can take the day, and a claim row in the database would travel inside the very snapshot it claims.
 */

const SNAPSHOT_NAME = /^upbeat-(\d{4}-\d{2}-\d{2})\.tar\.gz$/;
/** The snapshot is taken at this UTC hour (a quiet time for most teams: every query waits while it is read), or at
 * the first check after it. */
export const SNAPSHOT_UTC_HOUR = 2;
export const SNAPSHOT_TICK_MS = 3600_000;
/** The first check waits this long after start, so starting (and its benchmarks) never waits on a snapshot. */
const FIRST_CHECK_DELAY_MS = 300_000;

/**
 * Beside the embedded database's own directory (`./data/pglite` → `./data/backups`), so a volume that holds the
 * database (a container's /data) holds its snapshots too, wherever DATABASE_URL puts it.
 */
export function snapshotDir(pgliteDir: string): string {
  return resolve(dirname(resolve(pgliteDir)), "backups");
}

export interface Snapshot {
  day: string;
  file: string;
}

/** The complete snapshots in `dir`, newest first (a file still being written has another name and is not one). */
export function listSnapshots(dir: string): Snapshot[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .map((name) => ({ name, day: SNAPSHOT_NAME.exec(name)?.[1] }))
    .filter((s): s is { name: string; day: string } => s.day !== undefined)
    .map((s) => ({ day: s.day, file: join(dir, s.name) }))
    .sort((a, b) => b.day.localeCompare(a.day));
}

/**
 * Files a snapshot left half-written when its process stopped (older than an hour: none is being written now). Their
 * age is the file system's, on its own clock, not business time.
 */
function removeAbandoned(dir: string): void {
  for (const name of readdirSync(dir)) {
    if (!name.startsWith(".") || !name.endsWith(".partial")) continue;
    const file = join(dir, name);
    if (Date.now() - statSync(file).mtimeMs > 3600_000) rmSync(file, { force: true });
  }
}

export type SnapshotOutcome = { taken: Snapshot; removed: string[] } | { skipped: "not due" | "taken already" | "off" };

/**
 * Takes today's snapshot if it is due and not yet taken, then keeps the newest `config.backupKeep`. The day and
 * the due hour come from the injected clock.
 */
export async function snapshotTick(
  deps: Pick<Deps, "config" | "database" | "clock" | "log">,
): Promise<SnapshotOutcome> {
  const keep = deps.config.backupKeep;
  if (keep === 0 || deps.database.kind !== "pglite" || !deps.database.pglite?.dataDir) return { skipped: "off" };
  const now = deps.clock.now();
  if (now.getUTCHours() < SNAPSHOT_UTC_HOUR) return { skipped: "not due" };
  const day = now.toISOString().slice(0, 10);
  const dir = snapshotDir(deps.database.pglite.dataDir);
  if (listSnapshots(dir).some((s) => s.day === day)) return { skipped: "taken already" };
  const file = join(dir, `upbeat-${day}.tar.gz`);
  const started = Date.now();
  await backupPglite(deps.database, file, deps.clock);
  removeAbandoned(dir);
  const removed = listSnapshots(dir)
    .slice(keep)
    .map((s) => {
      rmSync(s.file, { force: true });
      return s.file;
    });
  deps.log.info({ file, ms: Date.now() - started, removed: removed.length }, "daily snapshot taken");
  return { taken: { day, file }, removed };
}

/** Checks every hour, the first time a few minutes after start; nothing at all with BACKUP_KEEP=0 or PostgreSQL. */
export function startSnapshotScheduler(deps: Deps): StopTicker {
  if (deps.config.backupKeep === 0 || deps.database.kind !== "pglite" || !deps.database.pglite?.dataDir) {
    return () => Promise.resolve();
  }
  let stop: StopTicker | undefined;
  const first = setTimeout(() => {
    stop = startTicker(deps.log, "daily snapshot", SNAPSHOT_TICK_MS, () => snapshotTick(deps));
  }, FIRST_CHECK_DELAY_MS);
  first.unref();
  return () => {
    clearTimeout(first);
    return stop?.() ?? Promise.resolve();
  };
}
