import { loadDatabaseConfig } from "./../config.ts";
import { openDatabase } from "./client.ts";
import { runMigrations } from "./migrate.ts";

// Only DATABASE_URL: migrating needs none of the server's other secrets.
const config = loadDatabaseConfig();
const database = await openDatabase(config.databaseUrl);
try {
  await runMigrations(database);
  process.stdout.write(`migrations applied (${database.kind})\n`);
} finally {
  await database.close();
}
