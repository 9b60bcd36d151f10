import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { gzipSync } from "node:zlib";
import { afterAll, describe, expect, inject, it } from "vitest";
import { testEnv } from "../../../test/support/app.ts";
import { freshDatabase, onPostgres } from "../../../test/support/database.ts";
import { loadConfig } from "../../config.ts";
import { openDatabase } from "../../db/client.ts";
import { ManualClock } from "../../lib/clock.ts";
import { backupCommand, restoreCommand } from "./backup.commands.ts";
import { type BackupManifest, manifestMember } from "./backup-file.ts";
import { buildLevel } from "./migration-level.ts";

const TSX = import.meta.resolve("tsx");
const BACKUP_CLI = new URL("./backup.cli.ts", import.meta.url).pathname;

const root = mkdtempSync(join(tmpdir(), "upbeat-refusals-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const clock = new ManualClock("2026-03-02T12:00:00Z");
const dataDir = join(root, "data");
const configFor = (url: string) => loadConfig(testEnv(url, "http://127.0.0.1:9/api/"), { dataDir });

/** A file with a manifest of our own making, followed by `payload` gzipped. */
function backupFile(name: string, manifest: Partial<BackupManifest>, payload = Buffer.from("x")): string {
  const file = join(root, name);
  const full: BackupManifest = {
    format: "upbeat-backup",
    formatVersion: 1,
    kind: "pglite",
    upbeatVersion: "0.1.0",
    migrations: buildLevel(),
    createdAt: clock.now().toISOString(),
    ...manifest,
  };
  writeFileSync(file, Buffer.concat([manifestMember(full), gzipSync(payload)]));
  return file;
}

describe(`npm run restore refuses what it cannot restore (${onPostgres ? "PostgreSQL" : "embedded database"})`, async () => {
  const database = await freshDatabase();
  afterAll(() => database.close());
  // On the embedded database the target is a directory of its own (the test database lives in memory).
  const url = onPostgres ? database.url : `pglite://${join(root, "target")}`;
  const restore = (file: string) => restoreCommand([file], configFor(url), clock);

  it("a file that is not an Upbeat backup, or a plain .tar.gz", async () => {
    const text = join(root, "notes.txt");
    writeFileSync(text, "hello");
    await expect(restore(text)).rejects.toThrow(`${text} is not an Upbeat backup`);
    const tarGz = join(root, "other.tar.gz");
    writeFileSync(tarGz, gzipSync(Buffer.alloc(1024)));
    await expect(restore(tarGz)).rejects.toThrow(`${tarGz} is not an Upbeat backup`);
    await expect(restore(join(root, "missing"))).rejects.toThrow("does not exist");
  });

  it("a backup of the other kind of database", async () => {
    const other = onPostgres ? "pglite" : "postgres";
    const file = backupFile("other-kind.backup", { kind: other });
    const message = onPostgres
      ? "is a backup of the embedded database (pglite://), and DATABASE_URL names PostgreSQL"
      : "is a backup of PostgreSQL, and DATABASE_URL names the embedded database (pglite://)";
    await expect(restore(file)).rejects.toThrow(message);
  });

  it("a backup made by a newer Upbeat, or in a newer format", async () => {
    const kind = onPostgres ? "postgres" : "pglite";
    const newer = backupFile("newer.backup", {
      kind,
      upbeatVersion: "9.0.0",
      migrations: { count: 99, last: "0099_future", when: buildLevel().when + 1 },
    });
    await expect(restore(newer)).rejects.toThrow(
      `was made by a newer Upbeat (9.0.0, migration 0099_future); this one knows migrations up to ${buildLevel().last}`,
    );
    const format = backupFile("format.backup", { kind, formatVersion: 2 });
    await expect(restore(format)).rejects.toThrow("is an Upbeat backup of format 2; this version reads format 1");
  });

  it.runIf(onPostgres)("while another session is connected to the database", async () => {
    await database.query("select 1", []); // the test's own connection stays open in its pool
    const file = backupFile("pg.backup", { kind: "postgres" });
    await expect(restoreCommand([file, "--clean"], configFor(url), clock)).rejects.toThrow(
      "other session(s) are connected to this database: stop every Upbeat instance using it",
    );
  });

  it.runIf(onPostgres)("without pg_dump / pg_restore on the PATH: the commands to run instead", async () => {
    const path = process.env.PATH;
    process.env.PATH = join(root, "no-tools");
    try {
      await expect(backupCommand(["--out", join(root, "x.backup")], configFor(url), clock)).rejects.toThrow(
        'pg_dump is not on the PATH (install the PostgreSQL client tools of the server\'s version or newer, e.g. the postgresql-client package). Or run it where it is:\n  pg_dump --format=custom --file=upbeat.pgdump "$DATABASE_URL"',
      );
    } finally {
      process.env.PATH = path;
    }
    expect(existsSync(join(root, "x.backup"))).toBe(false);
  });
});

describe("the embedded database while a server holds it (whatever database the suite runs on)", () => {
  // Inside the data folder, as the server's default (./data/pglite): the snapshots are beside it (./data/backups).
  const dir = join(dataDir, "pglite");
  const url = `pglite://${dir}`;

  it("backup and restore refuse, naming the holder, what to do and the latest daily snapshot", async () => {
    const server = await openDatabase(url, {
      holder: "server",
      loadDataDir: new Blob([readFileSync(inject("pgliteSnapshot"))]),
    });
    try {
      await server.query("create table kept (n int)", []);
      mkdirSync(join(dataDir, "backups"), { recursive: true });
      const latest = join(dataDir, "backups", "upbeat-2026-03-02.tar.gz");
      writeFileSync(join(dataDir, "backups", "upbeat-2026-03-01.tar.gz"), "");
      writeFileSync(latest, "");
      const out = join(root, "refused.backup");
      const refused = backupCommand(["--out", out], configFor(url), clock);
      await expect(refused).rejects.toThrow(`(server, pid ${process.pid} on`);
      await expect(refused).rejects.toThrow(
        `The embedded database allows one process at a time: stop the server, then run npm run backup again, or use the server's latest daily snapshot, ${latest} (of 2026-03-02).`,
      );
      expect(existsSync(out)).toBe(false);

      const file = backupFile("served.backup", { kind: "pglite" });
      await expect(restoreCommand([file], configFor(url), clock)).rejects.toThrow(
        "stop the server, then run npm run restore again.",
      );
      // Nothing was touched: the server's directory is still its own.
      expect(await server.query("select to_regclass('kept')::text as t", [])).toEqual([{ t: "kept" }]);
      expect(existsSync(`${dir}.restoring`)).toBe(false);
    } finally {
      await server.close();
    }
  }, 60_000);

  it("npm run backup, a process of its own, refuses while this one holds the directory and exits 1", async () => {
    const server = await openDatabase(url, { holder: "server" });
    try {
      const out = join(root, "cli.backup");
      const run = promisify(execFile)(process.execPath, ["--import", TSX, BACKUP_CLI, "--out", out], {
        // As beside a production server: only DATABASE_URL, none of the server's Slack or session secrets.
        env: { PATH: process.env.PATH ?? "", NODE_ENV: "production", DATABASE_URL: url },
        timeout: 60_000,
      });
      const failed = await run.then(
        () => undefined,
        (err: { code: number; stderr: string }) => err,
      );
      expect(failed?.code).toBe(1);
      expect(failed?.stderr).toContain(`is in use by another process (server, pid ${process.pid} on`);
      expect(failed?.stderr).toContain("stop the server, then run npm run backup again");
      expect(existsSync(out)).toBe(false);
    } finally {
      await server.close();
    }
  }, 90_000);
});
