import { sql } from "drizzle-orm";
import { rows } from "../../db/client.ts";
import type { Deps } from "../../deps.ts";

/**
 * Kudos given in the workspace in [from, to), for the weekly digest; null when this installation keeps no kudos.
 *
 * TODO(kudos merge): the kudos feature (table `kudos`) is built in parallel and is not on this branch. Once it is
 * merged, point this at the kudos feature's index (a count of a window) and drop the table check. Until then it
 * reads the table the kudos feature creates (team_id, created_at, indexed by kudos_team_created_idx) if it exists.
 */
export async function kudosGivenBetween(
  deps: Pick<Deps, "db">,
  teamId: string,
  from: Date,
  to: Date,
): Promise<number | null> {
  const [table] = await rows<{ present: boolean }>(deps.db, sql`select to_regclass('kudos') is not null as present`);
  if (!table?.present) return null;
  const [row] = await rows<{ n: number }>(
    deps.db,
    sql`select count(*)::int as n from kudos
        where team_id = ${teamId} and created_at >= ${from.toISOString()} and created_at < ${to.toISOString()}`,
  );
  return Number(row?.n ?? 0);
}
