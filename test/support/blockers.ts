import { sql } from "drizzle-orm";
import type { Db } from "../../src/db/client.ts";
import { rows } from "../../src/db/client.ts";

/**
 * A blocker item written straight to the database, as answering with a blocker leaves it (the Slack side is tested
 * in the standups feature): open since `openedDate`, last reported on `lastDate`; `resolved` closes it.
 */
export async function seedBlocker(
  db: Db,
  b: {
    teamId: string;
    scheduleId: string;
    userId: string;
    text: string;
    openedDate: string;
    lastDate?: string;
    resolved?: { by: string; at: string; note?: string; via?: string };
  },
): Promise<number> {
  const opened = `${b.openedDate}T09:10:00Z`;
  const last = b.lastDate ?? b.openedDate;
  const [row] = await rows<{ id: number }>(
    db,
    sql`insert into blockers (team_id, schedule_id, user_id, text, status, opened_at, opened_date, last_reported_at,
          last_date, resolved_at, resolved_by, resolution_note, resolved_via)
        values (${b.teamId}, ${b.scheduleId}, ${b.userId}, ${b.text}, ${b.resolved ? "resolved" : "open"},
          ${opened}::timestamptz, ${b.openedDate}::date, ${`${last}T09:10:00Z`}::timestamptz, ${last}::date,
          ${b.resolved?.at ?? null}::timestamptz, ${b.resolved?.by ?? null}, ${b.resolved?.note ?? null},
          ${b.resolved ? (b.resolved.via ?? "dashboard") : null})
        returning id::int as id`,
  );
  return row!.id;
}
