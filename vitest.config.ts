import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import HeavyFirstSequencer from "./test/support/sequencer.ts";

// Vitest's default is one worker fewer than the CPUs: on a two-core CI machine that is one, and the suite runs file
// after file. On the embedded database the suite keeps every core busy with one worker per core (at least two):
// three workers on two cores took 548 s against 567 s, for 8 % more CPU (issue 27). On PostgreSQL a file spends
// much of its time waiting for the server, so two workers left 40 % of two cores idle (264 s); two per core (at
// least four) took 186 s for the same CPU; at most eight, so that a big machine stays within a server's
// connections (each file opens a pool of its own). TEST_WORKERS overrides both.
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const cores = availableParallelism();
const workers =
  Number(process.env.TEST_WORKERS) || (onPostgres ? Math.min(8, Math.max(4, 2 * cores)) : Math.max(2, cores));

// On PostgreSQL (TEST_DATABASE_URL set) the browser tests are left out: the pages only read and write through the
// dashboard API, whose own tests run on both databases, so a page cannot behave differently on PostgreSQL. They cost
// about 300 s of the suite; they run with every embedded run. TEST_BROWSER_ON_POSTGRES=1 runs them there too.
const browserOnPostgres = !onPostgres || process.env.TEST_BROWSER_ON_POSTGRES === "1";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts", "dev/**/*.test.ts", "bench/**/*.test.ts"],
    exclude: ["node_modules", "dist", "src/web/**", ...(browserOnPostgres ? [] : ["test/browser/**"])],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Test files in one worker share the module graph (the app, Bolt, the SDKs, drizzle) instead of importing it
    // again per file: importing was nearly half of the suite's time. Every file builds its own app and database, so
    // nothing but loaded code is shared.
    isolate: false,
    maxWorkers: workers,
    globalSetup: ["test/support/global-setup.ts"],
    // Without timings of an earlier run, the slow kinds of file start first (test/support/sequencer.ts).
    sequence: { sequencer: HeavyFirstSequencer },
  },
});
