import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { freshDatabase } from "../../test/support/database.ts";
import { rows } from "../db/client.ts";
import { ANY_PART, postKey, postKeyLike, postKeySql } from "./post-keys.ts";

describe("post keys: one format in TypeScript, SQL and LIKE", async () => {
  const database = await freshDatabase();
  afterAll(() => database.close());

  it("builds the same key in SQL as in TypeScript, from columns and values", async () => {
    const [row] = await rows<{ key: string; hit: boolean }>(
      database.db,
      sql`select ${postKeySql("run", sql`r.id`, "ask", sql`r.u`)} as key,
                 ${postKeySql("run", sql`r.id`, "ask", sql`r.u`)} like ${postKeyLike("run", ANY_PART, "ask", "U_1%")} as hit
          from (values (12::bigint, 'U_1%')) as r(id, u)`,
    );
    expect(row?.key).toBe(postKey("run", 12, "ask", "U_1%"));
    expect(row?.hit).toBe(true);
  });

  it("escapes LIKE's wildcards in fixed parts: an id with _ or % matches only itself", async () => {
    const pattern = postKeyLike("run", ANY_PART, "ask", "U_1%");
    const [row] = await rows<{ same: boolean; other: boolean }>(
      database.db,
      sql`select ${postKey("run", 3, "ask", "U_1%")} like ${pattern} as same,
                 ${postKey("run", 3, "ask", "UX1abc")} like ${pattern} as other`,
    );
    expect(row).toEqual({ same: true, other: false });
  });
});
