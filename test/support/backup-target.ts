import { readFileSync } from "node:fs";
import { join } from "node:path";
import { inject } from "vitest";
import { type Database, openDatabase } from "../../src/db/client.ts";
import { freshDatabase, onPostgres } from "./database.ts";

/**
 * A migrated, empty database to back up: a fresh one on the test server, or a PGlite directory `<root>/db` of its
 * own (from the suite's migrated snapshot), since backup and restore work on a directory, not on memory.
 */
export function backupSource(root: string): Promise<Database> {
  return onPostgres
    ? freshDatabase({ poolMax: 1 })
    : openDatabase(`pglite://${join(root, "db")}`, { loadDataDir: new Blob([readFileSync(inject("pgliteSnapshot"))]) });
}
