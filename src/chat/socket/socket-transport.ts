import { WebAPIPlatformError } from "@slack/web-api";
import type { Deps } from "../../deps.ts";
import { describeFailure } from "../intake/failures.ts";
import type { Intake } from "../intake/intake.ts";
import { slackLogger } from "../slack-logger.ts";
import { reconnectDelay } from "./backoff.ts";
import { ackPayload, deliveryOf, type SocketEnvelope } from "./envelope.ts";
import { type DisconnectReason, UpbeatSocketClient } from "./socket-client.ts";

export type SocketState = "connected" | "connecting";

/** /healthz answers 503 once Socket Mode has been down this long. */
export const SOCKET_DOWN_UNHEALTHY_MS = 30_000;
/** Wait before trying again after Slack refused the app token or turned Socket Mode off: nothing changes sooner. */
export const REFUSED_RETRY_MS = 5 * 60_000;
/** A socket that has not said hello by then is given up and another one opened. */
const HELLO_TIMEOUT_MS = 10_000;
/**
 * A socket open this long counts as a recovery: the backoff starts over when it drops. One dropped sooner (a proxy
 * or a Slack edge that cuts it right after hello) keeps backing off, or the reconnects would loop at the base delay.
 */
const STABLE_MS = 30_000;
/** A replaced socket's deliveries get this long to be recorded and acknowledged before it is closed. */
const RETIRE_DRAIN_MS = 5_000;
/** Errors of apps.connections.open that mean the app token itself is wrong, revoked or of the wrong kind. */
const TOKEN_REFUSALS = new Set([
  "not_authed",
  "invalid_auth",
  "not_allowed_token_type",
  "account_inactive",
  "token_revoked",
  "token_expired",
  "team_disabled",
]);

export interface SocketOptions {
  reconnectBaseMs?: number;
  reconnectCapMs?: number;
  refusedRetryMs?: number;
  helloTimeoutMs?: number;
  random?: () => number;
}

/** One socket: Slack's client for it, whether it said hello, and the deliveries it is handling. */
interface Link {
  client: UpbeatSocketClient;
  open: boolean;
  /** When it said hello (wall-clock ms): how long it stayed up decides whether the backoff starts over. */
  openedAt?: number;
  retiring: boolean;
  inFlight: Set<Promise<void>>;
}

/** Resolves when `work` does, or after `ms`, whichever is first. */
function within(work: Promise<unknown>, ms: number): Promise<unknown> {
  return Promise.race([work, new Promise((resolve) => setTimeout(resolve, ms).unref())]);
}

/**
 * Socket Mode: Slack's deliveries over its WebSocket (apps.connections.open with CHAT_APP_TOKEN), through the same
 * intake as HTTP: recorded, then acknowledged with what the intake resolved with; not acknowledged when it could not
 * be recorded, so Slack delivers it again. Reconnects itself (Slack's client's reconnect is disabled): after a drop
 * with backoff and jitter, on `disconnect` by opening the next socket before the old one is let go.
 */
export class SocketTransport {
  readonly #links = new Set<Link>();
  /** The socket being opened or in use; older ones (replaced on `disconnect`) are only drained. */
  #current: Link | undefined;
  #failures = 0;
  #timer: NodeJS.Timeout | undefined;
  #stopping = false;
  /** Business time since when no socket has been open (undefined while one is). */
  #downSince: Date | undefined;
  #refusalLogged = false;
  #waiters: Array<() => void> = [];
  readonly #log: Deps["log"];

  constructor(
    private readonly deps: Pick<Deps, "config" | "log" | "clock">,
    private readonly intake: Pick<Intake, "receive">,
    private readonly opts: SocketOptions = {},
  ) {
    this.#log = deps.log.child({ component: "socket-mode" });
    this.#downSince = deps.clock.now();
  }

  get state(): SocketState {
    return [...this.#links].some((l) => l.open) ? "connected" : "connecting";
  }

  /** True once no socket has been open for SOCKET_DOWN_UNHEALTHY_MS (by the injected clock). */
  get down(): boolean {
    const since = this.state === "connected" ? undefined : this.#downSince;
    return since !== undefined && this.deps.clock.now().getTime() - since.getTime() > SOCKET_DOWN_UNHEALTHY_MS;
  }

  /** Resolves once a socket is open (tests wait for it before sending). */
  whenConnected(): Promise<void> {
    if (this.state === "connected") return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  /** Starts connecting; does not wait for it (the service answers /healthz meanwhile). */
  start(): void {
    this.#stopping = false;
    void this.#connect();
  }

  /**
   * Takes no further envelopes (Slack gives them to another connection), lets those being recorded and acknowledged
   * finish within `budgetMs`, then closes every socket.
   */
  async stop(budgetMs: number): Promise<void> {
    this.#stopping = true;
    clearTimeout(this.#timer);
    const deadline = Date.now() + budgetMs;
    const inFlight = [...this.#links].flatMap((l) => [...l.inFlight]);
    await within(Promise.allSettled(inFlight), budgetMs);
    const closing = [...this.#links].map((l) => l.client.disconnect());
    await within(Promise.allSettled(closing), Math.max(0, deadline - Date.now()));
    this.#links.clear();
    this.#current = undefined;
  }

  async #connect(): Promise<void> {
    if (this.#stopping) return;
    const link: Link = { client: this.#newClient(), open: false, retiring: false, inFlight: new Set() };
    this.#links.add(link);
    this.#current = link;
    link.client.on("slack_event", (envelope: SocketEnvelope & { ack: (r?: unknown) => Promise<void> }) =>
      this.#onEnvelope(link, envelope),
    );
    link.client.on("disconnect_requested", (reason: DisconnectReason) => this.#onDisconnectRequested(link, reason));
    link.client.on("unreadable_message", (kind: string) =>
      this.#log.warn({ kind }, "Socket Mode: a message from Slack could not be read; left unacknowledged"),
    );
    link.client.on("disconnected", () => this.#onClosed(link));
    try {
      const hello = link.client.start();
      hello.catch(() => {}); // a late rejection after the hello timeout is handled below, once
      const timedOut = Symbol("timeout");
      const outcome = await Promise.race([
        hello,
        new Promise((resolve) => setTimeout(resolve, this.opts.helloTimeoutMs ?? HELLO_TIMEOUT_MS, timedOut).unref()),
      ]);
      if (outcome === timedOut) throw new Error("no hello from Slack in time");
    } catch (err) {
      this.#links.delete(link);
      void link.client.disconnect();
      if (this.#stopping || this.#current !== link) return;
      // Slack's client rejects with nothing when the WebSocket fails to open (an upgrade refused, a reset): say so
      // rather than log "undefined".
      this.#retryAfterFailure(err ?? new Error("the WebSocket to Slack failed or closed before Slack said hello"));
      return;
    }
    if (this.#stopping) {
      void link.client.disconnect();
      return;
    }
    link.open = true;
    link.openedAt = Date.now();
    this.#refusalLogged = false;
    this.#downSince = undefined;
    this.#log.info("Socket Mode connected");
    for (const resolve of this.#waiters.splice(0)) resolve();
    // Sockets replaced on `disconnect` are let go now that this one is open.
    for (const old of this.#links) if (old !== link) void this.#retire(old);
  }

  #newClient(): UpbeatSocketClient {
    const base = slackLogger(this.deps.log, "socket-mode");
    // The client logs every failed attempt as an error; the transport says once what matters (#retryAfterFailure).
    const logger = { ...base, warn: base.debug, error: base.debug };
    return new UpbeatSocketClient({
      appToken: this.deps.config.chatAppToken ?? "",
      logger,
      autoReconnectEnabled: false,
      clientOptions: { slackApiUrl: this.deps.config.chatApiUrl, retryConfig: { retries: 0 }, timeout: 10_000 },
    });
  }

  #retryAfterFailure(err: unknown): void {
    const code = err instanceof WebAPIPlatformError ? err.data.error : undefined;
    if (code && TOKEN_REFUSALS.has(code)) {
      this.#refused(
        `Slack refused CHAT_APP_TOKEN (${code}): set it to the app-level token (xapp-…, scope connections:write) ` +
          "from the Slack app's Basic Information page, or unset it to receive over HTTP",
      );
      return;
    }
    const delay = this.#nextDelay();
    this.#log.warn({ err: describeFailure(err), retryInMs: delay }, "Socket Mode: could not connect to Slack");
    this.#schedule(delay);
  }

  /** Logged once until a socket opens again; tried again only after REFUSED_RETRY_MS, never in a loop. */
  #refused(message: string): void {
    if (!this.#refusalLogged) this.#log.error(message);
    this.#refusalLogged = true;
    this.#schedule(this.opts.refusedRetryMs ?? REFUSED_RETRY_MS);
  }

  #nextDelay(): number {
    return reconnectDelay(this.#failures++, this.opts.random, this.opts.reconnectBaseMs, this.opts.reconnectCapMs);
  }

  #schedule(ms: number): void {
    if (this.#stopping) return;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.#connect(), ms);
  }

  #markDown(): void {
    if (this.state !== "connected") this.#downSince ??= this.deps.clock.now();
  }

  #onClosed(link: Link): void {
    const wasOpen = link.open;
    link.open = false;
    this.#links.delete(link);
    this.#markDown();
    // A replaced socket closing, a failed attempt (handled in #connect), or a stop: nothing to do.
    if (this.#stopping || link !== this.#current || !wasOpen) return;
    if (Date.now() - (link.openedAt ?? 0) >= STABLE_MS) this.#failures = 0;
    const delay = this.#nextDelay();
    this.#log.warn({ retryInMs: delay }, "Socket Mode: connection to Slack lost; reconnecting");
    this.#schedule(delay);
  }

  #onDisconnectRequested(link: Link, reason: DisconnectReason): void {
    if (this.#stopping || link !== this.#current) return;
    if (reason === "link_disabled") {
      // Socket Mode was turned off for the app: no use reconnecting until someone turns it back on.
      this.#current = undefined;
      link.open = false;
      void this.#retire(link);
      this.#markDown();
      this.#refused(
        "Slack turned Socket Mode off for this app (disconnect: link_disabled): turn it on under Socket Mode in the " +
          "Slack app's settings, or unset CHAT_APP_TOKEN to receive over HTTP",
      );
      return;
    }
    // refresh_requested, warning: the next socket opens while this one still delivers; #connect retires it.
    this.#log.info({ reason }, "Socket Mode: Slack asked to reconnect; opening the next socket");
    void this.#connect();
  }

  /** Lets a replaced socket's deliveries finish, then closes it. */
  async #retire(link: Link): Promise<void> {
    if (link.retiring) return;
    link.retiring = true;
    await within(Promise.allSettled([...link.inFlight]), RETIRE_DRAIN_MS);
    this.#links.delete(link);
    await link.client.disconnect();
  }

  #onEnvelope(link: Link, envelope: SocketEnvelope & { ack: (response?: unknown) => Promise<void> }): void {
    // Stopping: not acknowledged, so Slack hands it to another connection.
    if (this.#stopping) return;
    const work = this.#deliver(envelope).finally(() => link.inFlight.delete(work));
    link.inFlight.add(work);
  }

  async #deliver(envelope: SocketEnvelope & { ack: (response?: unknown) => Promise<void> }): Promise<void> {
    const delivery = deliveryOf(envelope);
    let result: unknown;
    if (delivery) {
      try {
        result = await this.intake.receive(delivery);
      } catch (err) {
        // Not stored, so not acknowledged: Slack delivers it again, where an ack would lose it.
        this.#log.error({ err: describeFailure(err), kind: delivery.kind }, "could not record a chat delivery");
        return;
      }
    }
    try {
      await envelope.ack(ackPayload(result));
    } catch (err) {
      // The socket closed meanwhile: the delivery is stored, and Slack's redelivery is acknowledged as a duplicate.
      this.#log.warn({ err: describeFailure(err) }, "Socket Mode: could not acknowledge a delivery");
    }
  }
}
