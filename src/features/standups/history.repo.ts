import { type Param, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { responses, runParticipants, standupRuns } from "../../db/schema.ts";
import { isActiveBlocker } from "./blockers.ts";
import { responseFields } from "./response-fields.ts";

/** One member's answers to a past run. */
export interface PastAnswer {
  answers: string[];
  mood: string | null;
  submittedAt: Date;
}

/** Someone a past run asked; with an answer they count as "answered", without as "asked". */
export interface PastParticipant {
  userId: string;
  dmChannel?: string | null;
  answer?: PastAnswer;
}

/** A standup that already happened and is closed. */
export interface PastRun {
  scheduleId: string;
  channelId: string;
  localDate: string;
  questions: string[];
  scheduleTz: string;
  startsAt: Date;
  remindAt: Date;
  closesAt: Date;
  remindedAt?: Date | null;
  closedAt?: Date | null;
  parentTs?: string | null;
  asked: PastParticipant[];
}

export interface ImportedHistory {
  runs: number;
  participants: number;
  responses: number;
}

// Every column goes in as one array through unnest: a batch is one statement with a few dozen parameters.
const PARTICIPANTS_PER_BATCH = 10_000;
const RUNS_PER_BATCH = 1_000;

/**
 * Writes past standups in bulk: closed runs, who each one asked, and the answers, stored as submitting
 * them would have stored them (see responseFields). For imports, the demo's history and the benchmarks'
 * data sets, where a service call per answer would take minutes for a year of a large team. Runs may
 * come from a generator: they are written some thousands of rows at a time, never all held at once, and
 * the next batch is prepared while the database writes the last one. Pass a transaction for all or
 * nothing. No Slack message, reply job or webhook follows; (schedule, date) pairs must not exist yet.
 */
export async function importHistory(
  ex: Executor,
  teamId: string,
  runs: Iterable<PastRun> | AsyncIterable<PastRun>,
): Promise<ImportedHistory> {
  const counts: ImportedHistory = { runs: 0, participants: 0, responses: 0 };
  let batch: PastRun[] = [];
  let batchRows = 0;
  let writing: Promise<void> | undefined;
  const send = async () => {
    const statement = batchInsert(teamId, batch, counts);
    batch = [];
    batchRows = 0;
    await writing;
    // drizzle runs a query each time it is awaited: one then() makes it a plain promise, run once.
    writing = ex.execute(statement).then(() => {});
    // Awaited at the next send or at the end; this only keeps Node from calling a failure unhandled meanwhile.
    writing.catch(() => {});
  };
  for await (const run of runs) {
    batch.push(run);
    batchRows += run.asked.length;
    if (batchRows >= PARTICIPANTS_PER_BATCH || batch.length >= RUNS_PER_BATCH) await send();
    // A statement of some megabytes leaves through the socket only while the event loop turns: between runs
    // it gets a turn, so the database has it whole while the next batch is made.
    await new Promise((resolve) => setImmediate(resolve));
  }
  if (batch.length > 0) await send();
  await writing;
  return counts;
}

type Cell = string | boolean | null;
const RUN_COLUMNS = [
  "schedule_id",
  "local_date",
  "channel_id",
  "questions",
  "schedule_tz",
  "starts_at",
  "remind_at",
  "closes_at",
  "parent_ts",
  "reminded_at",
  "closed_at",
] as const;
const PARTICIPANT_COLUMNS = ["schedule_id", "local_date", "user_id", "status", "dm_channel"] as const;
const ANSWER_COLUMNS = [
  "schedule_id",
  "local_date",
  "user_id",
  "answers",
  "yesterday",
  "today",
  "blockers",
  "mood",
  "has_blocker",
  "submitted_at",
] as const;
type Row<C extends readonly string[]> = Record<C[number], Cell>;

/**
 * One statement for a batch: the runs, then their participants and answers joined to the new run ids by
 * (schedule, date). Answers keep their order, so response ids follow the order they were given in.
 */
function batchInsert(teamId: string, runs: PastRun[], counts: ImportedHistory) {
  // Imports repeat the same "none"s and blockers many times; classifying them is the costly part.
  const blockerCache = new Map<string, boolean>();
  const isBlocker = (text: string) => {
    const known = blockerCache.get(text);
    if (known !== undefined) return known;
    const blocker = isActiveBlocker(text);
    blockerCache.set(text, blocker);
    return blocker;
  };
  const runRows = runs.map(
    (run): Row<typeof RUN_COLUMNS> => ({
      schedule_id: run.scheduleId,
      local_date: run.localDate,
      channel_id: run.channelId,
      questions: JSON.stringify(run.questions),
      schedule_tz: run.scheduleTz,
      starts_at: run.startsAt.toISOString(),
      remind_at: run.remindAt.toISOString(),
      closes_at: run.closesAt.toISOString(),
      parent_ts: run.parentTs ?? null,
      reminded_at: run.remindedAt?.toISOString() ?? null,
      closed_at: run.closedAt?.toISOString() ?? null,
    }),
  );
  const participantRows: Row<typeof PARTICIPANT_COLUMNS>[] = [];
  const answerRows: Row<typeof ANSWER_COLUMNS>[] = [];
  for (const run of runs) {
    for (const who of run.asked) {
      const key = { schedule_id: run.scheduleId, local_date: run.localDate, user_id: who.userId };
      participantRows.push({ ...key, status: who.answer ? "answered" : "asked", dm_channel: who.dmChannel ?? null });
      if (!who.answer) continue;
      const f = responseFields(run, who.answer.answers, who.answer.mood, isBlocker);
      answerRows.push({
        ...key,
        answers: JSON.stringify(f.answers),
        yesterday: f.yesterday,
        today: f.today,
        blockers: f.blockers,
        mood: f.mood,
        has_blocker: f.hasBlocker,
        submitted_at: who.answer.submittedAt.toISOString(),
      });
    }
  }
  counts.runs += runRows.length;
  counts.participants += participantRows.length;
  counts.responses += answerRows.length;
  const r = columns(RUN_COLUMNS, runRows);
  const p = columns(PARTICIPANT_COLUMNS, participantRows);
  const a = columns(ANSWER_COLUMNS, answerRows);
  return sql`
    with run as (
      insert into ${standupRuns} (team_id, schedule_id, local_date, channel_id, questions, schedule_tz, starts_at,
                                  remind_at, closes_at, status, parent_ts, reminded_at, closed_at, created_at)
      select ${teamId}, schedule_id, local_date, channel_id, questions, schedule_tz, starts_at,
             remind_at, closes_at, 'closed', parent_ts, reminded_at, closed_at, starts_at
      from unnest(${r.schedule_id}::text[], ${r.local_date}::date[], ${r.channel_id}::text[],
                  ${r.questions}::jsonb[], ${r.schedule_tz}::text[], ${r.starts_at}::timestamptz[],
                  ${r.remind_at}::timestamptz[], ${r.closes_at}::timestamptz[], ${r.parent_ts}::text[],
                  ${r.reminded_at}::timestamptz[], ${r.closed_at}::timestamptz[])
        as r(schedule_id, local_date, channel_id, questions, schedule_tz, starts_at, remind_at, closes_at,
             parent_ts, reminded_at, closed_at)
      returning id, schedule_id, local_date, starts_at
    ), participant as (
      insert into ${runParticipants} (run_id, user_id, team_id, status, dm_channel, created_at)
      select run.id, p.user_id, ${teamId}, p.status, p.dm_channel, run.starts_at
      from unnest(${p.schedule_id}::text[], ${p.local_date}::date[], ${p.user_id}::text[], ${p.status}::text[],
                  ${p.dm_channel}::text[])
        as p(schedule_id, local_date, user_id, status, dm_channel)
      join run using (schedule_id, local_date)
    )
    insert into ${responses} (team_id, schedule_id, run_id, user_id, standup_date, answers, yesterday, today,
                              blockers, mood, has_blocker, submitted_at)
    select ${teamId}, a.schedule_id, run.id, a.user_id, a.local_date, a.answers, a.yesterday, a.today,
           a.blockers, a.mood, a.has_blocker, a.submitted_at
    from unnest(${a.schedule_id}::text[], ${a.local_date}::date[], ${a.user_id}::text[], ${a.answers}::jsonb[],
                ${a.yesterday}::text[], ${a.today}::text[], ${a.blockers}::text[], ${a.mood}::text[],
                ${a.has_blocker}::boolean[], ${a.submitted_at}::timestamptz[]) with ordinality
      as a(schedule_id, local_date, user_id, answers, yesterday, today, blockers, mood, has_blocker,
           submitted_at, n)
    join run using (schedule_id, local_date)
    order by a.n`;
}

/**
 * One parameter per column, each an array literal encoded here (while the database still writes the
 * previous batch) rather than in the driver.
 */
function columns<C extends readonly string[]>(names: C, rows: Row<C>[]): Record<C[number], Param> {
  const out = {} as Record<C[number], Param>;
  for (const name of names as readonly C[number][]) out[name] = sql.param(arrayLiteral(rows.map((row) => row[name])));
  return out;
}

/** A PostgreSQL array literal with every element quoted, so any text reaches unnest unchanged. */
function arrayLiteral(values: Cell[]): string {
  return `{${values.map((v) => (v === null ? "NULL" : `"${String(v).replace(/["\\]/g, "\\$&")}"`)).join(",")}}`;
}
