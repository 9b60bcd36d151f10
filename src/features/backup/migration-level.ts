import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Database } from "../../db/client.ts";
import { MIGRATIONS_DIR } from "../../db/migrate.ts";
import { PACKAGE_JSON } from "../../lib/build-paths.ts";

export interface MigrationLevel {
  count: number;
  /** The newest applied migration's tag ("0027_dm_questions_unasked"), or "" for none. */
  last: string;
  /** Its journal time: drizzle records it as the migration's created_at, and applies what is newer. */
  when: number;
}

interface JournalEntry {
  tag: string;
  when: number;
}

export function journal(): JournalEntry[] {
  const text = readFileSync(join(MIGRATIONS_DIR, "meta", "_journal.json"), "utf8");
  return (JSON.parse(text) as { entries: JournalEntry[] }).entries;
}

/** The level every migration of this build brings a database to. */
export function buildLevel(): MigrationLevel {
  const entries = journal();
  const last = entries.at(-1);
  return { count: entries.length, last: last?.tag ?? "", when: last?.when ?? 0 };
}

/** The level of the database: what drizzle recorded as applied (none for a database never migrated). */
export async function databaseLevel(database: Database): Promise<MigrationLevel> {
  const [exists] = await database.query<{ t: string | null }>(
    "select to_regclass('drizzle.__drizzle_migrations')::text as t",
    [],
  );
  if (!exists?.t) return { count: 0, last: "", when: 0 };
  const [row] = await database.query<{ n: number | string; latest: number | string | null }>(
    "select count(*) as n, max(created_at) as latest from drizzle.__drizzle_migrations",
    [],
  );
  const when = Number(row?.latest ?? 0);
  return { count: Number(row?.n ?? 0), last: journal().find((e) => e.when === when)?.tag ?? "unknown", when };
}

export function upbeatVersion(): string {
  return (JSON.parse(readFileSync(PACKAGE_JSON, "utf8")) as { version: string }).version;
}
