import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import { afterAll, describe, expect, it } from "vitest";
import { MIGRATIONS_DIR } from "./migrate.ts";

/**
 * Upgrading to answers kept on the participant (0035): every participant of the runs already stored starts from
 * their answer, so the participation figures read the same after the upgrade as before it.
 */
describe("migration 0035 on a database with answers", () => {
  const root = mkdtempSync(join(tmpdir(), "upbeat-0035-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("sets answered and has_blocker of each participant from their answer to that run", async () => {
    const before = join(root, "before");
    cpSync(MIGRATIONS_DIR, before, { recursive: true });
    const journalPath = join(before, "meta", "_journal.json");
    const journal = JSON.parse(readFileSync(journalPath, "utf8")) as { entries: { tag: string }[] };
    const cut = journal.entries.findIndex((e) => e.tag === "0035_participant_answered");
    expect(cut).toBeGreaterThan(0);
    journal.entries = journal.entries.slice(0, cut);
    writeFileSync(journalPath, JSON.stringify(journal));

    const pg = new PGlite();
    const db = drizzle(pg);
    await migrate(db, { migrationsFolder: before });
    await pg.exec(`
      insert into run_participants (run_id, user_id, team_id, status, created_at) values
        (1, 'U_ANSWERED', 'T1', 'answered', now()), (1, 'U_BLOCKED', 'T1', 'answered', now()),
        (1, 'U_MISSED', 'T1', 'asked', now()), (2, 'U_ANSWERED', 'T1', 'asked', now());
      insert into responses (team_id, schedule_id, run_id, user_id, standup_date, answers, has_blocker, submitted_at) values
        ('T1', 'S1', 1, 'U_ANSWERED', '2026-03-09', '[]', false, now()),
        ('T1', 'S1', 1, 'U_BLOCKED', '2026-03-09', '[]', true, now()),
        ('T1', 'S1', 3, 'U_MISSED', '2026-03-11', '[]', true, now());
    `);
    await migrate(db, { migrationsFolder: MIGRATIONS_DIR });
    const { rows } = await pg.query<{ run_id: number; user_id: string; answered: boolean; has_blocker: boolean }>(
      "select run_id::int as run_id, user_id, answered, has_blocker from run_participants order by run_id, user_id",
    );
    expect(rows).toEqual([
      { run_id: 1, user_id: "U_ANSWERED", answered: true, has_blocker: false },
      { run_id: 1, user_id: "U_BLOCKED", answered: true, has_blocker: true },
      { run_id: 1, user_id: "U_MISSED", answered: false, has_blocker: false },
      { run_id: 2, user_id: "U_ANSWERED", answered: false, has_blocker: false },
    ]);
    await pg.close();
  }, 60_000);
});
