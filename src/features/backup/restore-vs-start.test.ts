import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { testEnv } from "../../../test/support/app.ts";
import { backupSource } from "../../../test/support/backup-target.ts";
import { onPostgres } from "../../../test/support/database.ts";
import { tableContents } from "../../../test/support/table-contents.ts";
import { loadConfig } from "../../config.ts";
import { type Database, openDatabase } from "../../db/client.ts";
import { DataDirInUse, dataDirHolder } from "../../db/data-dir-lock.ts";
import { runMigrations } from "../../db/migrate.ts";
import { ManualClock } from "../../lib/clock.ts";
import { backupCommand, restoreCommand } from "./backup.commands.ts";

const root = mkdtempSync(join(tmpdir(), "upbeat-restore-start-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const clock = new ManualClock("2026-03-02T12:00:00Z");
const configFor = (url: string) => loadConfig(testEnv(url, "http://127.0.0.1:9/api/"), { dataDir: join(root, "data") });

async function contentsAt(url: string): Promise<Record<string, string[]>> {
  const database = await openDatabase(url, { poolMax: 1 });
  try {
    return await tableContents(database);
  } finally {
    await database.close();
  }
}

/** A database with enough rows that pg_restore takes a while to load them. */
async function populated(): Promise<Database> {
  const database = await backupSource(root);
  await database.query(
    `insert into installations (team_id, team_name, bot_user_id, bot_token_enc, scopes, installer_user_id, installed_at, updated_at)
     select 'T' || i, 'Team ' || i, 'U0BOT', repeat('x', 200), 'chat:write', '', now(), now()
       from generate_series(1, 100000) as i`,
    [],
  );
  return database;
}

describe(`a server starting while npm run restore runs (${onPostgres ? "PostgreSQL" : "embedded database"})`, () => {
  it("waits for the restore (or is refused) and never writes into a half-restored database", async () => {
    const database = await populated();
    const url = database.url;
    await database.close();
    const file = join(root, "populated.backup");
    await backupCommand(["--out", file], configFor(url), clock);
    const before = await contentsAt(url);

    const restoring = restoreCommand(onPostgres ? [file, "--clean"] : [file], configFor(url), clock);
    if (onPostgres) {
      // Watched from another database, so the restore does not count this session as an instance.
      const watcher = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await watcher.connect();
      const dbName = new URL(url).pathname.slice(1);
      try {
        for (let waited = 0; ; waited += 5) {
          const { rows } = await watcher.query(
            "select 1 from pg_stat_activity where datname = $1 and application_name = 'pg_restore'",
            [dbName],
          );
          if (rows.length > 0) break;
          if (waited > 20_000) throw new Error("pg_restore was never seen running");
          await sleep(5);
        }
      } finally {
        await watcher.end();
      }
      // A server starting now migrates first, as src/main.ts does.
      const server = await openDatabase(url, { poolMax: 1 });
      try {
        await runMigrations(server);
      } finally {
        await server.close();
      }
    } else {
      const dir = url.slice("pglite://".length);
      for (let waited = 0; dataDirHolder(dir)?.what !== "restore"; waited += 5) {
        if (waited > 20_000) throw new Error("the restore never held the directory");
        await sleep(5);
      }
      await expect(openDatabase(url, { holder: "server" })).rejects.toBeInstanceOf(DataDirInUse);
    }
    await expect(restoring).resolves.toContain(`restored ${file}`);
    expect(await contentsAt(url)).toEqual(before);
  }, 120_000);
});
