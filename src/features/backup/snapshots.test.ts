import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pino from "pino";
import { afterAll, describe, expect, inject, it } from "vitest";
import { testEnv } from "../../../test/support/app.ts";
import { freshDatabase } from "../../../test/support/database.ts";
import { type Config, loadConfig } from "../../config.ts";
import { openDatabase } from "../../db/client.ts";
import { ManualClock } from "../../lib/clock.ts";
import { restoreCommand } from "./backup.commands.ts";
import { readManifest } from "./backup-file.ts";
import { snapshotTick } from "./snapshots.ts";

const root = mkdtempSync(join(tmpdir(), "upbeat-snapshots-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const log = pino({ level: "silent" });

function configFor(url: string, dataDir: string, backupKeep: string): Config {
  return loadConfig({ ...testEnv(url, "http://127.0.0.1:9/api/"), BACKUP_KEEP: backupKeep }, { dataDir });
}

/** The embedded database in a directory, as the server runs it (snapshots are of the embedded database only). */
async function servedDatabase(name: string) {
  // `<name>-data/pglite`, as the server's default `./data/pglite`: its snapshots go to `<name>-data/backups`.
  return openDatabase(`pglite://${join(root, `${name}-data`, "pglite")}`, {
    holder: "server",
    loadDataDir: new Blob([readFileSync(inject("pgliteSnapshot"))]),
  });
}

const files = (dir: string) => (existsSync(dir) ? readdirSync(dir).sort() : []);

describe("daily snapshots of the embedded database", () => {
  it("one per UTC day from 02:00, the newest BACKUP_KEEP kept, each restorable with npm run restore", async () => {
    const database = await servedDatabase("daily");
    const dataDir = join(root, "daily-data");
    const backups = join(dataDir, "backups");
    const clock = new ManualClock("2026-03-02T01:59:00Z");
    const deps = { config: configFor(database.url, dataDir, "3"), database, clock, log };
    try {
      await database.query("create table marks (day text primary key)", []);
      expect(await snapshotTick(deps)).toEqual({ skipped: "not due" });
      expect(files(backups)).toEqual([]);

      clock.set("2026-03-02T02:00:30Z");
      await database.query("insert into marks values ('2026-03-02')", []);
      const taken = await snapshotTick(deps);
      expect(taken).toEqual({
        taken: { day: "2026-03-02", file: join(backups, "upbeat-2026-03-02.tar.gz") },
        removed: [],
      });
      expect(await readManifest(join(backups, "upbeat-2026-03-02.tar.gz"))).toMatchObject({
        kind: "pglite",
        createdAt: "2026-03-02T02:00:30.000Z",
      });
      clock.set("2026-03-02T23:59:00Z");
      expect(await snapshotTick(deps)).toEqual({ skipped: "taken already" });

      for (const day of ["2026-03-03", "2026-03-04", "2026-03-05", "2026-03-06"]) {
        clock.set(`${day}T05:00:00Z`);
        await database.query("insert into marks values ($1)", [day]);
        expect(await snapshotTick(deps)).toMatchObject({ taken: { day } });
      }
      expect(files(backups)).toEqual([
        "upbeat-2026-03-04.tar.gz",
        "upbeat-2026-03-05.tar.gz",
        "upbeat-2026-03-06.tar.gz",
      ]);
    } finally {
      await database.close();
    }

    // A snapshot is a backup like any other: the data as of its day, nothing later.
    const target = `pglite://${join(root, "restored")}`;
    const printed = await restoreCommand(
      [join(backups, "upbeat-2026-03-05.tar.gz")],
      configFor(target, dataDir, "3"),
      new ManualClock("2026-03-07T10:00:00Z"),
    );
    expect(printed).toContain("restored");
    const restored = await openDatabase(target);
    try {
      expect(await restored.query("select day from marks order by day", [])).toEqual(
        ["2026-03-02", "2026-03-03", "2026-03-04", "2026-03-05"].map((day) => ({ day })),
      );
    } finally {
      await restored.close();
    }
  }, 120_000);

  it("a snapshot taken while transactions write holds each of them whole or not at all", async () => {
    const database = await servedDatabase("busy");
    const dataDir = join(root, "busy-data");
    const clock = new ManualClock("2026-03-10T03:00:00Z");
    try {
      await database.query("create table pairs_a (n int primary key)", []);
      await database.query("create table pairs_b (n int primary key)", []);
      let written = 0;
      const writing = (async () => {
        for (let n = 0; n < 150; n++) {
          await database.pglite!.transaction(async (tx) => {
            await tx.query("insert into pairs_a values ($1)", [n]);
            await tx.query("insert into pairs_b values ($1)", [n]);
          });
          written = n + 1;
        }
      })();
      while (written < 20) await new Promise((r) => setTimeout(r, 5));
      const taken = await snapshotTick({ config: configFor(database.url, dataDir, "7"), database, clock, log });
      await writing;
      expect(taken).toMatchObject({ taken: { day: "2026-03-10" } });
    } finally {
      await database.close();
    }
    const target = `pglite://${join(root, "busy-restored")}`;
    await restoreCommand(
      [join(dataDir, "backups", "upbeat-2026-03-10.tar.gz")],
      configFor(target, dataDir, "7"),
      clock,
    );
    const restored = await openDatabase(target);
    try {
      const [counts] = await restored.query<{ a: number; b: number }>(
        "select (select count(*)::int from pairs_a) as a, (select count(*)::int from pairs_b) as b",
        [],
      );
      expect(counts!.a).toBeGreaterThanOrEqual(20);
      expect(counts!.b).toBe(counts!.a);
    } finally {
      await restored.close();
    }
  }, 60_000);

  it("a half-written snapshot is neither today's nor one of those kept, and is cleared once abandoned", async () => {
    const database = await servedDatabase("partial");
    const dataDir = join(root, "partial-data");
    const backups = join(dataDir, "backups");
    const clock = new ManualClock("2026-03-09T03:00:00Z");
    const deps = { config: configFor(database.url, dataDir, "2"), database, clock, log };
    try {
      mkdirSync(backups, { recursive: true });
      writeFileSync(join(backups, "upbeat-2026-03-07.tar.gz"), "");
      writeFileSync(join(backups, "upbeat-2026-03-08.tar.gz"), "");
      // A process stopped while writing today's (an hour ago), and one is being written right now.
      const abandoned = join(backups, ".upbeat-2026-03-09.tar.gz.4242.partial");
      writeFileSync(abandoned, "half");
      const hourAgo = new Date(Date.now() - 3_700_000);
      utimesSync(abandoned, hourAgo, hourAgo);
      writeFileSync(join(backups, ".upbeat-2026-03-09.tar.gz.4343.partial"), "half");

      expect(await snapshotTick(deps)).toMatchObject({ taken: { day: "2026-03-09" } });
      expect(files(backups)).toEqual([
        ".upbeat-2026-03-09.tar.gz.4343.partial",
        "upbeat-2026-03-08.tar.gz",
        "upbeat-2026-03-09.tar.gz",
      ]);
      expect((await readManifest(join(backups, "upbeat-2026-03-09.tar.gz"))).kind).toBe("pglite");
    } finally {
      await database.close();
    }
  }, 60_000);

  it("none with BACKUP_KEEP=0, nor on PostgreSQL or in memory", async () => {
    const database = await servedDatabase("off");
    const dataDir = join(root, "off-data");
    const clock = new ManualClock("2026-03-09T03:00:00Z");
    try {
      expect(await snapshotTick({ config: configFor(database.url, dataDir, "0"), database, clock, log })).toEqual({
        skipped: "off",
      });
    } finally {
      await database.close();
    }
    // The suite's own database: PostgreSQL, or PGlite in memory.
    const other = await freshDatabase();
    try {
      expect(await snapshotTick({ config: configFor(other.url, dataDir, "7"), database: other, clock, log })).toEqual({
        skipped: "off",
      });
    } finally {
      await other.close();
    }
    expect(existsSync(join(dataDir, "backups"))).toBe(false);
  }, 60_000);
});
