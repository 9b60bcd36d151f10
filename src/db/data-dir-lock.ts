import { closeSync, openSync, readFileSync, rmSync, statSync, utimesSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import { resolve } from "node:path";

/**
 * The embedded database belongs to one process. PGlite does not enforce it: measured with 0.5.16, a second process
 * opens a data directory in use without an error, and the first one's later writes are lost. So every process that
 * opens a directory (the server, `npm run backup`/`restore`/`migrate`/`maintenance`) holds `<dir>.lock` beside it
 * (never inside: the lock must not travel in a copy of the directory).
 */

/** The holder refreshes the lock's time this often; a lock from another host counts as held while it is fresh. */
const HEARTBEAT_MS = 10_000;
/** A lock from another host (another container on the same volume) not refreshed for this long is stale. */
const STALE_MS = 30_000;

export interface LockHolder {
  pid: number;
  host: string;
  /** What holds it: "server", "backup", "restore", … */
  what: string;
  since: string;
}

export class DataDirInUse extends Error {
  constructor(
    readonly dir: string,
    readonly holder: LockHolder,
  ) {
    super(
      `the embedded database ${dir} is in use by another process (${holder.what}, pid ${holder.pid} on ${holder.host}, since ${holder.since})`,
    );
  }
}

export interface DataDirLock {
  readonly file: string;
  release(): void;
}

/** Locks this process holds, by file: a lock naming this pid but not listed here is left from an earlier process. */
const held = new Map<string, string>();

export function lockFileOf(dir: string): string {
  return `${resolve(dir)}.lock`;
}

/** The process holding the directory, if a live one does. */
export function dataDirHolder(dir: string): LockHolder | undefined {
  return readLock(lockFileOf(dir))?.holder;
}

/** The lock file's text, and its holder if that one is live (undefined: no lock file). */
function readLock(file: string): { text: string; holder: LockHolder | undefined } | undefined {
  let text: string;
  let mtimeMs: number;
  try {
    text = readFileSync(file, "utf8");
    mtimeMs = statSync(file).mtimeMs;
  } catch {
    return undefined;
  }
  let holder: LockHolder;
  try {
    holder = JSON.parse(text) as LockHolder;
  } catch {
    // Empty or cut short: a process that has just created it and not written it yet (taking it over now would give
    // the directory two holders), or one that crashed mid-write long ago (nobody holds it).
    if (Date.now() - mtimeMs >= STALE_MS) return { text, holder: undefined };
    const writing = {
      pid: 0,
      host: "unknown",
      what: "a process taking the lock now",
      since: new Date(mtimeMs).toISOString(),
    };
    return { text, holder: writing };
  }
  return { text, holder: isLive(holder, file, text, mtimeMs) ? holder : undefined };
}

/** A takeover guard older than this was left by a process that crashed while taking over (it takes microseconds). */
const GUARD_STALE_MS = 10_000;

/**
 * Removes the lock file if it still is the stale one read as `stale`. Processes taking over the same stale lock at
 * once each judged it stale: a plain removal could remove the fresh lock another one had just written. So removing
 * takes `<lock>.takeover` (exclusive create) and checks again under it; only its holder removes a lock file, and a
 * lock file is only ever created where there is none, so what it finds unchanged is still the stale one.
 */
function removeIfStill(file: string, stale: string): void {
  const guard = `${file}.takeover`;
  let fd: number;
  try {
    fd = openSync(guard, "wx", 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    // Another process is taking it over this instant (the next attempt sees who won), or one crashed doing so.
    try {
      if (Date.now() - statSync(guard).mtimeMs > GUARD_STALE_MS) rmSync(guard, { force: true });
    } catch {
      // Gone already.
    }
    pause(2);
    return;
  }
  closeSync(fd);
  try {
    let now: string | undefined;
    try {
      now = readFileSync(file, "utf8");
    } catch {
      now = undefined;
    }
    if (now === stale) rmSync(file, { force: true });
  } finally {
    rmSync(guard, { force: true });
  }
}

/** Waits `ms` without returning to the event loop (taking the lock is synchronous, and this wait is a few ms). */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Attempts to create the lock file before the last EEXIST is reported as it is (each found a lock nobody holds). */
const TAKEOVER_ATTEMPTS = 100;

function isLive(holder: LockHolder, file: string, text: string, mtimeMs: number): boolean {
  if (holder.host !== hostname()) return Date.now() - mtimeMs < STALE_MS;
  // In a container the server is often pid 1 at every start: our own pid in a lock we did not take is stale.
  if (holder.pid === process.pid) return held.get(file) === text;
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to another user.
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Takes the directory's lock, or throws DataDirInUse naming the live holder. A lock left by a process that is gone
 * is taken over. Released by `release()` or, failing that, when this process exits.
 */
export function lockDataDir(dir: string, what: string): DataDirLock {
  const file = lockFileOf(dir);
  const text = JSON.stringify({ pid: process.pid, host: hostname(), what, since: new Date().toISOString() });
  for (let attempt = 1; ; attempt++) {
    try {
      const fd = openSync(file, "wx", 0o600);
      try {
        writeSync(fd, text);
      } finally {
        closeSync(fd);
      }
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const found = readLock(file);
      if (found?.holder) throw new DataDirInUse(resolve(dir), found.holder);
      if (attempt >= TAKEOVER_ATTEMPTS) throw err;
      if (found) removeIfStill(file, found.text);
    }
  }
  held.set(file, text);
  const heartbeat = setInterval(() => {
    const now = new Date();
    try {
      utimesSync(file, now, now);
    } catch {
      // Removed by hand: the next opener decides; nothing to do here.
    }
  }, HEARTBEAT_MS);
  heartbeat.unref();
  const onExit = () => releaseIfOurs(file, text);
  process.once("exit", onExit);
  return {
    file,
    release() {
      clearInterval(heartbeat);
      process.removeListener("exit", onExit);
      releaseIfOurs(file, text);
    },
  };
}

function releaseIfOurs(file: string, text: string): void {
  held.delete(file);
  try {
    if (readFileSync(file, "utf8") === text) rmSync(file, { force: true });
  } catch {
    // Already gone.
  }
}
