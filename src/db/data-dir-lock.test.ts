import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import { openDatabase } from "./client.ts";
import { DataDirInUse, dataDirHolder, lockDataDir, lockFileOf } from "./data-dir-lock.ts";

describe("the embedded data directory's lock", () => {
  const root = mkdtempSync(join(tmpdir(), "upbeat-lock-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const writeLock = (dir: string, holder: { pid: number; host: string }, ageMs = 0) => {
    const file = lockFileOf(dir);
    writeFileSync(file, JSON.stringify({ ...holder, what: "server", since: "2026-03-02T09:00:00.000Z" }));
    const at = new Date(Date.now() - ageMs);
    utimesSync(file, at, at);
  };

  it("is held beside the directory while it is open, refusing a second opener, and released at close", async () => {
    const dir = join(root, "open");
    const snapshot = new Blob([readFileSync(inject("pgliteSnapshot"))]);
    const first = await openDatabase(`pglite://${dir}`, { holder: "server", loadDataDir: snapshot });
    expect(existsSync(join(dir, "PG_VERSION"))).toBe(true);
    expect(existsSync(join(dir, "upbeat.lock"))).toBe(false); // never inside: it would travel in a copy
    expect(dataDirHolder(dir)).toMatchObject({ pid: process.pid, host: hostname(), what: "server" });
    const second = openDatabase(`pglite://${dir}`, { holder: "backup", loadDataDir: snapshot });
    await expect(second).rejects.toBeInstanceOf(DataDirInUse);
    await expect(second).rejects.toThrow(`(server, pid ${process.pid} on ${hostname()}`);
    await first.close();
    expect(existsSync(lockFileOf(dir))).toBe(false);
    expect(dataDirHolder(dir)).toBeUndefined();
  }, 60_000);

  it("a lock left by a process that has exited is taken over", () => {
    const dir = join(root, "dead");
    const gone = spawnSync(process.execPath, ["-e", "0"]).pid!;
    writeLock(dir, { pid: gone, host: hostname() });
    expect(dataDirHolder(dir)).toBeUndefined();
    const lock = lockDataDir(dir, "server");
    expect(dataDirHolder(dir)).toMatchObject({ pid: process.pid });
    lock.release();
  });

  it("a lock naming this very pid that this process did not take (a container's pid 1 again) is stale", () => {
    const dir = join(root, "pid-one");
    writeLock(dir, { pid: process.pid, host: hostname() });
    expect(dataDirHolder(dir)).toBeUndefined();
    lockDataDir(dir, "server").release();
  });

  it("a lock from another host is held while its holder keeps it fresh, stale after 30 s", () => {
    const dir = join(root, "other-host");
    writeLock(dir, { pid: 1, host: "another-container" }, 5_000);
    expect(dataDirHolder(dir)).toMatchObject({ host: "another-container" });
    expect(() => lockDataDir(dir, "backup")).toThrow(DataDirInUse);
    writeLock(dir, { pid: 1, host: "another-container" }, 31_000);
    expect(dataDirHolder(dir)).toBeUndefined();
    lockDataDir(dir, "backup").release();
  });
});

describe("the lock while another process is taking it", () => {
  const root = mkdtempSync(join(tmpdir(), "upbeat-lock-taking-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("an empty lock file just created (its holder has not written it yet) is held, and only an old one is torn", () => {
    const dir = join(root, "being-written");
    const file = lockFileOf(dir);
    writeFileSync(file, "");
    expect(() => lockDataDir(dir, "backup")).toThrow(DataDirInUse);
    expect(readFileSync(file, "utf8")).toBe(""); // left to the process writing it
    const old = new Date(Date.now() - 31_000);
    utimesSync(file, old, old);
    expect(dataDirHolder(dir)).toBeUndefined();
    lockDataDir(dir, "backup").release();
  });

  it("a takeover guard left by a process that crashed while taking over does not keep the lock stale forever", () => {
    const dir = join(root, "guard-left");
    const gone = spawnSync(process.execPath, ["-e", "0"]).pid!;
    writeFileSync(lockFileOf(dir), JSON.stringify({ pid: gone, host: hostname(), what: "server", since: "" }));
    const guard = `${lockFileOf(dir)}.takeover`;
    writeFileSync(guard, "");
    const old = new Date(Date.now() - 11_000);
    utimesSync(guard, old, old);
    const lock = lockDataDir(dir, "server");
    expect(dataDirHolder(dir)).toMatchObject({ pid: process.pid });
    expect(existsSync(guard)).toBe(false);
    lock.release();
  });
});
