/**
 * The real Upbeat app for the ack benchmark, started the way src/main.ts starts it but configured
 * for the bench: in-memory PGlite (migrated by buildDeps), warnings-only logging, a known signing
 * secret and one installed workspace (T0BENCH) so events have a team. Variables already set in the
 * environment win over the bench defaults. Prints `ready <port>` on stdout once listening.
 *
 * With an IPC channel (run.ts), answers `{ type: "stats" }` with the number of stored chat events,
 * so the runner can check that every request took the first-delivery path, and starts/stops a CPU
 * profile on `{ type: "profile-start" }` / `{ type: "profile-stop", file }` (run.ts --cpu-prof).
 */
import type { AddressInfo } from "node:net";
import { sql } from "drizzle-orm";
import { buildApp } from "../../src/app.ts";
import { rows } from "../../src/db/client.ts";
import { buildDeps, createLogger } from "../../src/deps.ts";
import { upsertInstallation } from "../../src/features/install/index.ts";
import { encryptSecret } from "../../src/lib/crypto.ts";
import { answerIpc, CpuProfiler, loadConfigOrExit } from "../lib/app-child.ts";
import { BENCH_APP_ENV, BENCH_TEAM_ID } from "./shared.ts";

// Started by run.ts with an IPC channel: if the runner goes away, even mid-start, so does this server.
let shutdown: () => void = () => process.exit(1);
process.on("disconnect", () => shutdown());
process.on("SIGTERM", () => shutdown());
process.on("SIGINT", () => shutdown());

const port = process.argv[2] ?? process.env.PORT ?? "0";
const env: NodeJS.ProcessEnv = {
  ...BENCH_APP_ENV,
  ...process.env,
  PORT: port,
};

const config = loadConfigOrExit(env);

const log = createLogger(config);
for (const notice of config.notices) log.warn(notice);
const deps = await buildDeps(config, { log });

// What test/support/app.ts installTeam does: the installation row with an encrypted bot token.
const now = deps.clock.now();
await upsertInstallation(
  deps.db,
  {
    teamId: BENCH_TEAM_ID,
    teamName: "Bench",
    botUserId: "B0BENCHBOT",
    botTokenEnc: encryptSecret(deps.keys.tokenEncryption, "xoxb-bench-token"),
    scopes: "chat:write,commands,reactions:write",
    installerUserId: "U0BENCHADMIN",
  },
  now,
);

const app = await buildApp(deps);
await app.start();
await app.server.listen({ port: config.port, host: config.host });
process.stdout.write(`ready ${(app.server.server.address() as AddressInfo).port}\n`);

let stopping = false;
shutdown = () => {
  if (stopping) return;
  stopping = true;
  // app.stop() drains requests (up to 10 s) and the queue; never linger longer than that.
  setTimeout(() => process.exit(1), 20_000).unref();
  app
    .stop()
    .then(() => process.exit(0))
    .catch((err: unknown) => {
      process.stderr.write(`shutdown failed: ${String(err)}\n`);
      process.exit(1);
    });
};
const profiler = new CpuProfiler(200);

async function onMessage(msg: { type?: string; file?: string }): Promise<Record<string, unknown>> {
  switch (msg.type) {
    case "stats": {
      const [row] = await rows<{ n: number }>(deps.db, sql`select count(*)::int as n from chat_events`);
      return { chatEvents: row?.n ?? 0 };
    }
    case "profile-start": {
      await profiler.start();
      return {};
    }
    case "profile-stop": {
      await profiler.stop(msg.file);
      return { file: msg.file };
    }
    default:
      throw new Error(`unknown message ${String(msg.type)}`);
  }
}

answerIpc(onMessage);
