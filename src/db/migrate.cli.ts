import { loadConfig } from "./../config.ts";
import { openDatabase } from "./client.ts";
import { runMigrations } from "./migrate.ts";

const config = loadConfig();
const database = await openDatabase(config.databaseUrl);
try {
  await runMigrations(database);
  process.stdout.write(`migrations applied (${database.kind})\n`);
} finally {
  await database.close();
}
