import { sql } from "drizzle-orm";
import { fromDrizzle, fromPglite, type Job, type JobResult, PgBoss } from "pg-boss";
import type { Logger } from "pino";
import type { Database, Tx } from "../db/client.ts";
import type { Metrics, QueueDepth } from "../lib/metrics.ts";
import { RetryLaterError } from "../lib/retry-later.ts";

/**
 * Payloads of every job, by queue name. Features add their own with declaration merging:
 * `declare module "../../jobs/queue.ts" { interface JobPayloads { "x.y": {...} } }`.
 */
// biome-ignore lint/suspicious/noEmptyInterface: extended by features through declaration merging
export interface JobPayloads {}
export type JobName = keyof JobPayloads & string;

export type JobHandler<N extends JobName> = (
  payload: JobPayloads[N],
  job: { id: string; retryCount: number },
) => Promise<void>;

export interface QueueSettings {
  /** Start polling workers and the supervisor (false in tests, which drain by hand). */
  workers: boolean;
  /** Seconds before the first retry (pg-boss waits 1–2 times this); doubled on every further retry. */
  retryDelaySeconds: number;
  retryLimit: number;
  /** How long a worker that found its queue empty waits before it looks again. */
  pollingIntervalSeconds: number;
  /** Jobs per fetch in drain() (the workers fetch as many as they have free slots). */
  batchSize: number;
  /**
   * A running job's worker writes a heartbeat every `heartbeatRefreshSeconds`; a job whose last heartbeat is older
   * than `heartbeatSeconds` (pg-boss: at least 10) belongs to a worker that died and is retried.
   */
  heartbeatSeconds: number;
  heartbeatRefreshSeconds: number;
  /** How often each instance's supervisor looks for jobs with a stale heartbeat (and expired ones). */
  superviseIntervalSeconds: number;
}

/**
 * Crash recovery: a job whose instance died (kill -9, a lost host) is noticed by its heartbeat, not by the 300 s
 * expiry, and runs again on any live instance within about 20 s (worst case, first attempt):
 * heartbeat stale 10 s after the last one + next supervisor pass ≤ 5 s + retry delay ≤ 2 × 2 s + polling ≤ 1 s.
 * A message the dead worker was sending at that moment is taken over once its claim is stale (post-once.ts,
 * 20 s after the kill at the latest). queue.test.ts checks the sum against the 30 s target.
 */
export const DEFAULT_QUEUE_SETTINGS: QueueSettings = {
  workers: true,
  retryDelaySeconds: 2,
  // 2 s doubling (with pg-boss's jitter), capped at an hour: about a day of attempts, then the job fails for good.
  retryLimit: 30,
  pollingIntervalSeconds: 1,
  batchSize: 25,
  heartbeatSeconds: 10,
  // Three beats fit in one heartbeat window: a busy event loop or a slow database does not fail a live job.
  heartbeatRefreshSeconds: 3,
  superviseIntervalSeconds: 5,
};

/** A handler may run this long (heartbeat or not) before pg-boss gives up on it and retries the job. */
export const JOB_EXPIRY_SECONDS = 300;

/**
 * Retention of the queue's own rows, which pg-boss enforces itself (no code of ours): a finished job (completed,
 * failed for good, cancelled) is deleted this long after it finished, kept a week to look into a failure.
 */
export const JOB_DELETE_AFTER_SECONDS = 7 * 86_400;
/**
 * A job still waiting (created, or between retries) this long after its start time is deleted unrun. Every job
 * gives up within about a day of retries, so only a job stuck for good ever reaches it.
 */
export const JOB_RETENTION_SECONDS = 14 * 86_400;
/** How often pg-boss's supervisor deletes those rows (one instance per interval, claimed in its queue table). */
export const QUEUE_MAINTENANCE_INTERVAL_SECONDS = 3600;

const NIL_UUID = "00000000-0000-0000-0000-000000000000";

/**
 * Says why an error can never go away by retrying (a Slack error code, say), or undefined. Such a job ends at once
 * with a warning instead of retrying for a day.
 */
export type GiveUpOn = (err: unknown) => string | undefined;

interface Registered {
  handler: JobHandler<JobName>;
  concurrency: number;
}

export interface RegisterOptions {
  /** Handlers of this queue in flight at once per instance (default 4). */
  concurrency?: number;
}

export interface EnqueueOptions {
  /** Enqueue inside this open transaction: the job exists only if the transaction commits. */
  tx?: Tx;
  /** A Date, or seconds from now on the database's clock (a wait Slack asked for: no host clock involved). */
  startAfter?: Date | number;
  /**
   * With `singletonSeconds`: at most one job of this name and key per slot of that many seconds (pg-boss's
   * throttle; a second `enqueue` in the slot creates nothing). Alone, only a label: the queues' standard policy
   * does not deduplicate on it.
   */
  singletonKey?: string;
  singletonSeconds?: number;
  /** Higher runs first among the queue's ready jobs (pg-boss; default 0, negative allowed), then oldest first. */
  priority?: number;
}

/** Durable jobs in the database (pg-boss), on the embedded database and on a server alike. */
export class JobQueue {
  readonly #boss: PgBoss;
  readonly #handlers = new Map<string, Registered>();
  readonly #settings: QueueSettings;
  readonly #log: Logger;
  readonly #giveUpOn: GiveUpOn;
  readonly #metrics: Metrics | undefined;
  #started = false;
  readonly #pumps: Pump[] = [];

  constructor(
    database: Database,
    log: Logger,
    settings: Partial<QueueSettings> = {},
    opts: { giveUpOn?: GiveUpOn; metrics?: Metrics } = {},
  ) {
    this.#settings = { ...DEFAULT_QUEUE_SETTINGS, ...settings };
    this.#giveUpOn = opts.giveUpOn ?? (() => undefined);
    this.#metrics = opts.metrics;
    this.#log = log.child({ component: "queue" });
    const s = this.#settings;
    // The supervisor's pass fails jobs with a stale heartbeat; monitoring as often as it runs makes every pass count.
    const common = {
      schedule: false,
      supervise: s.workers,
      superviseIntervalSeconds: s.superviseIntervalSeconds,
      monitorIntervalSeconds: s.superviseIntervalSeconds,
      maintenanceIntervalSeconds: QUEUE_MAINTENANCE_INTERVAL_SECONDS,
    };
    this.#boss =
      database.kind === "pglite"
        ? new PgBoss({ db: fromPglite(database.pglite!), backend: "pglite", ...common })
        : new PgBoss({ connectionString: database.url, max: 5, ...common });
    this.#boss.on("error", (err: Error) => this.#log.warn({ err: err.message }, "job queue error"));
  }

  register<N extends JobName>(name: N, handler: JobHandler<N>, opts: RegisterOptions = {}): void {
    if (this.#started) throw new Error(`register ${name} before start()`);
    this.#handlers.set(name, {
      handler: handler as JobHandler<JobName>,
      concurrency: opts.concurrency ?? 4,
    });
  }

  get settings(): Readonly<QueueSettings> {
    return this.#settings;
  }

  get names(): string[] {
    return [...this.#handlers.keys()];
  }

  async start(): Promise<void> {
    await this.#boss.start();
    const s = this.#settings;
    for (const name of this.#handlers.keys()) {
      const backoff = s.retryDelaySeconds > 0;
      const options = {
        retryLimit: s.retryLimit,
        retryDelay: s.retryDelaySeconds,
        retryBackoff: backoff,
        ...(backoff ? { retryDelayMax: 3600 } : {}),
        expireInSeconds: JOB_EXPIRY_SECONDS,
        heartbeatSeconds: s.heartbeatSeconds,
        deleteAfterSeconds: JOB_DELETE_AFTER_SECONDS,
        retentionSeconds: JOB_RETENTION_SECONDS,
      };
      if (await this.#boss.getQueue(name)) await this.#boss.updateQueue(name, options);
      else await this.#boss.createQueue(name, options);
      // pg-boss caches queue metadata at start(), before these queues existed; a miss later is looked up
      // on its own connection, which on PGlite would wait forever behind the caller's open transaction.
      // A no-op call by id fills the cache now.
      await this.#boss.deleteJob(name, NIL_UUID);
    }
    this.#started = true;
    if (!s.workers) return;
    for (const [name, reg] of this.#handlers) {
      const pump = new Pump(this.#boss, name, reg.concurrency, s, (job) => this.#runOne(name, reg, job), this.#log);
      this.#pumps.push(pump);
      pump.start();
    }
  }

  async enqueue<N extends JobName>(name: N, payload: JobPayloads[N], opts: EnqueueOptions = {}): Promise<void> {
    if (!this.#handlers.has(name)) throw new Error(`no handler registered for job ${name}`);
    await this.#boss.send(name, payload as object, {
      ...(opts.tx ? { db: fromDrizzle(opts.tx as never, sql as never) } : {}),
      ...(opts.startAfter !== undefined ? { startAfter: opts.startAfter } : {}),
      ...(opts.singletonKey ? { singletonKey: opts.singletonKey } : {}),
      ...(opts.singletonSeconds ? { singletonSeconds: opts.singletonSeconds } : {}),
      ...(opts.priority ? { priority: opts.priority } : {}),
    });
  }

  /**
   * Many jobs of one name in one statement (a fan-out of thousands: the jobs go as one JSON parameter); `tx` as for
   * `enqueue`, `priority` gives the i-th job's priority.
   */
  async enqueueMany<N extends JobName>(
    name: N,
    payloads: JobPayloads[N][],
    opts: { tx?: Tx; priority?: (i: number) => number } = {},
  ): Promise<void> {
    if (!this.#handlers.has(name)) throw new Error(`no handler registered for job ${name}`);
    if (payloads.length === 0) return;
    const priority = opts.priority;
    await this.#boss.insert(
      name,
      payloads.map((data, i) => ({ data: data as object, ...(priority ? { priority: priority(i) } : {}) })),
      opts.tx ? { db: fromDrizzle(opts.tx as never, sql as never) } : {},
    );
  }

  /**
   * Runs every job that is ready now, including retries that become ready while draining, until none is left.
   * Tests and the demo use it instead of polling workers; it settles jobs exactly as the workers do. `only` runs
   * just the jobs of these names (a test of a 20,000-person fan-out runs the fan-out, not its 20,000 asks);
   * `batchSize`: jobs per fetch instead of the settings' (a test that runs only the first chunks of a fan-out).
   */
  async drain(opts: { maxRounds?: number; only?: readonly JobName[]; batchSize?: number } = {}): Promise<number> {
    let total = 0;
    for (let round = 0; round < (opts.maxRounds ?? 100); round++) {
      let ran = 0;
      for (const [name, reg] of this.#handlers) {
        if (opts.only && !opts.only.includes(name as JobName)) continue;
        const jobs = await this.#boss.fetch<object>(name, { batchSize: opts.batchSize ?? this.#settings.batchSize });
        if (jobs.length === 0) continue;
        ran += jobs.length;
        const results = await this.#withHeartbeat(name, jobs, () => this.#runBatch(name, reg, jobs));
        const done = results.filter((r) => r.status === "completed").map((r) => r.id);
        const failed = results.filter((r) => r.status === "failed");
        if (done.length) await this.#boss.complete(name, done);
        for (const f of failed) await this.#boss.fail(name, f.id, f.output as object);
      }
      total += ran;
      if (ran === 0) return total;
    }
    return total;
  }

  /**
   * Heartbeats for jobs drain() fetched, as the workers send them: a supervisor on another instance sharing the
   * database would otherwise take a job that runs longer than `heartbeatSeconds` for the job of a dead worker.
   */
  async #withHeartbeat<T>(name: string, jobs: Job<object>[], run: () => Promise<T>): Promise<T> {
    const ids = jobs.map((j) => j.id);
    const timer = setInterval(() => {
      this.#boss
        .touch(name, ids)
        .catch((err: unknown) => this.#log.warn({ job: name, err: String(err) }, "heartbeat failed"));
    }, this.#settings.heartbeatRefreshSeconds * 1000);
    try {
      return await run();
    } finally {
      clearInterval(timer);
    }
  }

  async #runOne(name: string, reg: Registered, job: Job<object>): Promise<JobResult> {
    const [result] = await this.#runBatch(name, reg, [job]);
    return result!;
  }

  async #runBatch(name: string, reg: Registered, jobs: Job<object>[]): Promise<JobResult[]> {
    return Promise.all(
      jobs.map(async (job): Promise<JobResult> => {
        const retryCount = (job as { retryCount?: number }).retryCount ?? 0;
        try {
          await reg.handler(job.data as never, { id: job.id, retryCount });
          return { id: job.id, status: "completed" };
        } catch (err) {
          const message = err instanceof Error ? err.message : String(err);
          if (err instanceof RetryLaterError) return this.#defer(name, job, err);
          const reason = this.#giveUpOn(err);
          if (reason !== undefined) {
            this.#metrics?.jobFailures.inc({ queue: name, outcome: "gave_up" });
            this.#log.warn({ job: name, jobId: job.id, err: message, reason }, "job gave up: retrying cannot help");
            return { id: job.id, status: "completed" };
          }
          const outcome = retryCount >= this.#settings.retryLimit ? "exhausted" : "retry";
          this.#metrics?.jobFailures.inc({ queue: name, outcome });
          this.#log.warn({ job: name, jobId: job.id, err: message }, "job failed; it will be retried");
          return { id: job.id, status: "failed", output: { message } };
        }
      }),
    );
  }

  /**
   * The handler must wait (RetryLaterError: a Slack Retry-After, a paced workspace): not a failure. The same payload
   * runs again as a fresh job `delayMs` from now (on the database's clock), and this one completes, so neither the
   * retry limit nor the backoff sees it. Should the new job not be stored, this one fails and retries as usual.
   * Between the two statements a crash can leave both: the handlers' claims (postOnce) make a second run harmless.
   */
  async #defer(name: string, job: Job<object>, err: RetryLaterError): Promise<JobResult> {
    const seconds = Math.max(1, Math.ceil(err.delayMs / 1000));
    try {
      await this.#boss.send(name, job.data, { startAfter: seconds });
    } catch (sendErr) {
      this.#metrics?.jobFailures.inc({ queue: name, outcome: "retry" });
      this.#log.warn({ job: name, jobId: job.id, err: String(sendErr) }, "deferring a job failed; it will be retried");
      return { id: job.id, status: "failed", output: { message: err.message } };
    }
    this.#log.info({ job: name, jobId: job.id, delay_s: seconds, reason: err.message }, "job deferred");
    return { id: job.id, status: "completed" };
  }

  /** Jobs not yet finished, for tests and health views. */
  async pending(name: JobName): Promise<number> {
    const stats = await this.#boss.getQueueStats(name);
    return stats.reduce((n, s) => n + ((s as { queuedCount?: number }).queuedCount ?? 0), 0);
  }

  /**
   * Ready, deferred and active jobs of every registered queue, from pg-boss's cached counts (refreshed by its monitor,
   * or by this call when older than a minute): for the metrics scrape, never a request's path.
   */
  async depths(): Promise<QueueDepth[]> {
    if (!this.#started) return [];
    const out: QueueDepth[] = [];
    for (const name of this.#handlers.keys()) {
      const [stats] = await this.#boss.getQueueStats(name, { force: true });
      out.push({
        queue: name,
        ready: stats?.readyCount ?? 0,
        deferred: stats?.deferredCount ?? 0,
        active: stats?.activeCount ?? 0,
      });
    }
    return out;
  }

  /**
   * Shutdown's first step: the workers fetch no further jobs (running ones go on, and `enqueue` still works), so the
   * time while HTTP requests drain is not spent starting jobs that would then be cut off.
   */
  async stopFetching(): Promise<void> {
    for (const pump of this.#pumps) pump.stopFetching();
  }

  /**
   * Stops fetching jobs and waits up to `timeoutMs` for the running ones to finish; any still running then are
   * failed, so they are retried (by another instance, or this one after a restart).
   */
  async stop(timeoutMs = 10_000): Promise<void> {
    if (!this.#started) return;
    this.#started = false;
    const deadline = Date.now() + timeoutMs;
    await Promise.all(this.#pumps.map((pump) => pump.stop(deadline)));
    await this.#boss.stop({ graceful: true, timeout: Math.max(100, deadline - Date.now()), close: true } as never);
  }
}

/** Resolves `"timeout"` after `ms` unless `work` settles first; the timer never outlives the race. */
async function within<T>(work: Promise<T>, ms: number): Promise<T | "timeout"> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), Math.max(0, ms));
  });
  try {
    return await Promise.race([work, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

/** A job this pump is running: its attempt, its heartbeat timer and what it settles to. */
interface Running {
  job: Job<object>;
  beat: NodeJS.Timeout;
  done: Promise<void>;
}

/**
 * One queue's worker on this instance: up to `concurrency` handlers in flight, each job completed (or failed) the
 * moment it ends, and more fetched as soon as a quarter of the slots are free (at once while the queue has work; a
 * short fetch means it has caught up, and the next one waits for the polling interval).
 *
 * Not pg-boss's own workers: those fetch a batch and fetch again only when the whole batch has ended, so one job
 * waiting out a Slack Retry-After holds up every job fetched with it (bench:fanout's 429 scenario: 236 s instead of
 * ~90 s), and at batch size 1 they wait a polling interval between jobs. Heartbeats, the supervisor that retries the
 * jobs of a dead instance, retries and expiry are pg-boss's; like pg-boss's workers, a handler still running at
 * the job's expiry is given up (the job failed for a retry) and its slot freed.
 */
class Pump {
  /** By attempt, not by id: a job the supervisor failed while its handler still ran may be fetched again here. */
  readonly #running = new Set<Running>();
  readonly #refill: number;
  #stopping = false;
  /** Ends the current nap early. */
  #wake: (() => void) | undefined;
  #napForRoom = false;
  #loop: Promise<void> | undefined;

  constructor(
    private readonly boss: PgBoss,
    private readonly name: string,
    private readonly concurrency: number,
    private readonly settings: QueueSettings,
    private readonly run: (job: Job<object>) => Promise<JobResult>,
    private readonly log: Logger,
  ) {
    this.#refill = Math.max(1, Math.ceil(concurrency / 4));
  }

  start(): void {
    this.#loop = this.#fetchLoop().catch((err: unknown) =>
      this.log.error({ job: this.name, err: String(err) }, "job worker stopped"),
    );
  }

  /** Until `ms` have passed, or (forRoom) a running job ends, or stopFetching. */
  #nap(ms: number | undefined, forRoom: boolean): Promise<void> {
    if (this.#stopping) return Promise.resolve();
    this.#napForRoom = forRoom;
    return new Promise((resolve) => {
      const timer = ms === undefined ? undefined : setTimeout(() => this.#wake?.(), ms);
      this.#wake = () => {
        clearTimeout(timer);
        this.#wake = undefined;
        resolve();
      };
    });
  }

  async #fetchLoop(): Promise<void> {
    const pollMs = this.settings.pollingIntervalSeconds * 1000;
    while (!this.#stopping) {
      const room = this.concurrency - this.#running.size;
      if (room < this.#refill) {
        await this.#nap(undefined, true);
        continue;
      }
      let jobs: Job<object>[];
      try {
        jobs = await this.boss.fetch<object>(this.name, { batchSize: room });
      } catch (err) {
        this.log.warn({ job: this.name, err: String(err) }, "fetching jobs failed");
        await this.#nap(pollMs, false);
        continue;
      }
      // Fetched after stopFetching began: these were claimed, so they run (stop() waits for them like the rest).
      for (const job of jobs) this.#launch(job);
      if (jobs.length < room) await this.#nap(pollMs, false);
    }
  }

  #launch(job: Job<object>): void {
    const beat = setInterval(() => {
      this.boss
        .touch(this.name, job)
        .catch((err: unknown) => this.log.warn({ job: this.name, err: String(err) }, "heartbeat failed"));
    }, this.settings.heartbeatRefreshSeconds * 1000);
    const entry: Running = { job, beat, done: Promise.resolve() };
    entry.done = (async () => {
      try {
        // The handler cannot be cancelled; past the job's expiry it is left to finish on its own, the job is failed
        // for a retry (the handlers' claims make a second run harmless) and the slot goes to another job.
        const result = await within(this.run(job), (job.expireInSeconds || JOB_EXPIRY_SECONDS) * 1000);
        clearInterval(beat);
        // Settled with its attempt (id and retry count): an attempt the supervisor already failed settles nothing.
        if (result === "timeout") {
          this.log.warn({ job: this.name, jobId: job.id }, "job ran past its expiry; failed for a retry");
          await this.boss.fail(this.name, job, { message: "the handler ran past the job's expiry" });
        } else if (result.status === "completed") await this.boss.complete(this.name, job);
        else await this.boss.fail(this.name, job, (result.output as object | undefined) ?? null);
      } catch (err) {
        // Left active: its heartbeat has stopped, and the supervisor retries it.
        this.log.warn({ job: this.name, jobId: job.id, err: String(err) }, "settling a job failed");
      } finally {
        clearInterval(beat);
        this.#running.delete(entry);
        // Waiting for room is the only nap a job's end cuts short (new jobs come from enqueues, not from ends).
        if (this.#napForRoom) this.#wake?.();
      }
    })();
    this.#running.add(entry);
  }

  stopFetching(): void {
    this.#stopping = true;
    this.#wake?.();
  }

  /**
   * Stops fetching and waits for the running jobs until `deadline` (epoch ms), then fails those still running (retried
   * by another instance, or this one after a restart).
   */
  async stop(deadline: number): Promise<void> {
    this.stopFetching();
    // A fetch under way may still hand over jobs: they join the running ones (or it hangs on a dead database).
    await within(this.#loop ?? Promise.resolve(), deadline - Date.now());
    const all = Promise.all([...this.#running].map((r) => r.done));
    if ((await within(all, deadline - Date.now())) !== "timeout" || this.#running.size === 0) return;
    const left = [...this.#running];
    for (const r of left) clearInterval(r.beat);
    this.log.warn({ job: this.name, jobs: left.length }, "jobs still running at shutdown are failed for a retry");
    await this.boss
      .fail(
        this.name,
        left.map((r) => r.job),
        { message: "the instance shut down while this job ran" },
      )
      .catch((err: unknown) => this.log.warn({ job: this.name, err: String(err) }, "failing running jobs failed"));
  }
}
