/**
 * Socket Mode for the fake Slack: `apps.connections.open` and the WebSocket it points at, on the fake's own server.
 *
 * What it does, as Slack does: `apps.connections.open` takes an app-level token (`xapp-…`) as Bearer (no token:
 * `not_authed`; a bot or user token the fake knows: `not_allowed_token_type`; anything else: `invalid_auth`) and
 * answers `ws://127.0.0.1:<port>/link/?ticket=…&app_id=…`, a ticket that opens one connection. Each connection
 * gets `hello` (with `num_connections`, `debug_info`, `connection_info`), pings, and envelopes
 * `{envelope_id, type, payload, accepts_response_payload, retry_attempt, retry_reason}`, spread round robin over the
 * open connections. An ack is `{envelope_id, payload?}` on any connection. An `events_api` envelope not acked within
 * `ackTimeoutMs` is delivered again to any open connection with `retry_attempt` + 1 and `retry_reason: "timeout"`
 * (up to `maxRetries` times); slash commands and interactions are not (Slack shows the person an error instead).
 *
 * The test API (`fake.socket`):
 *   await fake.socket.sendEvent("T1", { type: "app_mention", … })   // → the ack ({envelopeId, payload, attempt}),
 *   await fake.socket.sendCommand("T1", "U1", "help")                //   or undefined when Slack would give up
 *   await fake.socket.sendInteraction({ type: "view_submission", … })
 *   const d = fake.socket.deliver("events_api", payload)            // lower level: d.envelopeId, d.acked, d.attempts
 *   fake.socket.disconnect("refresh_requested", { graceMs: 200 })   // or "warning" / "link_disabled"; then closes
 *   fake.socket.drop()                                              // cuts every connection (no close frame)
 *   fake.socket.refuseConnections(500)                              // WebSocket upgrades answered 503 for 500 ms
 *   fake.socket.openConnections / await fake.socket.waitForConnections(2)
 *   fake.socket.configure({ ackTimeoutMs: 300, maxRetries: 3 })     // defaults 3000 ms and 3, as Slack
 *   fake.socket.deliveries                                          // every envelope sent: id, attempt, connection
 *   fake.socket.history                                             // connections opened and closed, in order
 *   fake.socket.loseNextAcks(1)                                     // the next ack is lost on the way (Slack redelivers)
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import { type WebSocket, WebSocketServer } from "ws";
import { eventEnvelope, slashCommandFields } from "../slack-signing.ts";
import { ApiError, type MethodSpec } from "./context.ts";
import type { Store } from "./store.ts";
import type {
  ConnectionEvent,
  DeliveryRecord,
  DisconnectReason,
  EnvelopeType,
  SocketAck,
  SocketDelivery,
} from "./types.ts";

interface Conn {
  id: number;
  ws: WebSocket;
  /** Told to disconnect: gets envelopes only when no other connection is open. */
  closing: boolean;
}

interface Pending {
  envelope: Record<string, unknown> & { envelope_id: string; type: EnvelopeType };
  attempts: number;
  timer?: NodeJS.Timeout;
  resolve: (ack: SocketAck | undefined) => void;
}

export class FakeSocketMode {
  readonly #wss = new WebSocketServer({ noServer: true });
  readonly #conns = new Set<Conn>();
  readonly #tickets = new Set<string>();
  readonly #pending = new Map<string, Pending>();
  /** Envelopes waiting for a connection to open. */
  readonly #queue: Pending[] = [];
  readonly #deliveries: DeliveryRecord[] = [];
  readonly #history: ConnectionEvent[] = [];
  #acksToLose = 0;
  #nextConn = 1;
  #roundRobin = 0;
  #refuseUntil = 0;
  #ackTimeoutMs = 3_000;
  #maxRetries = 3;
  #pingMs = 5_000;
  #closed = false;

  constructor(
    private readonly store: Store,
    private readonly wsBase: () => string,
  ) {}

  /** The Web API method the fake's server serves beside the others. */
  get methods(): Record<string, MethodSpec> {
    return {
      "apps.connections.open": {
        tokenless: true,
        run: ({ request }) => {
          const token = request.token;
          if (!token) throw new ApiError("not_authed");
          if (this.store.tokens.has(token)) throw new ApiError("not_allowed_token_type");
          if (!token.startsWith("xapp-") || this.#refusedTokens.has(token)) throw new ApiError("invalid_auth");
          const ticket = randomUUID();
          this.#tickets.add(ticket);
          return { ok: true, url: `${this.wsBase()}link/?ticket=${ticket}&app_id=${this.store.appId}` };
        },
      },
    };
  }

  readonly #refusedTokens = new Set<string>();

  /** apps.connections.open answers `invalid_auth` to this app token from now on (a revoked or wrong one). */
  refuseAppToken(token: string): void {
    this.#refusedTokens.add(token);
  }

  configure(opts: { ackTimeoutMs?: number; maxRetries?: number; pingMs?: number }): void {
    this.#ackTimeoutMs = opts.ackTimeoutMs ?? this.#ackTimeoutMs;
    this.#maxRetries = opts.maxRetries ?? this.#maxRetries;
    this.#pingMs = opts.pingMs ?? this.#pingMs;
  }

  get openConnections(): number {
    return [...this.#conns].filter((c) => c.ws.readyState === c.ws.OPEN).length;
  }

  get deliveries(): readonly DeliveryRecord[] {
    return this.#deliveries;
  }

  get history(): readonly ConnectionEvent[] {
    return this.#history;
  }

  /** The next `n` acks are lost on the way, as if the network dropped them: their envelopes time out. */
  loseNextAcks(n: number): void {
    this.#acksToLose = n;
  }

  /** Polls until `n` connections are open (counting sleeps, so fake timers cannot stall it). */
  async waitForConnections(n: number, timeoutMs = 5_000): Promise<void> {
    for (let waited = 0; this.openConnections !== n; waited += 10) {
      if (waited >= timeoutMs) throw new Error(`fake-slack: ${this.openConnections} socket(s) open, not ${n}`);
      await sleep(10);
    }
  }

  /** WebSocket upgrades are answered 503 for `ms` (apps.connections.open still answers). 0 ends it. */
  refuseConnections(ms: number): void {
    this.#refuseUntil = ms > 0 ? Date.now() + ms : 0;
  }

  deliver(type: EnvelopeType, payload: Record<string, unknown>, opts: { acceptsResponse?: boolean } = {}) {
    let resolve!: (ack: SocketAck | undefined) => void;
    const acked = new Promise<SocketAck | undefined>((r) => {
      resolve = r;
    });
    const envelope_id = randomUUID();
    const p: Pending = {
      envelope: {
        envelope_id,
        type,
        payload,
        accepts_response_payload: opts.acceptsResponse ?? type !== "events_api",
        ...(type === "events_api" ? { retry_attempt: 0, retry_reason: "" } : {}),
      },
      attempts: 0,
      resolve,
    };
    this.#pending.set(envelope_id, p);
    this.#send(p);
    const delivery: SocketDelivery = {
      envelopeId: envelope_id,
      acked,
      get attempts() {
        return p.attempts;
      },
    };
    return delivery;
  }

  sendEvent(teamId: string, event: Record<string, unknown>, opts: { eventId?: string } = {}) {
    return this.deliver("events_api", eventEnvelope(teamId, event, opts)).acked;
  }

  sendCommand(teamId: string, userId: string, text: string, command = "/upbeat") {
    return this.deliver("slash_commands", slashCommandFields(teamId, userId, text, command)).acked;
  }

  sendInteraction(payload: Record<string, unknown>) {
    // Slack takes a response only where one means something: view submissions and option lists.
    const acceptsResponse = payload.type === "view_submission" || payload.type === "block_suggestion";
    return this.deliver("interactive", payload, { acceptsResponse }).acked;
  }

  /** Sends `disconnect` to every open connection (or one), and closes each `graceMs` later. */
  disconnect(reason: DisconnectReason, opts: { graceMs?: number; connectionId?: number } = {}): void {
    for (const c of this.#conns) {
      if (opts.connectionId !== undefined && c.id !== opts.connectionId) continue;
      c.closing = true;
      c.ws.send(JSON.stringify({ type: "disconnect", reason, debug_info: { host: `applink-fake-${c.id}` } }));
      setTimeout(() => {
        this.#ended(c);
        c.ws.close(1000);
      }, opts.graceMs ?? 1_000).unref();
    }
  }

  /** Cuts every connection (or one) without a close frame, as a network failure would. */
  drop(connectionId?: number): void {
    for (const c of this.#conns) {
      if (connectionId !== undefined && c.id !== connectionId) continue;
      this.#ended(c);
      c.ws.terminate();
    }
  }

  /** Ids of the open connections, oldest first. */
  get connectionIds(): number[] {
    return [...this.#conns].map((c) => c.id);
  }

  /** The fake's HTTP server hands it every `upgrade` request. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const ticket = url.searchParams.get("ticket") ?? "";
    const refusal =
      this.#closed || url.pathname !== "/link/"
        ? "404 Not Found"
        : Date.now() < this.#refuseUntil
          ? "503 Service Unavailable"
          : // A ticket opens one connection.
            !this.#tickets.delete(ticket)
            ? "401 Unauthorized"
            : undefined;
    if (refusal) {
      socket.end(`HTTP/1.1 ${refusal}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`);
      return;
    }
    this.#wss.handleUpgrade(req, socket, head, (ws) => this.#open(ws));
  }

  close(): void {
    this.#closed = true;
    for (const c of this.#conns) c.ws.terminate();
    for (const p of this.#pending.values()) {
      clearTimeout(p.timer);
      p.resolve(undefined);
    }
    this.#pending.clear();
    this.#queue.length = 0;
    this.#wss.close();
  }

  #open(ws: WebSocket): void {
    const conn: Conn = { id: this.#nextConn++, ws, closing: false };
    this.#conns.add(conn);
    this.#history.push({ event: "open", connectionId: conn.id });
    const ping = setInterval(() => ws.ping(), this.#pingMs).unref();
    ws.on("close", () => {
      clearInterval(ping);
      this.#conns.delete(conn);
      this.#ended(conn);
    });
    ws.on("error", () => ws.terminate());
    ws.on("message", (data) => this.#onMessage(conn, data.toString()));
    ws.send(
      JSON.stringify({
        type: "hello",
        num_connections: this.openConnections,
        debug_info: { host: `applink-fake-${conn.id}`, build_number: 1, approximate_connection_time: 18_060 },
        connection_info: { app_id: this.store.appId },
      }),
    );
    for (const p of this.#queue.splice(0)) this.#send(p);
  }

  /** History says a connection closed from the moment either side starts closing it, once. */
  #ended(conn: Conn): void {
    if (this.#history.some((h) => h.event === "close" && h.connectionId === conn.id)) return;
    this.#history.push({ event: "close", connectionId: conn.id });
  }

  #onMessage(conn: Conn, text: string): void {
    let msg: { envelope_id?: unknown; payload?: unknown };
    try {
      msg = JSON.parse(text) as typeof msg;
    } catch {
      return;
    }
    if (typeof msg.envelope_id !== "string") return;
    const p = this.#pending.get(msg.envelope_id);
    if (!p) return; // acknowledged before, or given up on: Slack ignores it
    if (this.#acksToLose > 0) {
      this.#acksToLose -= 1;
      return;
    }
    clearTimeout(p.timer);
    this.#pending.delete(msg.envelope_id);
    const payload = msg.payload && typeof msg.payload === "object" ? (msg.payload as Record<string, unknown>) : {};
    p.resolve({ envelopeId: msg.envelope_id, payload, attempt: p.attempts - 1, connectionId: conn.id });
  }

  #pick(): Conn | undefined {
    const open = [...this.#conns].filter((c) => c.ws.readyState === c.ws.OPEN);
    const fresh = open.filter((c) => !c.closing);
    const pool = fresh.length > 0 ? fresh : open;
    if (pool.length === 0) return undefined;
    this.#roundRobin = (this.#roundRobin + 1) % pool.length;
    return pool[this.#roundRobin];
  }

  #send(p: Pending): void {
    const conn = this.#pick();
    if (!conn) {
      this.#queue.push(p);
      return;
    }
    const attempt = p.attempts;
    const envelope =
      p.envelope.type === "events_api" && attempt > 0
        ? { ...p.envelope, retry_attempt: attempt, retry_reason: "timeout" }
        : p.envelope;
    p.attempts += 1;
    this.#deliveries.push({
      envelopeId: p.envelope.envelope_id,
      type: p.envelope.type,
      attempt,
      connectionId: conn.id,
    });
    conn.ws.send(JSON.stringify(envelope));
    p.timer = setTimeout(() => this.#timedOut(p), this.#ackTimeoutMs);
    p.timer.unref();
  }

  #timedOut(p: Pending): void {
    if (!this.#pending.has(p.envelope.envelope_id)) return;
    if (p.envelope.type === "events_api" && p.attempts <= this.#maxRetries) {
      this.#send(p);
      return;
    }
    this.#pending.delete(p.envelope.envelope_id);
    p.resolve(undefined);
  }
}
