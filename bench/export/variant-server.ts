/**
 * A stand-in for the export route with knobs, for bench/export/variants.ts: the same query, csvLine and
 * Readable.from streaming as src/features/insights/export.routes.ts (no auth, no app around it), with
 *   EXPORT_BATCH      rows per keyset batch (src: 2000)
 *   EXPORT_PREFETCH   1 = ask for the next batch before handing out the current one (src: 0)
 *   EXPORT_CHUNK      rows per yielded string (src: the whole batch)
 * Prints `ready <port>` once listening on 127.0.0.1.
 */
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { sql } from "drizzle-orm";
import Fastify from "fastify";
import { type Executor, openDatabase, rows } from "../../src/db/client.ts";
import { CSV_COLUMNS, csvLine } from "../../src/features/insights/index.ts";

const BATCH = Number(process.env.EXPORT_BATCH ?? 2000);
const PREFETCH = process.env.EXPORT_PREFETCH === "1";
const CHUNK = Number(process.env.EXPORT_CHUNK ?? 0) || BATCH;

interface ExportRow {
  id: number;
  standup_date: string;
  [column: string]: unknown;
}

function batchAfter(ex: Executor, teamId: string, from: string, to: string, after?: { date: string; id: number }) {
  return rows<ExportRow>(
    ex,
    sql`select r.id::int as id, r.standup_date::text as standup_date, r.user_id, coalesce(m.real_name, '') as real_name,
               r.yesterday, r.today, r.blockers, coalesce(r.mood, '') as mood,
               to_char(r.submitted_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as submitted_at
        from responses r
        left join members m on m.team_id = r.team_id and m.user_id = r.user_id
        where r.team_id = ${teamId} and r.standup_date between ${from} and ${to}
          ${after ? sql`and (r.standup_date, r.id) > (${after.date}::date, ${after.id})` : sql``}
        order by r.standup_date, r.id
        limit ${BATCH}`,
  );
}

async function* exportRows(ex: Executor, teamId: string, from: string, to: string): AsyncGenerator<ExportRow[]> {
  let pending: Promise<ExportRow[]> | undefined = batchAfter(ex, teamId, from, to);
  while (pending) {
    const batch: ExportRow[] = await pending;
    pending = undefined;
    if (batch.length === 0) return;
    if (batch.length === BATCH) {
      const last = batch[batch.length - 1]!;
      const next = () => batchAfter(ex, teamId, from, to, { date: last.standup_date, id: last.id });
      if (PREFETCH) pending = next();
      yield batch;
      if (!PREFETCH) pending = next();
    } else {
      yield batch;
    }
  }
}

async function* csvChunks(ex: Executor, teamId: string, from: string, to: string): AsyncGenerator<string> {
  yield csvLine([...CSV_COLUMNS]);
  for await (const batch of exportRows(ex, teamId, from, to)) {
    for (let i = 0; i < batch.length; i += CHUNK) {
      yield batch
        .slice(i, i + CHUNK)
        .map((r) => csvLine(CSV_COLUMNS.map((c) => r[c])))
        .join("");
    }
  }
}

const database = await openDatabase(process.env.DATABASE_URL!);
const app = Fastify({ logger: false });
app.get<{ Querystring: { team: string; from: string; to: string } }>("/export", async (req, reply) => {
  reply.header("content-type", "text/csv; charset=utf-8");
  return reply.send(
    Readable.from(csvChunks(database.db, req.query.team, req.query.from, req.query.to), { objectMode: false }),
  );
});
await app.listen({ port: 0, host: "127.0.0.1" });
process.stdout.write(`ready ${(app.server.address() as AddressInfo).port}\n`);
const stop = () => {
  app
    .close()
    .then(() => database.close())
    .finally(() => process.exit(0));
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
