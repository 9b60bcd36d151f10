import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import { openDatabase } from "./client.ts";

/** A new embedded data directory starts from the build's dump of a cluster instead of running initdb. */
describe("openDatabase on a new embedded data directory", () => {
  const root = mkdtempSync(join(tmpdir(), "upbeat-initdb-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  // The test suite's migrated snapshot stands in for the build's template: its tables show it was used.
  const template = inject("pgliteSnapshot");

  it("starts from the template, once: an existing directory keeps its own data", async () => {
    const dir = join(root, "data");
    const first = await openDatabase(`pglite://${dir}`, { initdbTemplate: template });
    expect(await first.query("select to_regclass('public.schedules')::text as t", [])).toEqual([{ t: "schedules" }]);
    await first.query("create table kept (n int)", []);
    await first.query("insert into kept values (42)", []);
    await first.close();
    expect(existsSync(join(dir, "PG_VERSION"))).toBe(true);

    const again = await openDatabase(`pglite://${dir}`, { initdbTemplate: template });
    expect(await again.query("select n from kept", [])).toEqual([{ n: 42 }]);
    await again.close();
  });

  it("runs initdb when there is no template", async () => {
    const dir = join(root, "plain");
    const db = await openDatabase(`pglite://${dir}`, { initdbTemplate: join(root, "missing.tar.gz") });
    expect(await db.query("select to_regclass('public.schedules')::text as t", [])).toEqual([{ t: null }]);
    await db.close();
  }, 60_000);
});
