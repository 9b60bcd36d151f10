import type { Database } from "../../src/db/client.ts";

/**
 * Every table of the database, as the catalog lists them (Upbeat's, pg-boss's, drizzle's migration log), with its
 * rows as JSON ordered by primary key (by the whole row for a table without one), and every sequence's position:
 * two databases with equal contents give equal values.
 */
export async function tableContents(database: Database): Promise<Record<string, string[]>> {
  const tables = await database.query<{ schema: string; name: string; kind: string }>(
    `select n.nspname as schema, c.relname as name, c.relkind as kind
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where c.relkind in ('r', 'p', 'S') and not c.relispartition
        and n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg\\_%'
      order by 1, 2`,
    [],
  );
  const out: Record<string, string[]> = {};
  for (const t of tables) {
    const name = `"${t.schema}"."${t.name}"`;
    if (t.kind === "S") {
      const [seq] = await database.query<{ v: string }>(
        `select concat(last_value, ':', is_called) as v from ${name}`,
        [],
      );
      out[`${t.schema}.${t.name}`] = [seq?.v ?? ""];
      continue;
    }
    const pk = await database.query<{ col: string }>(
      `select a.attname as col from pg_index i
         join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
        where i.indrelid = $1::regclass and i.indisprimary
        order by array_position(i.indkey::int2[], a.attnum)`,
      [name],
    );
    const order = pk.length ? pk.map((c) => `t."${c.col}"`).join(", ") : "1";
    const found = await database.query<{ row: string }>(
      `select to_jsonb(t)::text as row from ${name} t order by ${order}`,
      [],
    );
    out[`${t.schema}.${t.name}`] = found.map((r) => r.row);
  }
  return out;
}
