import { buildApp } from "./app.ts";
import { ConfigError, loadConfig } from "./config.ts";
import { buildDeps, createLogger } from "./deps.ts";

async function main(): Promise<void> {
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
  const log = createLogger(config);
  for (const notice of config.notices) log.warn(notice);
  const deps = await buildDeps(config, { log });
  const app = await buildApp(deps);
  await app.start();
  await app.server.listen({ port: config.port, host: config.host });
  log.info({ url: config.appUrl, db: deps.database.kind }, "Upbeat is running");

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, "shutting down");
    app
      .stop()
      .then(() => process.exit(0))
      .catch((err: unknown) => {
        log.error({ err: String(err) }, "shutdown failed");
        process.exit(1);
      });
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
}

main().catch((err: unknown) => {
  process.stderr.write(`fatal: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
