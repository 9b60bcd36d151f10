import { ConfigError, loadConfig } from "./config.ts";
import { openDatabase } from "./db/client.ts";

/** SIGTERM or SIGINT: drained and exited 0 within this long, or exited 1 at it. */
const SHUTDOWN_DEADLINE_MS = 10_000;

/** Set once the app serves: until then a signal ends the process at once (there is nothing to drain yet). */
let shutdown: ((signal: string) => void) | undefined;

function onSignal(signal: string): void {
  if (shutdown) {
    shutdown(signal);
    return;
  }
  // Node as a container's PID 1 ignores a signal nobody handles: without this, a stop while starting (a first
  // start waiting on Slack, say) would wait for the orchestrator's kill.
  process.stderr.write(`${signal} while starting: exiting\n`);
  process.exit(0);
}

async function main(): Promise<void> {
  process.on("SIGTERM", () => onSignal("SIGTERM"));
  process.on("SIGINT", () => onSignal("SIGINT"));
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      for (const p of err.problems) process.stderr.write(`config error: ${p}\n`);
      process.exit(1);
    }
    throw err;
  }
  // The database opens while the rest of the app loads: on the embedded database that is a second or more of
  // WebAssembly compiling and files loading, which need not wait for ~1 s of module imports (and vice versa).
  const opening = openDatabase(config.databaseUrl, { holder: "server" });
  opening.catch(() => {}); // awaited below; a failure is reported there, not as an unhandled rejection first
  const [{ buildApp }, { buildDeps, createLogger }] = await Promise.all([import("./app.ts"), import("./deps.ts")]);
  const log = createLogger(config);
  for (const notice of config.notices) log.warn(notice);
  const deps = await buildDeps(config, { log, database: await opening });
  const app = await buildApp(deps);
  // A Slack credential that Slack refuses (CHAT_BOT_TOKEN) is found here: reported like the config errors above.
  await app.start().catch((err: unknown) => {
    if (!(err instanceof ConfigError)) throw err;
    for (const p of err.problems) process.stderr.write(`config error: ${p}\n`);
    process.exit(1);
  });
  const address = await app.server.listen({ port: config.port, host: config.host });
  log.info({ url: config.appUrl, address, db: deps.database.kind }, "Upbeat is running");

  let stopping = false;
  shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    const started = Date.now();
    log.info({ signal }, "shutting down: draining requests and jobs");
    // Whatever hangs, the process is gone by the deadline (an orchestrator's own kill usually follows at 30 s).
    setTimeout(() => {
      log.error({ signal, afterMs: Date.now() - started }, "shutdown did not finish in time: exiting anyway");
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS);
    app
      .stop()
      .then(() => {
        log.info({ ms: Date.now() - started }, "stopped");
        process.exit(0);
      })
      .catch((err: unknown) => {
        log.error({ err: String(err) }, "shutdown failed");
        process.exit(1);
      });
  };
}

main().catch((err: unknown) => {
  process.stderr.write(`fatal: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
