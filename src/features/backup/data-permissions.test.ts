import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import { openDatabase } from "../../db/client.ts";
import { ManualClock } from "../../lib/clock.ts";
import { backupPglite } from "./pglite-backup.ts";
import { snapshotDir } from "./snapshots.ts";

/** The permission bits for the group and everyone else: 0 when only the owner can read, write or enter. */
const othersBits = (path: string) => statSync(path).mode & 0o077;

describe("who can read the embedded database and its snapshots", () => {
  const root = mkdtempSync(join(tmpdir(), "upbeat-perms-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const snapshot = () => new Blob([readFileSync(inject("pgliteSnapshot"))]);

  it("a new data directory is the owner's alone (PGlite writes its files readable and writable by everyone)", async () => {
    const dir = join(root, "new", "data", "pglite");
    const database = await openDatabase(`pglite://${dir}`, { loadDataDir: snapshot() });
    try {
      expect(othersBits(dir)).toBe(0);
      expect(othersBits(join(root, "new", "data"))).toBe(0);
      // Its snapshots (encrypted bot tokens, names, e-mail addresses, answers) too.
      const file = join(snapshotDir(dir), "upbeat-2026-03-02.tar.gz");
      await backupPglite(database, file, new ManualClock("2026-03-02T02:00:00Z"));
      expect(othersBits(snapshotDir(dir))).toBe(0);
      expect(othersBits(file)).toBe(0);
    } finally {
      await database.close();
    }
  }, 60_000);

  it("an existing data directory open to others is closed to them when it is opened", async () => {
    const dir = join(root, "old", "pglite");
    const first = await openDatabase(`pglite://${dir}`, { loadDataDir: snapshot() });
    await first.close();
    chmodSync(dir, 0o755); // as every earlier version left it
    const again = await openDatabase(`pglite://${dir}`);
    try {
      expect(othersBits(dir)).toBe(0);
    } finally {
      await again.close();
    }
  }, 60_000);
});
