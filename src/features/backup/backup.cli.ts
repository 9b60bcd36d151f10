import { loadConfig } from "../../config.ts";
import { systemClock } from "../../lib/clock.ts";
import { backupCommand, CommandFailed } from "./backup.commands.ts";

/** `npm run backup -- --out FILE`: see BACKUP_HELP. Exits 1 when refused or failed, 2 on a usage error. */
try {
  process.stdout.write(await backupCommand(process.argv.slice(2), loadConfig(), systemClock));
} catch (err) {
  if (!(err instanceof CommandFailed)) throw err;
  process.stderr.write(`backup: ${err.message}\n`);
  process.exitCode = err.exitCode;
}
