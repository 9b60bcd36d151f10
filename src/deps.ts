import type { WebClient } from "@slack/web-api";
import pino, { type Logger } from "pino";
import { ChatClients, InstallationGoneError } from "./chat/chat-clients.ts";
import { payloadRefused, tokenRefused } from "./chat/slack-errors.ts";
import type { Config } from "./config.ts";
import { type Database, type Db, openDatabase } from "./db/client.ts";
import { runMigrations } from "./db/migrate.ts";
import { EventBus } from "./jobs/events.ts";
import { JobQueue, type QueueSettings } from "./jobs/queue.ts";
import { type Clock, systemClock } from "./lib/clock.ts";
import { deriveKey } from "./lib/crypto.ts";
import { loggableError, scrubSecrets } from "./lib/log-scrub.ts";
import { Metrics } from "./lib/metrics.ts";
import { type Outbound, systemOutbound } from "./lib/outbound.ts";

/** The composition root: everything a route, listener, job or tool needs, passed as one value. */
export interface Deps {
  readonly config: Config;
  readonly database: Database;
  readonly db: Db;
  readonly clock: Clock;
  readonly log: Logger;
  readonly queue: JobQueue;
  /** What happened, for the features that react to it (rules, webhooks); handlers run in the emitter's transaction. */
  readonly events: EventBus;
  readonly chat: ChatClients;
  /** Name resolution for customer-chosen addresses (webhook endpoints); tests inject their own. */
  readonly outbound: Outbound;
  /** This instance's Prometheus metrics (GET /metrics); lower layers and features record into it. */
  readonly metrics: Metrics;
  readonly keys: {
    readonly loginToken: Buffer;
    readonly oauthState: Buffer;
    readonly tokenEncryption: Buffer;
    /** Signs the one-click unsubscribe links in e-mails. */
    readonly emailUnsubscribe: Buffer;
  };
}

export type { WebClient };

/** Query strings carry login tokens and OAuth codes, /feed paths carry feed tokens: neither reaches the logs. */
export function loggableUrl(url: string): string {
  const path = url.split("?")[0] ?? "";
  const clean = path.startsWith("/feed/") ? "/feed/[token]" : path;
  return url.includes("?") ? `${clean}?[query]` : clean;
}

/** Nesting a log field is scrubbed to; anything deeper is dropped (no call site logs that deep on purpose). */
const SCRUB_DEPTH = 4;

/**
 * A log field with secret shapes masked in every string, however deep (up to SCRUB_DEPTH), and every Error, under
 * whatever key, reduced to its loggable parts; the same value when nothing changed.
 */
function scrubValue(value: unknown, depth: number): unknown {
  if (typeof value === "string") return scrubSecrets(value);
  if (typeof value !== "object" || value === null) return value;
  if (value instanceof Error) return loggableError(value);
  // Class instances (a request, a reply) are left to their serializers; only plain data is walked.
  const proto = Object.getPrototypeOf(value);
  if (!Array.isArray(value) && proto !== Object.prototype && proto !== null) return value;
  if (depth >= SCRUB_DEPTH) return "[nested too deep]";
  if (Array.isArray(value)) {
    const out = value.map((v) => scrubValue(v, depth + 1));
    return out.some((v, i) => v !== value[i]) ? out : value;
  }
  let copy: Record<string, unknown> | undefined;
  for (const [key, v] of Object.entries(value)) {
    const clean = scrubValue(v, depth + 1);
    if (clean !== v) {
      copy ??= { ...(value as Record<string, unknown>) };
      copy[key] = clean;
    }
  }
  return copy ?? value;
}

/** A log call's message and fields with secret shapes masked (a copy when anything changed). */
function scrubLogArgs(args: unknown[]): unknown[] {
  return args.map((arg, i) => {
    // The merging object's own `err` goes through the err serializer; an Error as the first argument too.
    if (i === 0 && arg instanceof Error) return arg;
    if (i === 0 && typeof arg === "object" && arg !== null && "err" in arg) {
      const { err, ...rest } = arg as Record<string, unknown>;
      const clean = scrubValue(rest, 0) as Record<string, unknown>;
      return clean === rest ? arg : { ...clean, err };
    }
    return scrubValue(arg, 0);
  });
}

export function createLogger(config: Pick<Config, "logLevel">, destination?: pino.DestinationStream): Logger {
  return scrubbedChildren(
    pino(
      {
        level: config.logLevel,
        base: { service: "upbeat" },
        hooks: {
          logMethod(args, method) {
            method.apply(this, scrubLogArgs(args) as Parameters<typeof method>);
          },
        },
        serializers: {
          // Never pino's default, which writes out every property: Slack errors carry requests and responses.
          err: (err: unknown) => loggableError(err),
          req: (req: { method?: string; url?: string; id?: string; ip?: string }) => ({
            id: req.id,
            method: req.method,
            url: loggableUrl(req.url ?? ""),
          }),
        },
        // Secrets never reach the logs, whatever a caller passes.
        redact: {
          paths: [
            "req.headers.authorization",
            "req.headers.cookie",
            "req.headers['x-slack-signature']",
            "headers.authorization",
            "headers.cookie",
            "token",
            "*.token",
            "botToken",
            "*.botToken",
            "access_token",
            "*.access_token",
          ],
          censor: "[redacted]",
        },
      },
      destination,
    ),
  );
}

/**
 * Child loggers' fields (`log.child({...})`) are scrubbed like a call's own, on every generation of children: the
 * root's `child` is replaced, and children (pino makes them with Object.create) inherit the replacement.
 */
function scrubbedChildren(log: Logger): Logger {
  const original = log.child as unknown as (
    this: Logger,
    bindings: Record<string, unknown>,
    options?: object,
  ) => Logger;
  log.child = function (this: Logger, bindings: Record<string, unknown>, options?: object) {
    return original.call(this, scrubValue(bindings, 0) as Record<string, unknown>, options);
  } as unknown as Logger["child"];
  return log;
}

export interface BuildDepsOptions {
  clock?: Clock;
  log?: Logger;
  database?: Database;
  queue?: Partial<QueueSettings>;
  migrate?: boolean;
  outbound?: Partial<Outbound>;
}

/**
 * Errors no retry can change, whatever the job: a payload Slack refused (invalid_blocks, msg_too_long, …), a token
 * Slack refused (the workspace is marked as needing reinstall as the call fails: ChatClients.tokenRefused), and a
 * workspace no longer installed (uninstalled, or marked so since the job was queued: it ends without calling Slack).
 */
export function slackGiveUp(err: unknown): string | undefined {
  if (err instanceof InstallationGoneError) return "the workspace is not installed";
  const refused = tokenRefused(err);
  if (refused !== undefined) return `Slack refused the workspace's token: ${refused}`;
  return payloadRefused(err);
}

export async function buildDeps(config: Config, opts: BuildDepsOptions = {}): Promise<Deps> {
  const log = opts.log ?? createLogger(config);
  const database = opts.database ?? (await openDatabase(config.databaseUrl));
  if (opts.migrate !== false) await runMigrations(database);
  const clock = opts.clock ?? systemClock;
  const keys = {
    loginToken: deriveKey(config.sessionSecretKey, "login-token"),
    oauthState: deriveKey(config.sessionSecretKey, "oauth-state"),
    tokenEncryption: deriveKey(config.sessionSecretKey, "token-encryption"),
    emailUnsubscribe: deriveKey(config.sessionSecretKey, "email-unsubscribe"),
  };
  const metrics = new Metrics();
  const queue = new JobQueue(database, log, opts.queue, { giveUpOn: slackGiveUp, metrics });
  metrics.readQueueDepthsFrom(() => queue.depths());
  const chat = new ChatClients(config, database.db, keys.tokenEncryption, log, metrics);
  const outbound = { ...systemOutbound, ...opts.outbound };
  const events = new EventBus();
  return { config, database, db: database.db, clock, log, queue, events, chat, outbound, metrics, keys };
}
