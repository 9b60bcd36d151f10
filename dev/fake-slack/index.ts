/**
 * A fake Slack Web API: a real HTTP server on 127.0.0.1 that the real WebClient talks to
 * (pass `fake.url` as `slackApiUrl`). Used by tests, benchmarks and demo mode, so it lives in dev/ and
 * imports nothing from test/.
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { appMethods } from "./app-methods.ts";
import { chatMethods } from "./chat-methods.ts";
import { ApiError, type Ctx, type MethodSpec, type Result } from "./context.ts";
import { Faults, faultError, isDelay } from "./faults.ts";
import { avatarSvg, parseRequest, sendJson, sendText } from "./http.ts";
import { readMethods } from "./read-methods.ts";
import { FakeSocketMode } from "./socket-mode.ts";
import { Store, snapshot } from "./store.ts";
import type {
  FakeChannelInput,
  FakeEphemeral,
  FakeMessage,
  FakeOAuthCodeInput,
  FakeSlackOptions,
  FakeTeamInput,
  FakeUserInput,
  FakeView,
  Fault,
  RandomFaults,
  RecordedCall,
} from "./types.ts";

export { mulberry32 } from "./faults.ts";
export type * from "./types.ts";

const METHODS: Record<string, MethodSpec> = { ...readMethods, ...chatMethods, ...appMethods };

export async function startFakeSlack(opts: FakeSlackOptions = {}): Promise<FakeSlack> {
  return FakeSlack.start(opts);
}

export class FakeSlack {
  /** Base URL with a trailing slash, e.g. `http://127.0.0.1:12345/api/`. */
  readonly url: string;
  /** Socket Mode: apps.connections.open and its WebSocket (see socket-mode.ts for the test API). */
  readonly socket: FakeSocketMode;
  readonly #server: Server;
  readonly #store: Store;
  readonly #faults = new Faults();
  #calls: RecordedCall[] = [];
  #byMethod = new Map<string, RecordedCall[]>();
  #unexpected: RecordedCall[] = [];
  /** Calls that have arrived, by method, counted before any delay (recorded calls are the answered ones). */
  #arrived = new Map<string, number>();
  #closed = false;

  private constructor(server: Server, store: Store, url: string) {
    this.#server = server;
    this.#store = store;
    this.url = url;
    this.socket = new FakeSocketMode(store, () => store.baseUrl.replace(/^http/, "ws"));
    this.#methods = { ...METHODS, ...this.socket.methods };
    server.on("upgrade", (req, socket, head) => this.socket.handleUpgrade(req, socket, head));
  }

  readonly #methods: Record<string, MethodSpec>;

  static async start(opts: FakeSlackOptions): Promise<FakeSlack> {
    const store = new Store(opts.appId ?? "A0FAKEUPBEAT", opts.now ?? Date.now);
    let fake: FakeSlack | undefined;
    const server = createServer((req, res) => {
      const self = fake;
      if (!self) return sendText(res, 503, "fake-slack: starting");
      self.#handle(req, res).catch((err: unknown) => self.#internalError(res, err));
    });
    // Longer than undici's 4s client keep-alive, so the client always closes idle sockets first
    // and never reuses one the server is closing at the same instant.
    server.keepAliveTimeout = 60_000;
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(opts.port ?? 0, "127.0.0.1", () => {
        server.off("error", reject);
        resolve();
      });
    });
    const { port } = server.address() as AddressInfo;
    store.baseUrl = `http://127.0.0.1:${port}/`;
    fake = new FakeSlack(server, store, `${store.baseUrl}api/`);
    return fake;
  }

  /** Every call in arrival order, faulted and unknown ones included. */
  get calls(): readonly RecordedCall[] {
    return this.#calls;
  }

  /** Calls to methods the fake does not implement. */
  get unexpected(): readonly RecordedCall[] {
    return this.#unexpected;
  }

  callsTo(method: string): readonly RecordedCall[] {
    return this.#byMethod.get(method) ?? [];
  }

  /** Calls to `method` that have arrived so far, including any still waiting out a delay fault (in flight). */
  arrived(method: string): number {
    return this.#arrived.get(method) ?? 0;
  }

  /** Forgets calls and faults; workspaces, messages and views stay. */
  reset(): void {
    this.#calls = [];
    this.#byMethod = new Map();
    this.#arrived = new Map();
    this.#unexpected = [];
    this.#faults.clear();
  }

  /** Adds a workspace, or updates it (keeping its users, channels and older tokens) when the id exists. */
  addTeam(team: FakeTeamInput): void {
    this.#store.addTeam(team);
  }

  /** Adds or replaces a user. Slackbot (USLACKBOT) and the bot user exist from addTeam on. */
  addUser(teamId: string, user: FakeUserInput): void {
    this.#store.addUser(teamId, user);
  }

  /** Adds or replaces a channel, keeping its messages. */
  addChannel(teamId: string, channel: FakeChannelInput): void {
    this.#store.addChannel(teamId, channel);
  }

  /** The channel's members as they stand (after conversations.join), or undefined for an unknown channel. */
  channelMembers(teamId: string, channelId: string): readonly string[] | undefined {
    const conv = this.#store.team(teamId).convIndex.get(channelId);
    return conv ? [...conv.members] : undefined;
  }

  /** Later calls with this token get `token_revoked`, as after an uninstall. */
  revokeToken(token: string): void {
    const rec = this.#store.tokens.get(token);
    if (!rec) throw new Error("fake-slack: unknown token");
    rec.revoked = true;
  }

  /** Registers a one-time code for oauth.v2.access; exchanging it creates or updates the team. */
  setOAuthCode(code: string, grant: FakeOAuthCodeInput): void {
    this.#store.codes.set(code, grant);
  }

  /**
   * Makes `GET /oauth/v2/authorize` approve at once, as a person pressing "Allow" would: `grant` picks what the
   * code installs (the requested bot scopes are passed in), and the browser is sent back to `redirect_uri` with a
   * one-time code and the state. Without it the page is a 404, as before.
   */
  onAuthorize(grant: ((request: { scope: string; clientId: string }) => FakeOAuthCodeInput) | undefined): void {
    this.#authorizeGrant = grant;
  }

  #authorizeGrant: ((request: { scope: string; clientId: string }) => FakeOAuthCodeInput) | undefined;

  #authorize(url: URL, res: ServerResponse): void {
    const redirect = url.searchParams.get("redirect_uri");
    const clientId = url.searchParams.get("client_id");
    if (!this.#authorizeGrant || !redirect || !clientId) {
      sendText(res, 404, "fake-slack: not found");
      return;
    }
    const code = `fake-code-${randomUUID()}`;
    this.#store.codes.set(code, {
      ...this.#authorizeGrant({ scope: url.searchParams.get("scope") ?? "", clientId }),
      redirectUri: redirect,
    });
    const back = new URL(redirect);
    back.searchParams.set("code", code);
    const state = url.searchParams.get("state");
    if (state !== null) back.searchParams.set("state", state);
    res.writeHead(302, { location: back.toString() });
    res.end();
  }

  /** The bot's DM channel id with a user, creating it as conversations.open would. */
  dmFor(teamId: string, userId: string): string {
    return this.#store.openDm(this.#store.team(teamId), userId).conv.id;
  }

  /** Messages the bot posted and has not deleted, oldest first, as they stand after updates (not people's). */
  messages(channelId?: string): readonly FakeMessage[] {
    return this.#store.messagesIn(channelId);
  }

  /**
   * A person's message in a channel, as if typed in Slack (the test then sends the event that announces it), so
   * methods that act on it (reactions.add) find it. Returns its ts.
   */
  postAsUser(
    teamId: string,
    channelId: string,
    userId: string,
    text: string,
    opts: { threadTs?: string } = {},
  ): string {
    const team = this.#store.team(teamId);
    const conv = team.convIndex.get(channelId);
    if (!conv) throw new Error(`fake-slack: unknown channel ${channelId}; call addChannel first`);
    const msg = this.#store.addMessage(team, conv, {
      text,
      user: userId,
      bot_id: "",
      ...(opts.threadTs ? { thread_ts: opts.threadTs } : {}),
    });
    return msg.ts;
  }

  /** One message (the bot's or a person's) as it stands, or undefined when there is none or it was deleted. */
  message(teamId: string, channelId: string, ts: string): FakeMessage | undefined {
    const msg = this.#store.message(teamId, channelId, ts);
    return msg ? snapshot(msg) : undefined;
  }

  ephemerals(channelId?: string): readonly FakeEphemeral[] {
    const all = this.#store.ephemerals;
    return channelId === undefined ? [...all] : all.filter((e) => e.channel === channelId);
  }

  view(viewId: string): FakeView | undefined {
    return this.#store.views.get(viewId);
  }

  homeView(teamId: string, userId: string): FakeView | undefined {
    return this.#store.team(teamId).homeViews.get(userId);
  }

  /**
   * The next `times` calls to `method` fail with `fault` (or, for `{ delayMs }`, are answered that much later);
   * queued faults are used in order.
   */
  fail(method: string, fault: Fault, times = 1): void {
    this.#faults.add(method, fault, times);
  }

  /**
   * From now on the first call to each method (whichever it is) gets `fault`, later calls to it are handled as
   * usual: "every method answers 429 once". null turns it off; reset() too.
   */
  failFirstCallOfEachMethod(fault: Fault | null): void {
    this.#faults.failFirstCallOfEachMethod(fault);
  }

  /** Faults a seeded-random fraction of calls (to one method, or all); null turns it off. */
  setRandomFaults(cfg: RandomFaults | null): void {
    this.#faults.setRandom(cfg);
  }

  /** Polls until the predicate holds. Counts sleeps rather than reading clocks, so fake timers cannot stall it. */
  async waitFor(
    predicate: (calls: readonly RecordedCall[]) => boolean,
    timeoutMs = 5000,
  ): Promise<readonly RecordedCall[]> {
    const stepMs = 10;
    for (let waited = 0; ; waited += stepMs) {
      if (predicate(this.#calls)) return this.#calls;
      if (waited >= timeoutMs) {
        const recent = this.#calls.slice(-10).map((c) => `${c.method}${c.ok ? "" : `(${c.error})`}`);
        throw new Error(`fake-slack: waitFor timed out after ${timeoutMs}ms; last calls: ${recent.join(", ")}`);
      }
      await sleep(stepMs);
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.socket.close();
    await new Promise<void>((resolve, reject) => {
      this.#server.close((err) => (err ? reject(err) : resolve()));
      this.#server.closeAllConnections();
    });
  }

  #record(call: RecordedCall): void {
    this.#calls.push(call);
    let list = this.#byMethod.get(call.method);
    if (!list) {
      list = [];
      this.#byMethod.set(call.method, list);
    }
    list.push(call);
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const avatar = /^\/avatars\/([A-Za-z0-9]+)\.svg$/.exec(url.pathname);
    if (avatar) {
      const id = avatar[1] as string;
      const user = [...this.#store.teams.values()].map((t) => this.#store.user(t, id)).find(Boolean);
      return sendText(res, 200, avatarSvg(id, user?.json.real_name as string | undefined), "image/svg+xml");
    }
    if (url.pathname === "/oauth/v2/authorize" && req.method === "GET") return this.#authorize(url, res);
    const route = /^\/api\/([A-Za-z0-9_.]+)$/.exec(url.pathname);
    if (!route) return sendText(res, 404, "fake-slack: not found");
    const method = route[1] as string;
    this.#arrived.set(method, (this.#arrived.get(method) ?? 0) + 1);

    const request = await parseRequest(req, url);
    const store = this.#store;
    const tokenRec = request.token ? store.tokens.get(request.token) : undefined;
    const call: RecordedCall = {
      method,
      teamId: tokenRec?.teamId ?? null,
      token: request.token,
      args: request.args,
      at: store.now(),
      ok: false,
    };

    // Faults come before anything else, like failures in front of Slack, and so change no state.
    const fault = this.#faults.take(method);
    if (fault && isDelay(fault)) {
      await sleep(fault.delayMs);
      call.at = store.now();
    } else if (fault) {
      call.faulted = true;
      call.error = faultError(fault);
      this.#record(call);
      return this.#applyFault(req, res, fault);
    }

    const spec = this.#methods[method];
    let body: Result;
    const headers: Record<string, string> = {};
    if (!spec) {
      body = { ok: false, error: "unknown_method", req_method: method };
      this.#unexpected.push(call);
    } else if (request.bodyError) {
      body = { ok: false, error: request.bodyError };
    } else if (!spec.tokenless && (!tokenRec || tokenRec.revoked)) {
      body = { ok: false, error: tokenRec?.revoked ? "token_revoked" : "invalid_auth" };
    } else {
      if (tokenRec) headers["x-oauth-scopes"] = tokenRec.scopes.join(",");
      const ctx = {
        store,
        args: request.args,
        request,
        auth: tokenRec,
        team: tokenRec ? store.teams.get(tokenRec.teamId) : undefined,
      } as Ctx;
      try {
        body = spec.run(ctx);
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        body = { ok: false, error: err.code, ...err.extra };
      }
      if (ctx.teamIdOut) call.teamId = ctx.teamIdOut;
    }
    call.ok = body.ok === true;
    if (!call.ok) call.error = String(body.error);
    this.#record(call);
    sendJson(res, 200, body, headers);
  }

  #applyFault(req: IncomingMessage, res: ServerResponse, fault: Exclude<Fault, { delayMs: number }>): void {
    if ("drop" in fault) {
      req.socket.destroy();
    } else if ("error" in fault) {
      sendJson(res, 200, { ok: false, error: fault.error });
    } else if (fault.status === 429) {
      sendJson(res, 429, { ok: false, error: "ratelimited" }, { "retry-after": String(fault.retryAfter ?? 1) });
    } else {
      sendText(res, fault.status, `fake-slack: injected HTTP ${fault.status}`);
    }
  }

  /** A bug in the fake must not look like Slack behaviour: answer 500 and list it in `unexpected`. */
  #internalError(res: ServerResponse, err: unknown): void {
    const message = err instanceof Error ? err.message : String(err);
    this.#unexpected.push({
      method: "(fake-slack internal error)",
      teamId: null,
      token: null,
      args: { message },
      at: this.#store.now(),
      ok: false,
      error: message,
    });
    if (!res.headersSent) sendText(res, 500, `fake-slack internal error: ${message}`);
    else res.destroy();
  }
}
