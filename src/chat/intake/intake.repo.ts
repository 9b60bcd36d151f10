import type { Database } from "../../db/client.ts";

/**
 * The intake's SQL (table `chat_events`). The statements on the acknowledgement path are of constant text with
 * arrays (`unnest`, `= any`), prepared once per connection on PostgreSQL, whatever the batch size.
 */

export type DeliveryKind = "event" | "command" | "interaction";

export interface RecordRow {
  key: string;
  teamId: string | null;
  kind: DeliveryKind;
  type: string | null;
  payload: string;
}

/** A stored delivery taken for (re)processing. */
export interface TakenRow {
  key: string;
  kind: DeliveryKind;
  payload: string;
  attempts: number;
}

export interface FailedEventRow {
  key: string;
  kind: DeliveryKind;
  type: string | null;
  receivedAt: Date;
  attempts: number;
  lastError: string | null;
  updatedAt: Date | null;
}

type Query = Pick<Database, "query">;

/**
 * Stores a batch, each pending with its first attempt under way here until `$7` (the lease). The keys that come back
 * were new; the rest had been received before (a Slack retry, or a delivery another instance took).
 */
const RECORD_SQL = `insert into chat_events (event_id, team_id, kind, type, payload, received_at, state, attempts, retry_at)
  select e.key, e.team_id, e.kind, e.type, e.payload, $6::timestamptz, 'pending', 1, $7::timestamptz
    from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[]) as e(key, team_id, kind, type, payload)
  on conflict (event_id) do nothing
  returning event_id`;

export async function recordDeliveries(
  db: Query,
  batch: RecordRow[],
  now: Date,
  leaseUntil: Date,
): Promise<Set<string>> {
  const inserted = await db.query<{ event_id: string }>(
    RECORD_SQL,
    [
      batch.map((r) => r.key),
      batch.map((r) => r.teamId),
      batch.map((r) => r.kind),
      batch.map((r) => r.type),
      batch.map((r) => r.payload),
      now.toISOString(),
      leaseUntil.toISOString(),
    ],
    "upbeat_intake_record",
  );
  return new Set(inserted.map((r) => r.event_id));
}

/** Done: the body is no longer needed (it may hold answer text), so it goes now rather than at retention. */
const DONE_SQL = `update chat_events set state = 'done', payload = null, retry_at = null, updated_at = $2::timestamptz
  where event_id = any($1::text[]) and state = 'pending'`;

export async function markDone(db: Query, keys: string[], now: Date): Promise<void> {
  await db.query(DONE_SQL, [keys, now.toISOString()], "upbeat_intake_done");
}

/**
 * An attempt failed: taken again at `$3` while attempts remain (`$4` the most), else failed for good with its error.
 * `$5` true: never again (an interaction not worth re-running). A delivery failed for good keeps no body (it can
 * hold answer text and user ids, and nothing runs it again): admins see its kind, type and error.
 */
const FAILED_SQL = `update chat_events
  set state = case when $5::boolean or attempts >= $4::int then 'failed' else 'pending' end,
      retry_at = case when $5::boolean or attempts >= $4::int then null else $3::timestamptz end,
      payload = case when $5::boolean or attempts >= $4::int then null else payload end,
      last_error = $2, updated_at = $6::timestamptz
  where event_id = $1 and state = 'pending'
  returning state`;

export async function markAttemptFailed(
  db: Query,
  input: { key: string; error: string; retryAt: Date; maxAttempts: number; final: boolean; now: Date },
): Promise<"pending" | "failed" | undefined> {
  const [row] = await db.query<{ state: "pending" | "failed" }>(FAILED_SQL, [
    input.key,
    input.error,
    input.retryAt.toISOString(),
    input.maxAttempts,
    input.final,
    input.now.toISOString(),
  ]);
  return row?.state;
}

/**
 * A pending row whose lease ran out with its attempts spent (its last attempt died with the process, or hung) fails
 * for good; the error of an earlier attempt, if any, is kept.
 */
const EXPIRE_SQL = `update chat_events
  set state = 'failed', retry_at = null, updated_at = $1::timestamptz, payload = null,
      last_error = coalesce(last_error, 'not finished within its lease (the instance stopped or it hung)')
  where state = 'pending' and retry_at <= $1::timestamptz and attempts >= $2::int
  returning kind`;

export async function expireSpent(db: Query, now: Date, maxAttempts: number): Promise<DeliveryKind[]> {
  const rows = await db.query<{ kind: DeliveryKind }>(EXPIRE_SQL, [now.toISOString(), maxAttempts]);
  return rows.map((r) => r.kind);
}

/**
 * Takes up to `$2` due rows for another attempt, each leased until `$3`: `skip locked` lets every instance sweep at
 * once without taking the same row, and the new `retry_at` keeps them from the next sweep while this one works.
 */
const TAKE_SQL = `update chat_events c set attempts = c.attempts + 1, retry_at = $3::timestamptz, updated_at = $1::timestamptz
  from (select event_id from chat_events
         where state = 'pending' and retry_at <= $1::timestamptz and attempts < $4::int
         order by retry_at limit $2 for update skip locked) due
  where c.event_id = due.event_id
  returning c.event_id as key, c.kind, c.payload, c.attempts`;

export async function takeDue(
  db: Query,
  now: Date,
  limit: number,
  leaseUntil: Date,
  maxAttempts: number,
): Promise<TakenRow[]> {
  return db.query<TakenRow>(TAKE_SQL, [now.toISOString(), limit, leaseUntil.toISOString(), maxAttempts]);
}

/** A workspace's deliveries that could not be processed, newest first. */
export async function listFailed(db: Query, teamId: string, limit: number): Promise<FailedEventRow[]> {
  return db.query<FailedEventRow>(
    `select event_id as key, kind, type, received_at as "receivedAt", attempts, last_error as "lastError",
            updated_at as "updatedAt"
       from chat_events where team_id = $1 and state = 'failed' order by received_at desc limit $2`,
    [teamId, limit],
  );
}
