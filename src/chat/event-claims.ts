import type { Database } from "../db/client.ts";
import type { Clock } from "../lib/clock.ts";

/** Most event ids claimed by one statement. */
export const CLAIM_BATCH_MAX = 500;
/** How long the first event of a batch waits for others: a statement per few milliseconds, not per event. */
export const CLAIM_WINDOW_MS = 5;

/**
 * One statement claims a whole batch: the ids that come back were new; the rest had been received before (a Slack
 * retry, or a delivery another instance already took). Constant text, so it is never rebuilt per call.
 */
const CLAIM_SQL = `insert into chat_events (event_id, team_id, received_at)
  select e.event_id, e.team_id, $3::timestamptz from unnest($1::text[], $2::text[]) as e(event_id, team_id)
  on conflict (event_id) do nothing
  returning event_id`;

interface Waiter {
  eventId: string;
  teamId: string | null;
  resolve(claimed: boolean): void;
  reject(err: unknown): void;
}

/**
 * Exactly-once for Slack event deliveries, batched. Each `claim` waits for the next statement, which runs
 * CLAIM_WINDOW_MS after the first event waiting for it (or at once when CLAIM_BATCH_MAX are waiting); statements run
 * one at a time, so events arriving while one runs go together in the next. The event was acknowledged already: the
 * wait delays only its handling, by a few milliseconds. The outcome is the same as one insert per
 * event: the database's unique key decides, across retries and instances; the same id twice in one batch is
 * claimed by the first only.
 */
export class EventClaims {
  #pending: Waiter[] = [];
  #running = false;
  #timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly database: Pick<Database, "query">,
    private readonly clock: Clock,
    private readonly windowMs = CLAIM_WINDOW_MS,
  ) {}

  /** True when this delivery is the first of its event id; false for a retry or a duplicate. */
  claim(eventId: string, teamId: string | undefined): Promise<boolean> {
    return new Promise<boolean>((resolve, reject) => {
      this.#pending.push({ eventId, teamId: teamId ?? null, resolve, reject });
      this.#schedule();
    });
  }

  #schedule(): void {
    if (this.#running) return;
    if (this.#pending.length >= CLAIM_BATCH_MAX) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
      void this.#flush();
      return;
    }
    this.#timer ??= setTimeout(() => {
      this.#timer = undefined;
      void this.#flush();
    }, this.windowMs);
  }

  async #flush(): Promise<void> {
    if (this.#running || this.#pending.length === 0) return;
    this.#running = true;
    const batch = this.#pending.splice(0, CLAIM_BATCH_MAX);
    try {
      const first = new Map<string, Waiter>();
      for (const w of batch) if (!first.has(w.eventId)) first.set(w.eventId, w);
      const ids = [...first.keys()];
      const teams = ids.map((id) => first.get(id)!.teamId);
      const claimed = await this.database.query<{ event_id: string }>(
        CLAIM_SQL,
        [ids, teams, this.clock.now().toISOString()],
        "upbeat_claim_events",
      );
      const fresh = new Set(claimed.map((r) => r.event_id));
      for (const w of batch) w.resolve(first.get(w.eventId) === w && fresh.has(w.eventId));
    } catch (err) {
      for (const w of batch) w.reject(err);
    } finally {
      this.#running = false;
      if (this.#pending.length > 0) this.#schedule();
    }
  }
}
