import { createHash } from "node:crypto";
import type { Database } from "../../db/client.ts";
import type { Deps } from "../../deps.ts";
import { Batcher } from "./batcher.ts";
import { describeFailure, isNotInstalled, rerunnable } from "./failures.ts";
import {
  type DeliveryKind,
  expireSpent,
  markAttemptFailed,
  markDone,
  type RecordRow,
  recordDeliveries,
  takeDue,
} from "./intake.repo.ts";

/** Slack gives up after 3 s; an interactive delivery is answered by then even if no listener acknowledged. */
export const ACK_DEADLINE_MS = 2_500;
/** How long an attempt owns its delivery: past it, any instance's sweep takes the delivery again. */
export const INTAKE_LEASE_MS = 60_000;
/** Attempts per delivery, the first included; then it is kept as failed. */
export const INTAKE_MAX_ATTEMPTS = 5;
/** Wait after a failed attempt n: 30 s × 4^(n-1) (30 s, 2 min, 8 min, 32 min): the last ends ~45 min after receipt. */
export const INTAKE_BACKOFF_BASE_MS = 30_000;
/** A delivery kept as failed stays this long (shown to admins), longer than the 7 days of the others. */
export const FAILED_DELIVERY_RETENTION_DAYS = 30;
/** Acknowledged events being processed at once by this instance; past it the next is processed before its ack. */
export const EVENT_BACKLOG_MAX = 256;
/** Deliveries one sweep statement takes, and how many of them run at once. */
const SWEEP_BATCH = 100;
const SWEEP_CONCURRENCY = 8;
/** A sweep keeps taking batches while they come back full, for at most this long. */
const SWEEP_BUDGET_MS = 10_000;

export interface Delivery {
  kind: DeliveryKind;
  /** The parsed body: the Events API envelope, the slash command's form, or the interaction payload. */
  body: Record<string, unknown>;
  /** The bytes as they came, for the key of a delivery without an event id. */
  raw: Buffer | string;
  /**
   * The body as JSON text, when the transport has it and it holds exactly `body` (nothing was stripped): stored as
   * it is instead of serialising the body again.
   */
  json?: string;
  retry?: { retryNum: number; retryReason: string };
}

export type Ack = (response?: unknown) => Promise<void>;
/** Hands a body to the listeners; rejects when one of them failed. */
export type Dispatch = (body: Record<string, unknown>, ack: Ack, retry?: Delivery["retry"]) => Promise<void>;

const noAck: Ack = async () => {};

/**
 * The one intake of every transport (HTTP now, Socket Mode next): `receive` records the delivery in the database
 * and only then resolves with what the transport acknowledges with. Events are processed after the ack; slash
 * commands and interactions while it waits, so their answer can carry a response. Either is marked done when its
 * listeners succeed; what fails, or is never finished (a crash), is taken again by `sweep` on any instance, up to
 * INTAKE_MAX_ATTEMPTS with backoff, and then kept as failed for admins to see.
 */
/** The answer to a slash command whose listener failed before acknowledging (nothing was done). */
export const COMMAND_FAILED_REPLY = {
  response_type: "ephemeral",
  text: "Sorry, that did not work and nothing was changed. Please try again in a moment.",
} as const;

export class Intake {
  readonly #inFlight = new Set<Promise<void>>();
  readonly #recorder: Batcher<RecordRow, boolean>;
  readonly #done: Batcher<string, void>;

  constructor(
    private readonly deps: Pick<Deps, "clock" | "log" | "metrics"> & { database: Pick<Database, "query"> },
    private readonly dispatch: Dispatch,
  ) {
    this.#recorder = new Batcher(async (rows) => {
      // The same key twice in one batch: the first delivery is the one recorded.
      const first = new Map<string, RecordRow>();
      for (const r of rows) if (!first.has(r.key)) first.set(r.key, r);
      const now = this.deps.clock.now();
      const fresh = await recordDeliveries(
        this.deps.database,
        [...first.values()],
        now,
        new Date(now.getTime() + INTAKE_LEASE_MS),
      );
      return rows.map((r) => first.get(r.key) === r && fresh.has(r.key));
    });
    this.#done = new Batcher(async (keys) => {
      await markDone(this.deps.database, keys, this.deps.clock.now());
      return keys.map(() => undefined);
    });
  }

  /**
   * Records the delivery; resolves with the acknowledgement's body (undefined: empty) once it is stored, rejects
   * when it could not be (the transport must not acknowledge then: Slack retries what it got no 200 for). A delivery
   * received before is acknowledged without processing it again.
   */
  async receive(delivery: Delivery): Promise<unknown> {
    const key = deliveryKey(delivery);
    if (!(await this.record(delivery, key))) return undefined;
    if (delivery.kind === "event") {
      const work = () => this.#attempt(key, delivery.kind, delivery.body, noAck, delivery.retry);
      // Past a bounded backlog the work is done before answering, so overload slows senders instead of piling up.
      if (!this.#track(work, EVENT_BACKLOG_MAX)) await work();
      return undefined;
    }
    return new Promise<unknown>((resolve) => {
      const timer = setTimeout(() => resolve(undefined), ACK_DEADLINE_MS);
      const ack: Ack = async (response) => {
        clearTimeout(timer);
        resolve(response);
      };
      this.#track(async () => {
        await this.#attempt(key, delivery.kind, delivery.body, ack, delivery.retry);
        // A listener that failed without acknowledging: answer at once rather than at the deadline; a slash command
        // is told that nothing was done (it is not run again: the member types it again).
        clearTimeout(timer);
        resolve(delivery.kind === "command" ? COMMAND_FAILED_REPLY : undefined);
      });
    });
  }

  /** Stores the delivery (pending, leased to this instance); true when it is new. */
  record(delivery: Delivery, key = deliveryKey(delivery)): Promise<boolean> {
    const body = delivery.body;
    return this.#recorder.add({
      key,
      teamId: teamOf(body) ?? null,
      kind: delivery.kind,
      type: typeOf(delivery.kind, body) ?? null,
      payload: delivery.json ?? JSON.stringify(body),
    });
  }

  /**
   * Takes the deliveries whose lease or backoff has ended (any instance's) and processes them again, with an ack that
   * answers nobody. Those whose attempts are spent fail for good. Returns how many it processed.
   */
  async sweep(): Promise<number> {
    const started = Date.now();
    const now = this.deps.clock.now();
    for (const kind of await expireSpent(this.deps.database, now, INTAKE_MAX_ATTEMPTS)) {
      this.deps.metrics.chatEventFailures.inc({ kind, outcome: "exhausted" });
    }
    let processed = 0;
    for (;;) {
      const at = this.deps.clock.now();
      const rows = await takeDue(
        this.deps.database,
        at,
        SWEEP_BATCH,
        new Date(at.getTime() + INTAKE_LEASE_MS),
        INTAKE_MAX_ATTEMPTS,
      );
      let next = 0;
      const worker = async () => {
        while (next < rows.length) {
          const row = rows[next++]!;
          const body = JSON.parse(row.payload) as Record<string, unknown>;
          await this.#attempt(row.key, row.kind, body, noAck, undefined, row.attempts);
        }
      };
      await Promise.all(Array.from({ length: Math.min(SWEEP_CONCURRENCY, rows.length) }, worker));
      processed += rows.length;
      if (rows.length < SWEEP_BATCH || Date.now() - started > SWEEP_BUDGET_MS) return processed;
    }
  }

  /** Lets deliveries being processed finish (or `timeoutMs` pass), then stores what is marked done. */
  async settle(timeoutMs = 10_000): Promise<void> {
    const timeout = new Promise((resolve) => setTimeout(resolve, timeoutMs).unref());
    await Promise.race([Promise.allSettled([...this.#inFlight]), timeout]);
    await Promise.race([this.#done.flush(), timeout]);
  }

  /** Runs `work` in the background, held for settle(); false when `max` are running already. */
  #track(work: () => Promise<void>, max = Number.POSITIVE_INFINITY): boolean {
    if (this.#inFlight.size >= max) return false;
    const p: Promise<void> = work().finally(() => this.#inFlight.delete(p));
    this.#inFlight.add(p);
    return true;
  }

  /** One attempt: the listeners run; the delivery is marked done, or its failure stored. Never rejects. */
  async #attempt(
    key: string,
    kind: DeliveryKind,
    body: Record<string, unknown>,
    ack: Ack,
    retry: Delivery["retry"],
    attempt = 1,
  ): Promise<void> {
    let acked = false;
    const listenerAck: Ack = async (response) => {
      if (acked) return;
      acked = true;
      await ack(response);
    };
    try {
      await this.dispatch(body, listenerAck, retry);
    } catch (err) {
      if (!isNotInstalled(err)) {
        await this.#failed(key, kind, body, err, attempt, acked);
        return;
      }
      // A workspace that is not installed has no listener to run: done, not failed.
    }
    await this.#done
      .add(key)
      .catch((err: unknown) =>
        this.deps.log.warn({ err: describeFailure(err) }, "could not mark a chat delivery done (it will run again)"),
      );
  }

  async #failed(
    key: string,
    kind: DeliveryKind,
    body: Record<string, unknown>,
    err: unknown,
    attempt: number,
    acked: boolean,
  ): Promise<void> {
    const error = describeFailure(err);
    const final = !rerunnable(kind, body, acked);
    const now = this.deps.clock.now();
    const retryAt = new Date(now.getTime() + INTAKE_BACKOFF_BASE_MS * 4 ** (attempt - 1));
    const team_id = teamOf(body);
    try {
      const state = await markAttemptFailed(this.deps.database, {
        key,
        error,
        retryAt,
        maxAttempts: INTAKE_MAX_ATTEMPTS,
        final,
        now,
      });
      const outcome = state === "pending" ? "retry" : final ? "not_rerun" : "exhausted";
      if (state) this.deps.metrics.chatEventFailures.inc({ kind, outcome });
      this.deps.log.warn({ team_id, kind, attempt, outcome, err: error }, "chat delivery failed");
    } catch (markErr) {
      // The lease runs out and a sweep takes it again: nothing is lost, the error is only not stored.
      this.deps.log.error(
        { team_id, kind, attempt, err: error, markErr: describeFailure(markErr) },
        "chat delivery failed",
      );
    }
  }
}

/** Events by their event id; commands and interactions by trigger id and a hash of the body (see failures.ts). */
export function deliveryKey(d: Delivery): string {
  if (d.kind === "event" && typeof d.body.event_id === "string") return d.body.event_id;
  const hash = createHash("sha256").update(d.raw).digest("hex").slice(0, 32);
  const trigger = d.body.trigger_id;
  return typeof trigger === "string" ? `${trigger}/${hash}` : `sha256:${hash}`;
}

function teamOf(body: Record<string, unknown>): string | undefined {
  if (typeof body.team_id === "string") return body.team_id;
  const team = body.team as { id?: unknown } | undefined;
  if (typeof team?.id === "string") return team.id;
  const user = body.user as { team_id?: unknown } | undefined;
  return typeof user?.team_id === "string" ? user.team_id : undefined;
}

/** What the admin list shows: the event type, the slash command or the interaction type; never ids or text. */
function typeOf(kind: DeliveryKind, body: Record<string, unknown>): string | undefined {
  const value =
    kind === "event"
      ? (body.event as { type?: unknown } | undefined)?.type
      : kind === "command"
        ? body.command
        : body.type;
  return typeof value === "string" ? value.slice(0, 64) : undefined;
}
