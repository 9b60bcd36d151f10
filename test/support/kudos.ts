import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Executor } from "../../src/db/client.ts";

/**
 * Kudos for the e-mail digest's tests. The kudos feature (table `kudos`) is built on another branch: until it is
 * merged this creates its table as that branch's migration does; once merged the table exists and is used as is.
 * TODO(kudos merge): give kudos through the kudos feature instead.
 */
export async function seedKudo(ex: Executor, teamId: string, at: Date): Promise<void> {
  await ex.execute(sql`create table if not exists kudos (
    id bigserial primary key, team_id text not null, from_user text not null, to_user text not null,
    message text not null, channel_id text not null, source text not null, source_key text not null,
    given_on date not null, created_at timestamp with time zone not null)`);
  await ex.execute(
    sql`insert into kudos (team_id, from_user, to_user, message, channel_id, source, source_key, given_on, created_at)
        values (${teamId}, 'U0GIVER', 'U0TAKER', 'thanks', 'C0KUDOS', 'command',
                ${`cmd:${randomBytes(6).toString("hex")}`}, ${at.toISOString().slice(0, 10)}, ${at.toISOString()})`,
  );
}
