import { type FakeSlack, startFakeSlack } from "../../dev/fake-slack/index.ts";
import type { ManualClock } from "../../src/lib/clock.ts";
import { createTestApp, type TestApp } from "./app.ts";
import { freshDatabase, secondConnection } from "./database.ts";

export interface TwoInstances {
  a: TestApp;
  b: TestApp;
  fake: FakeSlack;
  /** Closes both apps, then the fake Slack. */
  close(): Promise<void>;
}

/**
 * Two app instances as two processes of one deployment would be: a fresh database on the shared server, each
 * instance with its own connection to it, one fake Slack and one clock. Only meaningful on PostgreSQL (the
 * embedded database is one connection), so callers sit in `describe.runIf(onPostgres)`.
 */
export async function startTwoInstances(opts: {
  clock: ManualClock;
  env?: Record<string, string>;
  /** "socket": each instance opens its own socket to the fake (both open on return), as two processes would. */
  transport?: "http" | "socket";
}): Promise<TwoInstances> {
  const fake = await startFakeSlack();
  const db1 = await freshDatabase();
  const db2 = await secondConnection(db1);
  const common = {
    fake,
    clock: opts.clock,
    ...(opts.env ? { env: opts.env } : {}),
    ...(opts.transport ? { transport: opts.transport } : {}),
  };
  const a = await createTestApp({ database: db1, ...common });
  const b = await createTestApp({ database: db2, ...common });
  if (opts.transport === "socket") await fake.socket.waitForConnections(2);
  return {
    a,
    b,
    fake,
    async close() {
      await a.close();
      await b.close();
      await fake.close();
    },
  };
}
