import { Readable } from "node:stream";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { errorBody, filterQuery, mutationErrors, rangeQuery, sessionErrors } from "../../contract/index.ts";
import { type Executor, rows } from "../../db/client.ts";
import type { Deps } from "../../deps.ts";
import { requireSession } from "../../http/auth.ts";
import type { App } from "../../http/server.ts";
import { resolveWindow, workspaceToday } from "../calendar/index.ts";
import { csvLine } from "./csv.ts";
import type { Filters } from "./filters.repo.ts";
import { resolveFilters } from "./insights.service.ts";

export const CSV_COLUMNS = [
  "standup_date",
  "user_id",
  "real_name",
  "yesterday",
  "today",
  "blockers",
  "mood",
  "submitted_at",
] as const;
const BATCH = 2000;
const CHUNK_ROWS = 250;

interface ExportRow {
  id: number;
  standup_date: string;
  user_id: string;
  real_name: string;
  yesterday: string;
  today: string;
  blockers: string;
  mood: string;
  submitted_at: string;
}

/**
 * Rows in batches by keyset (standup_date, id): each batch is one short query, so memory stays flat for
 * any size and the embedded database's single connection is never held for the whole download.
 */
export async function* exportRows(
  ex: Executor,
  teamId: string,
  from: string,
  to: string,
  f: Filters = {},
): AsyncGenerator<ExportRow[]> {
  let after: { date: string; id: number } | undefined;
  for (;;) {
    const batch = await rows<ExportRow>(
      ex,
      sql`select r.id::int as id, r.standup_date::text as standup_date, r.user_id, coalesce(m.real_name, '') as real_name,
                 r.yesterday, r.today, r.blockers, coalesce(r.mood, '') as mood,
                 to_char(r.submitted_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as submitted_at
          from responses r
          left join members m on m.team_id = r.team_id and m.user_id = r.user_id
          where r.team_id = ${teamId} and r.standup_date between ${from} and ${to}
            ${f.scheduleId ? sql`and r.schedule_id = ${f.scheduleId}` : sql``}
            ${f.userId ? sql`and r.user_id = ${f.userId}` : sql``}
            ${after ? sql`and (r.standup_date, r.id) > (${after.date}::date, ${after.id})` : sql``}
          order by r.standup_date, r.id
          limit ${BATCH}`,
    );
    if (batch.length === 0) return;
    yield batch;
    if (batch.length < BATCH) return;
    const last = batch[batch.length - 1]!;
    after = { date: last.standup_date, id: last.id };
  }
}

async function* csvChunks(ex: Executor, teamId: string, from: string, to: string, f: Filters): AsyncGenerator<string> {
  yield csvLine([...CSV_COLUMNS]);
  for await (const batch of exportRows(ex, teamId, from, to, f)) {
    // Small chunks: one large string per batch stays in V8's large-object space until a full GC.
    for (let i = 0; i < batch.length; i += CHUNK_ROWS) {
      yield batch
        .slice(i, i + CHUNK_ROWS)
        .map((r) => csvLine(CSV_COLUMNS.map((c) => r[c])))
        .join("");
    }
  }
}

export function exportRoutes(app: App, deps: Deps): void {
  app.get(
    "/dashboard/api/export/csv",
    {
      schema: {
        summary: "Every answer in a window as CSV (without dates: the last 30 days), of one standup or member",
        querystring: rangeQuery.extend(filterQuery.shape),
        response: {
          200: {
            description: `RFC 4180 CSV, UTF-8, columns ${CSV_COLUMNS.join(", ")}`,
            content: { "text/csv": { schema: z.string() } },
          },
          ...sessionErrors,
          400: mutationErrors[400],
          404: errorBody.describe("schedule_id is not a standup of this workspace"),
        },
      },
    },
    async (req, reply) => {
      const { teamId } = requireSession(req);
      const [today, f] = await Promise.all([workspaceToday(deps, teamId), resolveFilters(deps, teamId, req.query)]);
      // Without dates the export covers the last 30 days; an explicit range may be any length.
      const w = resolveWindow(req.query, today, { defaultDays: 30, maxSpan: 100 * 366 });
      reply
        .header("content-type", "text/csv; charset=utf-8")
        .header("content-disposition", `attachment; filename="standups-${w.from}-${w.to}.csv"`)
        .header("cache-control", "no-store");
      const csv = Readable.from(csvChunks(deps.db, teamId, w.from, w.to, f), { objectMode: false });
      // A stream is sent as it is (no serialiser runs); the schema documents the text it carries.
      return reply.send(csv as unknown as string);
    },
  );
}
