import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { testEnv } from "../../../test/support/app.ts";
import { openDatabase, rows } from "../../db/client.ts";
import { runMigrations } from "../../db/migrate.ts";

const TSX = import.meta.resolve("tsx");
const CLI = new URL("./maintenance.cli.ts", import.meta.url).pathname;

describe("npm run maintenance", () => {
  const dir = mkdtempSync(join(tmpdir(), "upbeat-maint-"));
  const url = `pglite://${join(dir, "pglite")}`;
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("runs one retention pass now and prints what it pruned", async () => {
    const database = await openDatabase(url);
    await runMigrations(database);
    const now = Date.now();
    await database.db.execute(sql`insert into chat_events (event_id, team_id, received_at)
      values ('EvCliOld', 'T0CLI', ${new Date(now - 8 * 86_400_000).toISOString()}),
             ('EvCliNew', 'T0CLI', ${new Date(now).toISOString()})`);
    await database.close();

    const { stdout } = await promisify(execFile)(process.execPath, ["--import", TSX, CLI], {
      env: { ...process.env, ...testEnv(url, "http://127.0.0.1:9/api/") },
      timeout: 60_000,
    });
    const result = JSON.parse(stdout.trim().split("\n").at(-1)!) as {
      pruned: Record<string, number>;
      failed: string[];
    };
    expect(result.failed).toEqual([]);
    expect(result.pruned.chat_events).toBe(1);

    const after = await openDatabase(url);
    const left = await rows<{ event_id: string }>(after.db, sql`select event_id from chat_events`);
    await after.close();
    expect(left.map((r) => r.event_id)).toEqual(["EvCliNew"]);
  }, 90_000);
});
