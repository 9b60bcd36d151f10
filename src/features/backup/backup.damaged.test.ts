import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { testEnv } from "../../../test/support/app.ts";
import { backupSource } from "../../../test/support/backup-target.ts";
import { onPostgres } from "../../../test/support/database.ts";
import { tableContents } from "../../../test/support/table-contents.ts";
import { loadConfig } from "../../config.ts";
import { type Database, openDatabase } from "../../db/client.ts";
import { ManualClock } from "../../lib/clock.ts";
import { backupCommand, CommandFailed, restoreCommand } from "./backup.commands.ts";

const root = mkdtempSync(join(tmpdir(), "upbeat-damaged-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const clock = new ManualClock("2026-03-02T12:00:00Z");
const configFor = (url: string) => loadConfig(testEnv(url, "http://127.0.0.1:9/api/"), { dataDir: join(root, "data") });

/** A database with a row in it: a PGlite directory of its own, or a server database. */
async function populated(): Promise<Database> {
  const database = await backupSource(root);
  await database.query(
    `insert into installations (team_id, team_name, bot_user_id, bot_token_enc, scopes, installer_user_id, installed_at, updated_at)
     values ('T0DAMAGED', 'Damaged', 'U0BOT', 'x', 'chat:write', '', now(), now())`,
    [],
  );
  return database;
}

async function contentsAt(url: string): Promise<Record<string, string[]>> {
  const database = await openDatabase(url, { poolMax: 1 });
  try {
    return await tableContents(database);
  } finally {
    await database.close();
  }
}

describe(`npm run restore of a damaged backup (${onPostgres ? "PostgreSQL" : "embedded database"})`, () => {
  it("a backup cut short (a copy that did not finish) is refused, and the database is left as it was", async () => {
    const database = await populated();
    const url = database.url;
    await database.close();
    const file = join(root, "whole.backup");
    await backupCommand(["--out", file], configFor(url), clock);
    const whole = readFileSync(file);
    const cut = join(root, "cut.backup");
    writeFileSync(cut, whole.subarray(0, Math.floor(whole.length * 0.6)));
    const before = await contentsAt(url);
    expect(before["public.installations"]).toHaveLength(1);

    // --clean on PostgreSQL: even then nothing is dropped for a file that cannot be restored.
    const restoring = restoreCommand(onPostgres ? [cut, "--clean"] : [cut], configFor(url), clock);
    await expect(restoring).rejects.toThrow(CommandFailed);
    await expect(restoring).rejects.toThrow(`${cut} is damaged or incomplete`);
    expect(await contentsAt(url)).toEqual(before);
  }, 120_000);
});
