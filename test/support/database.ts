import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import pg from "pg";
import { inject } from "vitest";
import { type Database, openDatabase } from "../../src/db/client.ts";

export const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

/**
 * Every test database refuses a statement with more bind parameters than this. Statements of constant text have at
 * most about 30 today; one whose parameters grow with a list (a row of them per item) fails here as soon as a test
 * uses a few hundred items, long before PostgreSQL's 65,535 would fail it in production.
 */
export const MAX_BIND_PARAMETERS = 1_000;

/** A fresh, migrated database for one test file: a PGlite clone, or a PostgreSQL database copied from the template. */
export async function freshDatabase(opts: { poolMax?: number } = {}): Promise<Database> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl) {
    // Named after this run's template, so a run cleans up only its own databases (runs may share a server).
    const name = `${inject("pgTemplate").replace("upbeat_tpl_", "upbeat_t_")}_${randomBytes(6).toString("hex")}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`create database ${name} template ${inject("pgTemplate")}`);
    await admin.end();
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    return openDatabase(url.toString(), { poolMax: opts.poolMax ?? 5, maxBindParameters: MAX_BIND_PARAMETERS });
  }
  const snapshot = readFileSync(inject("pgliteSnapshot"));
  return openDatabase("pglite://memory", { loadDataDir: new Blob([snapshot]), maxBindParameters: MAX_BIND_PARAMETERS });
}

/** A second connection to the same database (a second instance); PostgreSQL only. */
export async function secondConnection(db: Database): Promise<Database> {
  if (db.kind !== "postgres") throw new Error("a second connection needs PostgreSQL");
  return openDatabase(db.url, { poolMax: 5 });
}
