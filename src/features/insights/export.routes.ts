import { finished, Readable } from "node:stream";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { errorBody, filterQuery, mutationErrors, rangeQuery, sessionErrors } from "../../contract/index.ts";
import type { QuestionDetail } from "../../contract/questions.ts";
import { type Executor, rows } from "../../db/client.ts";
import type { Deps } from "../../deps.ts";
import { requireSession } from "../../http/auth.ts";
import type { App } from "../../http/server.ts";
import { resolveWindow, workspaceToday } from "../calendar/index.ts";
import { displayName } from "../schedules/index.ts";
import { CSV_BOM, csvLine } from "./csv.ts";
import { copyCsv } from "./export.copy.ts";
import type { Filters } from "./filters.repo.ts";
import { MOOD_SCORE, resolveFilters } from "./insights.service.ts";
import { labelAnswers, namesFor } from "./responses.presenter.ts";

/** The spec's columns, in its order; the standup and every question with its answer follow (csvHeader). */
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
  id: string;
  standup_date: string;
  user_id: string;
  real_name: string;
  yesterday: string;
  today: string;
  blockers: string;
  mood: string;
  submitted_at: string;
  schedule_id: string;
  schedule_name: string;
  channel_id: string;
  questions: string[] | null;
  answers: string[] | null;
  question_details: QuestionDetail[] | null;
}

/**
 * The header: the spec's eight columns, then schedule_id and standup_name, then question_1, answer_1, …
 * question_N, answer_N for the most questions any exported response has: one row per response, each answer
 * beside the question it was asked with, so a spreadsheet can filter and sort by column. mood_score comes last:
 * added after every column that already existed, so none moves for a sheet or script that reads by position.
 */
export function csvHeader(pairs: number): string[] {
  const qa = Array.from({ length: pairs }, (_, i) => [`question_${i + 1}`, `answer_${i + 1}`]).flat();
  return [...CSV_COLUMNS, "schedule_id", "standup_name", ...qa, "mood_score"];
}

/** The mood as a number a spreadsheet can average: 😀 5 … 😫 1 (MOOD_SCORE); "" without a mood or for another value. */
export function moodScoreCell(mood: string): number | "" {
  return Object.hasOwn(MOOD_SCORE, mood) ? MOOD_SCORE[mood]! : "";
}

function csvCells(r: ExportRow, pairs: number, channels?: ReadonlyMap<string, string>): unknown[] {
  const labelled = labelAnswers(r.questions, r.answers, r.question_details);
  const qa = Array.from({ length: pairs }, (_, i) => [labelled[i]?.question ?? "", labelled[i]?.answer ?? ""]).flat();
  return [
    ...CSV_COLUMNS.map((c) => r[c]),
    r.schedule_id,
    displayName({ name: r.schedule_name, channelId: r.channel_id }, channels),
    ...qa,
    moodScoreCell(r.mood),
  ];
}

/** How many question/answer column pairs the export needs: the most any response in the window has. */
export async function exportAnswerPairs(
  ex: Executor,
  teamId: string,
  from: string,
  to: string,
  f: Filters = {},
): Promise<number> {
  const [row] = await rows<{ n: number }>(
    ex,
    sql`select coalesce(max(greatest(jsonb_array_length(r.answers), coalesce(jsonb_array_length(run.questions), 0))), 0)::int as n
        from responses r
        left join standup_runs run on run.id = r.run_id and run.team_id = r.team_id
        where r.team_id = ${teamId} and r.standup_date between ${from} and ${to}
          ${f.scheduleId ? sql`and r.schedule_id = ${f.scheduleId}` : sql``}
          ${f.userId ? sql`and r.user_id = ${f.userId}` : sql``}`,
  );
  return row?.n ?? 0;
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
  let after: { date: string; id: string } | undefined;
  for (;;) {
    const batch = await rows<ExportRow>(
      ex,
      sql`select r.id::text as id, r.standup_date::text as standup_date, r.user_id, coalesce(m.real_name, '') as real_name,
                 r.yesterday, r.today, r.blockers, coalesce(r.mood, '') as mood,
                 to_char(r.submitted_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as submitted_at,
                 r.schedule_id, coalesce(s.name, '') as schedule_name,
                 coalesce(s.channel_id, run.channel_id, '') as channel_id, run.questions, r.answers,
                 run.question_details
          from responses r
          left join members m on m.team_id = r.team_id and m.user_id = r.user_id
          left join standup_runs run on run.id = r.run_id and run.team_id = r.team_id
          left join schedules s on s.id = r.schedule_id and s.team_id = r.team_id
          where r.team_id = ${teamId} and r.standup_date between ${from} and ${to}
            ${f.scheduleId ? sql`and r.schedule_id = ${f.scheduleId}` : sql``}
            ${f.userId ? sql`and r.user_id = ${f.userId}` : sql``}
            ${after ? sql`and (r.standup_date, r.id) > (${after.date}::date, ${after.id}::int8)` : sql``}
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

export async function* csvChunks(
  ex: Executor,
  teamId: string,
  from: string,
  to: string,
  f: Filters = {},
  channels?: ReadonlyMap<string, string>,
): AsyncGenerator<string> {
  const pairs = await exportAnswerPairs(ex, teamId, from, to, f);
  yield CSV_BOM + csvLine(csvHeader(pairs));
  for await (const batch of exportRows(ex, teamId, from, to, f)) {
    // Small chunks: one large string per batch stays in V8's large-object space until a full GC.
    for (let i = 0; i < batch.length; i += CHUNK_ROWS) {
      yield batch
        .slice(i, i + CHUNK_ROWS)
        .map((r) => csvLine(csvCells(r, pairs, channels)))
        .join("");
    }
  }
}

export function exportRoutes(app: App, deps: Deps): void {
  /** Downloads streaming through COPY now, each on a connection of its own. */
  let copying = 0;
  const copyThrough = async (...args: Parameters<typeof copyCsv>): Promise<Readable> => {
    copying += 1;
    try {
      const stream = await copyCsv(...args);
      finished(stream, () => {
        copying -= 1;
      });
      return stream;
    } catch (err) {
      copying -= 1;
      throw err;
    }
  };
  app.get(
    "/dashboard/api/export/csv",
    {
      schema: {
        summary: "Every answer in a window as CSV (without dates: the last 30 days), of one standup or member",
        querystring: rangeQuery.extend(filterQuery.shape),
        response: {
          200: {
            description:
              `RFC 4180 CSV, UTF-8 starting with a byte order mark (EF BB BF, so Excel reads it as UTF-8), columns ${CSV_COLUMNS.join(", ")}, ` +
              "then schedule_id, standup_name and question_1, answer_1, … question_N, answer_N up to the most questions of " +
              "any exported response, then mood_score (the mood as a number, 😀 5 … 😫 1; empty without a mood). A cell a " +
              "spreadsheet would run as a formula (starting with = + @ tab or CR, or - followed by a name, reference, " +
              "function or expression such as -A1, -SUM( or -1+2) gets a leading '; plain text such as -, - item or -5 is " +
              "sent as it is",
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
      const [today, f, channels] = await Promise.all([
        workspaceToday(deps, teamId),
        resolveFilters(deps, teamId, req.query),
        namesFor(deps, teamId),
      ]);
      // Without dates the export covers the last 30 days; an explicit range may be any length.
      const w = resolveWindow(req.query, today, { defaultDays: 30, maxSpan: 100 * 366 });
      reply
        .header("content-type", "text/csv; charset=utf-8")
        .header("content-disposition", `attachment; filename="standups-${w.from}-${w.to}.csv"`)
        .header("cache-control", "no-store");
      // A PostgreSQL server streams the file with COPY, which holds a pool connection until the client has read
      // the whole file, so only a quarter of the pool does; further downloads, and every download on the embedded
      // database (one connection), page by keyset (a connection per page). Both give the same bytes.
      const pool = deps.database.pool;
      const csv =
        pool && copying < Math.max(1, Math.floor((pool.options.max ?? 10) / 4))
          ? await copyThrough(pool, teamId, w.from, w.to, f, channels)
          : Readable.from(csvChunks(deps.db, teamId, w.from, w.to, f, channels), { objectMode: false });
      // A stream is sent as it is (no serialiser runs); the schema documents the text it carries.
      return reply.send(csv as unknown as string);
    },
  );
}
