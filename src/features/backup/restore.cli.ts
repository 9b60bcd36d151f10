import { ConfigError, loadDatabaseConfig } from "../../config.ts";
import { systemClock } from "../../lib/clock.ts";
import { CommandFailed, restoreCommand } from "./backup.commands.ts";

/** `npm run restore -- FILE [--clean]`: see RESTORE_HELP. Exits 1 when refused or failed, 2 on a usage error. */
try {
  process.stdout.write(await restoreCommand(process.argv.slice(2), loadDatabaseConfig(), systemClock));
} catch (err) {
  if (err instanceof ConfigError) {
    // Only DATABASE_URL is read: the tool runs beside a production server without its other secrets.
    for (const p of err.problems) process.stderr.write(`config error: ${p}\n`);
    process.exit(1);
  }
  if (!(err instanceof CommandFailed)) throw err;
  process.stderr.write(`restore: ${err.message}\n`);
  process.exitCode = err.exitCode;
}
