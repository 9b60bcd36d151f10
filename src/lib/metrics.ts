import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";

/**
 * The instance's Prometheus metrics, one registry per app (never prom-client's global one: a test process builds
 * many apps). Every label takes values from a small fixed set (route patterns, Slack method names, queue names,
 * outcome words): never a team, a user, an id or a URL. Recording is an increment or an observation in memory; only
 * a scrape reads the database (the queue depths).
 */

/** What the queue reports per queue at scrape time. */
export interface QueueDepth {
  queue: string;
  ready: number;
  deferred: number;
  active: number;
}

export type SlackCallOutcome =
  | "ok"
  | "rate_limited"
  | "payload_refused"
  | "destination_gone"
  | "auth_error"
  | "slack_error"
  | "http_error"
  | "network_error";

const HTTP_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

export class Metrics {
  readonly registry = new Registry();
  readonly #queueDepths: { source?: () => Promise<QueueDepth[]> } = {};
  #defaultsOn = false;

  readonly httpDuration = new Histogram({
    name: "upbeat_http_request_duration_seconds",
    help: "HTTP requests by route pattern, method and status code",
    labelNames: ["route", "method", "status_code"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });

  readonly slackCalls = new Counter({
    name: "upbeat_slack_api_requests_total",
    help: "Slack Web API HTTP requests (each retry counts) by method and outcome; a 429 is rate_limited",
    labelNames: ["method", "outcome"] as const,
    registers: [this.registry],
  });

  readonly slackDuration = new Histogram({
    name: "upbeat_slack_api_request_duration_seconds",
    help: "Slack Web API HTTP request duration by method",
    labelNames: ["method"] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });

  readonly jobFailures = new Counter({
    name: "upbeat_job_failures_total",
    help: "Failed job attempts by queue: retry (tried again later), exhausted (retries spent), gave_up (retrying cannot help)",
    labelNames: ["queue", "outcome"] as const,
    registers: [this.registry],
  });

  readonly chatEventFailures = new Counter({
    name: "upbeat_chat_event_failures_total",
    help:
      "Failed processing attempts of stored Slack deliveries by kind (event, command, interaction) and outcome: " +
      "retry (taken again later), exhausted (attempts spent: kept as failed), not_rerun (an interaction not worth " +
      "running again: kept as failed)",
    labelNames: ["kind", "outcome"] as const,
    registers: [this.registry],
  });

  readonly runsStarted = new Counter({
    name: "upbeat_standup_runs_started_total",
    help: "Standup runs started, by trigger (schedule or manual run now)",
    labelNames: ["trigger"] as const,
    registers: [this.registry],
  });

  readonly runsSkipped = new Counter({
    name: "upbeat_standup_runs_skipped_total",
    help: "Standup runs that were due but asked nobody, by reason",
    labelNames: ["reason"] as const,
    registers: [this.registry],
  });

  readonly dmsSent = new Counter({
    name: "upbeat_standup_dms_sent_total",
    help: "Standup DMs Slack accepted, by kind (ask or reminder); each message counts once",
    labelNames: ["kind"] as const,
    registers: [this.registry],
  });

  readonly schedulerLag = new Histogram({
    name: "upbeat_scheduler_lag_seconds",
    help: "Time from a scheduled run's due time to its start",
    buckets: [0.5, 1, 2, 5, 10, 15, 30, 45, 60, 120, 300, 900, 3600, 10800],
    registers: [this.registry],
  });

  readonly webhookDeliveries = new Counter({
    name: "upbeat_webhook_deliveries_total",
    help: "Webhook delivery attempts by outcome: delivered, retry_scheduled, failed (for good)",
    labelNames: ["outcome"] as const,
    registers: [this.registry],
  });

  readonly emailDeliveries = new Counter({
    name: "upbeat_email_deliveries_total",
    help: "E-mail jobs by kind and outcome: sent, skipped, dropped, retry",
    labelNames: ["kind", "outcome"] as const,
    registers: [this.registry],
  });

  constructor() {
    const depths = this.#queueDepths;
    new Gauge({
      name: "upbeat_job_queue_jobs",
      help: "Jobs waiting or running per queue, read at scrape time: ready (runnable now), deferred (later), active",
      labelNames: ["queue", "state"] as const,
      registers: [this.registry],
      async collect() {
        this.reset();
        for (const d of (await depths.source?.()) ?? []) {
          this.set({ queue: d.queue, state: "ready" }, d.ready);
          this.set({ queue: d.queue, state: "deferred" }, d.deferred);
          this.set({ queue: d.queue, state: "active" }, d.active);
        }
      },
    });
  }

  /** Where the queue depth gauge reads from at scrape time. */
  readQueueDepthsFrom(source: () => Promise<QueueDepth[]>): void {
    this.#queueDepths.source = source;
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** The text exposition of every metric. */
  scrape(): Promise<string> {
    // The standard process and Node.js metrics, under their usual names (which common dashboards expect), from the
    // first scrape on: their event-loop and GC monitors run for good once started, so an instance nobody scrapes
    // (a test app, a one-off script) never starts them.
    if (!this.#defaultsOn) {
      this.#defaultsOn = true;
      collectDefaultMetrics({ register: this.registry });
    }
    return this.registry.metrics();
  }

  /** One finished HTTP request; `route` is the route pattern (undefined: nothing matched). */
  observeHttp(route: string | undefined, method: string, statusCode: number, seconds: number): void {
    this.httpDuration.observe(
      {
        route: route ?? "unmatched",
        method: HTTP_METHODS.has(method) ? method : "other",
        status_code: String(statusCode),
      },
      seconds,
    );
  }

  observeSlackCall(method: string, outcome: SlackCallOutcome, seconds: number): void {
    this.slackCalls.inc({ method, outcome });
    this.slackDuration.observe({ method }, seconds);
  }
}
