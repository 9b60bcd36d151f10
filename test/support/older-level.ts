import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import type { Database } from "../../src/db/client.ts";
import { MIGRATIONS_DIR } from "../../src/db/migrate.ts";
import { dropUpbeatObjects } from "../../src/features/backup/index.ts";

/** Leaves the database as before any migration: Upbeat's tables and the pgboss and drizzle schemas dropped. */
export async function wipeToEmpty(database: Database): Promise<void> {
  await dropUpbeatObjects(database);
}

/**
 * Applies the first `count` migrations only, as an older version of Upbeat would have: drizzle is given a copy of
 * the migrations folder whose journal ends there.
 */
export async function migrateTo(database: Database, count: number): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), "upbeat-migrations-"));
  try {
    cpSync(MIGRATIONS_DIR, folder, { recursive: true });
    const journalFile = join(folder, "meta", "_journal.json");
    const journal = JSON.parse(readFileSync(journalFile, "utf8")) as { entries: unknown[] };
    journal.entries = journal.entries.slice(0, count);
    writeFileSync(journalFile, JSON.stringify(journal));
    if (database.kind === "pglite") await migratePglite(database.db as never, { migrationsFolder: folder });
    else await migratePg(drizzlePg(database.pool!), { migrationsFolder: folder });
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/**
 * A new in-memory PGlite migrated up to just before the migration tagged `tag`, as an older Upbeat left it (the
 * same files, with the journal cut there); `upgrade` then applies every migration of this version.
 */
export async function pgliteBefore(tag: string): Promise<{ pg: PGlite; upgrade(): Promise<void> }> {
  const folder = mkdtempSync(join(tmpdir(), "upbeat-migrations-"));
  try {
    cpSync(MIGRATIONS_DIR, folder, { recursive: true });
    const journalFile = join(folder, "meta", "_journal.json");
    const journal = JSON.parse(readFileSync(journalFile, "utf8")) as { entries: { tag: string }[] };
    const cut = journal.entries.findIndex((e) => e.tag === tag);
    if (cut <= 0) throw new Error(`no migration tagged ${tag} after the first`);
    journal.entries = journal.entries.slice(0, cut);
    writeFileSync(journalFile, JSON.stringify(journal));
    const pg = new PGlite();
    const db = drizzlePglite(pg);
    await migratePglite(db, { migrationsFolder: folder });
    return { pg, upgrade: () => migratePglite(db, { migrationsFolder: MIGRATIONS_DIR }) };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
