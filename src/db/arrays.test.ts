import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { inArray, sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { freshDatabase, MAX_BIND_PARAMETERS } from "../../test/support/database.ts";
import { anyOf, pgArray } from "./arrays.ts";
import { rows } from "./client.ts";
import { members } from "./schema.ts";

describe("lists as one bind parameter", async () => {
  const database = await freshDatabase();
  afterAll(() => database.close());

  it("a 70,000-item list (over PostgreSQL's 65,535 parameters) is one parameter, through unnest and = any", async () => {
    const ids = Array.from({ length: 70_000 }, (_, i) => `U${i}`);
    const [row] = await rows<{ n: number; hit: boolean }>(
      database.db,
      sql`select count(*)::int as n, bool_or(${anyOf(sql`'U69999'`, ids)}) as hit from unnest(${pgArray("text", ids)}) u`,
    );
    expect(row).toEqual({ n: 70_000, hit: true });
  });

  it("any text reaches the database unchanged, nulls and dates included", async () => {
    const texts = ['a"b', "c\\d", "{x,y}", "", "NULL", null, "é ☃"];
    const found = await rows<{ t: string | null }>(
      database.db,
      sql`select t from unnest(${pgArray("text", texts)}) with ordinality as x(t, n) order by n`,
    );
    expect(found.map((r) => r.t)).toEqual(texts);
    const [at] = await rows<{ iso: string }>(
      database.db,
      sql`select to_char(t at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS') as iso
          from unnest(${pgArray("timestamptz", [new Date("2026-03-02T09:00:00Z")])}) t`,
    );
    expect(at!.iso).toBe("2026-03-02T09:00:00");
  });

  it("an empty list matches nothing", async () => {
    const found = await rows(database.db, sql`select 1 as one where ${anyOf(sql`'U1'`, [])}`);
    expect(found).toEqual([]);
  });

  it("the test databases refuse a statement with a parameter per item before it reaches the database", async () => {
    const ids = Array.from({ length: MAX_BIND_PARAMETERS + 1 }, (_, i) => `U${i}`);
    await expect(database.db.select().from(members).where(inArray(members.userId, ids))).rejects.toThrow(
      /1001 bind parameters/,
    );
    await expect(database.query(`select $${ids.length}::text`, ids)).rejects.toThrow(/bind parameters/);
    expect(await database.db.select().from(members).where(anyOf(members.userId, ids))).toEqual([]);
  });
});

/**
 * The shapes that put a parameter per item into a statement's text. The runtime guard above catches them only when a
 * test's list is long enough; this catches them in the source, whatever the tests' sizes.
 */
const PER_ITEM: { what: string; re: RegExp; repoOnly?: boolean }[] = [
  { what: "inArray / notInArray over a list (use anyOf)", re: /\b(?:inArray|notInArray)\(\s*[^,]+,(?!\s*\[\s*["'])/g },
  { what: "multi-row .values(list) (use unnest)", re: /\.values\(\s*(?:\[|[\w.]+\.map\()/g },
  { what: "sql.join of a parameter per item (use pgArray)", re: /sql\.join\(\s*[\w.]+\.map\(\(\w+\) => sql`\$\{/g },
  // Repositories only: elsewhere "in ${" is prose in a template string.
  { what: "an array interpolated after `in` (use anyOf)", re: /\bin \$\{/g, repoOnly: true },
];
/** Not lists: a subquery (constant text whatever it selects). */
const ALLOWED = [/inArray\(webhookDeliveries\.id, (?:overdue|beyond)\)/];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === "web" ? [] : sourceFiles(path);
    return e.name.endsWith(".ts") && !e.name.endsWith(".test.ts") ? [path] : [];
  });
}

describe("no statement grows with a list", () => {
  it("src/ has no parameter-per-item query shape", () => {
    const root = join(import.meta.dirname, "..");
    const found: string[] = [];
    for (const file of sourceFiles(root)) {
      const text = readFileSync(file, "utf8");
      for (const { what, re, repoOnly } of PER_ITEM) {
        if (repoOnly && !file.endsWith(".repo.ts")) continue;
        for (const m of text.matchAll(re)) {
          const line = text.slice(0, m.index).split("\n").length;
          const context = text.slice(m.index, m.index + 80);
          if (ALLOWED.some((a) => a.test(context))) continue;
          found.push(`${relative(root, file)}:${line}: ${what}`);
        }
      }
    }
    expect(found).toEqual([]);
  });
});
