import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, describe, expect, inject, it } from "vitest";
import { createTestApp, testEnv } from "../../../test/support/app.ts";
import { onPostgres } from "../../../test/support/database.ts";
import { createSchedule, seedRun } from "../../../test/support/factories.ts";
import { seedKudo } from "../../../test/support/kudos.ts";
import { migrateTo, wipeToEmpty } from "../../../test/support/older-level.ts";
import { submitStandup } from "../../../test/support/standup-answers.ts";
import { tableContents } from "../../../test/support/table-contents.ts";
import { loadConfig } from "../../config.ts";
import { type Database, openDatabase } from "../../db/client.ts";
import { ManualClock } from "../../lib/clock.ts";
import { tick } from "../standups/index.ts";
import { backupCommand, restoreCommand } from "./backup.commands.ts";
import { readManifest } from "./backup-file.ts";
import { buildLevel, databaseLevel } from "./migration-level.ts";

const TEAM = "T0BACKUP";
const ADMIN = "U0BKADMIN";
const CHANNEL = "C0BKSTANDUP";
const MEMBERS = ["U0BKANA", "U0BKBEN"];

const root = mkdtempSync(join(tmpdir(), "upbeat-backup-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const clock = new ManualClock("2026-03-02T12:00:00Z");

/** A new database of the kind under test: a PGlite directory from the migrated snapshot, or a server database. */
async function newDatabase(name: string): Promise<Database> {
  if (!onPostgres) {
    return openDatabase(`pglite://${join(root, name)}`, {
      loadDataDir: new Blob([readFileSync(inject("pgliteSnapshot"))]),
    });
  }
  const serverUrl = process.env.TEST_DATABASE_URL!;
  // Named like the suite's own, so the suite's teardown drops it.
  const db = `${inject("pgTemplate").replace("upbeat_tpl_", "upbeat_t_")}_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${db} template ${inject("pgTemplate")}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${db}`;
  return openDatabase(url.toString(), { poolMax: 2 });
}

function configFor(url: string) {
  return loadConfig(testEnv(url, "http://127.0.0.1:9/api/"), { dataDir: join(root, "data") });
}

/** What is in the database at `url`, read with a connection of its own (closed again, so a restore may start). */
async function contentsAt(url: string): Promise<Record<string, string[]>> {
  const database = await openDatabase(url, { poolMax: 1 });
  try {
    return await tableContents(database);
  } finally {
    await database.close();
  }
}

/** An instance in use: installed, members, a schedule, a run with answers, kudos, a webhook, sessions, history. */
async function populate(database: Database): Promise<void> {
  const t = await createTestApp({
    database,
    clock: new ManualClock("2026-03-02T08:59:30Z"),
    outbound: { resolve: async () => [{ address: "93.184.216.34", family: 4 }] },
  });
  try {
    await t.installTeam(TEAM, { installer: ADMIN });
    for (const id of MEMBERS) {
      t.fake.addUser(TEAM, { id, name: id.toLowerCase(), real_name: id });
      await t.addMember(TEAM, id, { realName: `Ünïcødé ${id}` });
    }
    t.fake.addChannel(TEAM, { id: CHANNEL, name: "standup", members: MEMBERS });
    const scheduleId = await createSchedule(t.deps.db, t.clock, { teamId: TEAM, channelId: CHANNEL, time: "09:00" });
    const admin = await t.signIn(TEAM, ADMIN);
    const hook = await t.inject({
      method: "POST",
      url: "/dashboard/api/webhooks",
      headers: { cookie: admin, "content-type": "application/json" },
      payload: JSON.stringify({ url: "https://hooks.example.com/standups", events: ["standup.submitted"] }),
    });
    expect(hook.statusCode).toBe(201);
    await seedRun(t.deps.db, {
      teamId: TEAM,
      scheduleId,
      date: "2026-02-27",
      asked: MEMBERS,
      answers: { U0BKANA: { answers: ["shipped", "review", "none"], mood: "🙂" } },
    });
    t.clock.set("2026-03-02T09:00:10Z");
    const { started } = await tick(t.deps);
    expect(started).toHaveLength(1);
    await t.deps.queue.drain();
    const answered = await submitStandup(
      t,
      TEAM,
      "U0BKBEN",
      started[0]!,
      ["fixed “quotes”", "tests", "ci is red"],
      "😐",
    );
    expect(answered.statusCode).toBe(200);
    await t.app.settle();
    await seedKudo(t.deps.db, TEAM, t.clock.now());
  } finally {
    await t.close(); // closes the database too
  }
}

describe(`npm run backup / restore round trip (${onPostgres ? "PostgreSQL" : "embedded database"})`, () => {
  it("a populated instance, backed up, wiped and restored, has every table as it was", async () => {
    const database = await newDatabase("populated");
    const url = database.url;
    await populate(database);
    const before = await contentsAt(url);
    // Every table of every schema is compared: Upbeat's, pg-boss's queue, drizzle's migration log.
    expect(Object.keys(before).filter((t) => t.startsWith("public.")).length).toBeGreaterThan(40);
    expect(before["drizzle.__drizzle_migrations"]).toHaveLength(buildLevel().count);
    expect(before["public.responses"]).toHaveLength(2);
    expect(before["public.kudos"]).toHaveLength(1);
    expect(before["public.webhook_endpoints"]).toHaveLength(1);
    expect(before["pgboss.job"]?.length).toBeGreaterThan(0);

    const file = join(root, "populated.backup");
    const printed = await backupCommand(["--out", file], configFor(url), clock);
    expect(printed).toContain(`backup written: ${file}`);
    const manifest = await readManifest(file);
    expect(manifest).toMatchObject({
      format: "upbeat-backup",
      kind: onPostgres ? "postgres" : "pglite",
      migrations: buildLevel(),
      createdAt: clock.now().toISOString(),
    });

    if (onPostgres) {
      // Into the same database: refused while it holds data, then --clean drops it all first.
      await expect(restoreCommand([file], configFor(url), clock)).rejects.toThrow(/the database is not empty/);
      expect(await restoreCommand([file, "--clean"], configFor(url), clock)).toContain(`restored ${file}`);
      expect(await contentsAt(url)).toEqual(before);
      // And into a new, empty database.
      const empty = await newDatabase("empty");
      await wipeToEmpty(empty);
      await empty.close();
      await restoreCommand([file], configFor(empty.url), clock);
      expect(await contentsAt(empty.url)).toEqual(before);
    } else {
      const dir = url.slice("pglite://".length);
      rmSync(dir, { recursive: true });
      const printedRestore = await restoreCommand([file], configFor(url), clock);
      expect(printedRestore).toContain(`restored ${file} into ${dir}`);
      expect(printedRestore).not.toContain("kept in"); // there was nothing to keep
      expect(await contentsAt(url)).toEqual(before);
      // Over an existing directory: the one replaced is kept aside.
      const again = await restoreCommand([file], configFor(url), clock);
      const kept = /kept in (\S+) /.exec(again)?.[1];
      expect(kept).toMatch(/before-restore-/);
      expect(await contentsAt(`pglite://${kept}`)).toEqual(before);
      expect(await contentsAt(url)).toEqual(before);
    }
  }, 120_000);

  it("a backup made before the newest migration gets it when restored", async () => {
    const database = await newDatabase("older");
    const ours = buildLevel();
    await wipeToEmpty(database);
    await migrateTo(database, ours.count - 1);
    const older = await databaseLevel(database);
    expect(older.count).toBe(ours.count - 1);
    await database.close();

    const file = join(root, "older.backup");
    await backupCommand(["--out", file], configFor(database.url), clock);
    expect((await readManifest(file)).migrations).toEqual(older);
    if (!onPostgres) rmSync(database.url.slice("pglite://".length), { recursive: true });
    const printed = await restoreCommand(onPostgres ? [file, "--clean"] : [file], configFor(database.url), clock);
    expect(printed).toContain(`migration ${older.last} → ${ours.last}`);

    const restored = await openDatabase(database.url, { poolMax: 1 });
    try {
      expect(await databaseLevel(restored)).toEqual(ours);
    } finally {
      await restored.close();
    }
  }, 120_000);
});
