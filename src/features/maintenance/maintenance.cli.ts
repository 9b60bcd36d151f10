import { loadConfig } from "../../config.ts";
import { openDatabase } from "../../db/client.ts";
import { runMigrations } from "../../db/migrate.ts";
import { createLogger } from "../../deps.ts";
import { runMaintenance } from "./maintenance.ts";

/**
 * `npm run maintenance`: one retention run now, by hand (the server runs it daily by itself). It claims no day, so
 * it may run beside the daily one (every prune is idempotent). The embedded database allows one process at a time:
 * stop the server first. Exits 1 when a step failed.
 */
const config = loadConfig();
const log = createLogger(config);
const database = await openDatabase(config.databaseUrl);
try {
  await runMigrations(database);
  const result = await runMaintenance({ db: database.db, log }, new Date());
  process.stdout.write(`${JSON.stringify(result)}\n`);
  if (result.failed.length) process.exitCode = 1;
} finally {
  await database.close();
}
