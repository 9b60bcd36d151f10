import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import pino from "pino";
import type { TestProject } from "vitest/node";
import { openDatabase } from "../../src/db/client.ts";
import { runMigrations } from "../../src/db/migrate.ts";
import { JobQueue } from "../../src/jobs/queue.ts";

declare module "vitest" {
  export interface ProvidedContext {
    pgliteSnapshot: string;
    pgTemplate: string;
  }
}

/** Migrates once: a PGlite data-dir dump for the embedded runs, a template database on PostgreSQL. */
export default async function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), "upbeat-test-"));
  const silent = pino({ level: "silent" });
  const serverUrl = process.env.TEST_DATABASE_URL;
  let template = "";
  if (serverUrl) {
    template = `upbeat_tpl_${process.pid}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`drop database if exists ${template}`);
    await admin.query(`create database ${template}`);
    await admin.end();
    const url = new URL(serverUrl);
    url.pathname = `/${template}`;
    const database = await openDatabase(url.toString(), { poolMax: 2 });
    await runMigrations(database);
    const queue = new JobQueue(database, silent, { workers: false });
    await queue.start();
    await queue.stop();
    await database.close();
  }
  const database = await openDatabase("pglite://memory");
  await runMigrations(database);
  const queue = new JobQueue(database, silent, { workers: false });
  await queue.start();
  await queue.stop();
  const dump = await database.pglite!.dumpDataDir("none");
  const file = join(dir, "pglite-snapshot.tar");
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  await database.close();
  project.provide("pgliteSnapshot", file);
  project.provide("pgTemplate", template);
  // The dashboard bundle the browser tests serve, built (when missing or stale) once before any worker starts: two
  // workers that both start with a browser file would otherwise build into the same dist/web at once and break each
  // other's output. Only when the run includes the browser tests (vitest.config.ts leaves them out on PostgreSQL).
  if (!serverUrl || process.env.TEST_BROWSER_ON_POSTGRES === "1") {
    const build = spawnSync(process.execPath, ["scripts/ensure-web-build.mjs"], { encoding: "utf8" });
    if (build.status !== 0) throw new Error(`dashboard build failed: ${build.stderr}`);
  }

  return async () => {
    rmSync(dir, { recursive: true, force: true });
    if (serverUrl && template) {
      const admin = new pg.Client({ connectionString: serverUrl });
      await admin.connect();
      const { rows } = await admin.query<{ datname: string }>(
        "select datname from pg_database where starts_with(datname, $2) or datname = $1",
        [template, `upbeat_t_${process.pid}_`],
      );
      for (const r of rows) await admin.query(`drop database if exists ${r.datname} with (force)`);
      await admin.end();
    }
  };
}
