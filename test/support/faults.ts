import { sql } from "drizzle-orm";
import type { Db } from "../../src/db/client.ts";

/**
 * Makes the next `times` row writes (insert or update) to `table` fail in the database itself, as a lost connection
 * or a full disk would fail them: a trigger that raises while a sequence (which no rollback resets) counts up to
 * `times`. Runs on PostgreSQL and PGlite. `remove` drops the trigger.
 */
export async function failWrites(db: Db, table: string, times = 1): Promise<{ remove(): Promise<void> }> {
  const name = `fault_${table}_${Math.random().toString(36).slice(2, 8)}`;
  await db.execute(sql.raw(`create sequence ${name}_seq`));
  await db.execute(
    sql.raw(`create function ${name}() returns trigger language plpgsql as $$
      begin
        if nextval('${name}_seq') <= ${times} then raise exception 'injected fault writing ${table}'; end if;
        return new;
      end $$`),
  );
  await db.execute(
    sql.raw(`create trigger ${name} before insert or update on ${table} for each row execute function ${name}()`),
  );
  return {
    async remove() {
      await db.execute(sql.raw(`drop trigger ${name} on ${table}`));
      await db.execute(sql.raw(`drop function ${name}()`));
      await db.execute(sql.raw(`drop sequence ${name}_seq`));
    },
  };
}
