/**
 * A fake e-mail provider speaking Resend's HTTP API (`POST /emails`): a real HTTP server on 127.0.0.1 that the
 * service's mailer talks to (pass `fake.url` as EMAIL_API_URL). It records every request, keeps the e-mails it
 * accepted, honours `Idempotency-Key` as the provider does (the same key and body answer the first id, nothing is
 * sent again), and fails on demand (429, 5xx, 4xx, a dropped connection). Used by tests, so it lives
 * in dev/ and imports nothing from test/.
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";

export const FAKE_EMAIL_API_KEY = "re_fake_test_key";

/** One request as it arrived, whatever the fake answered. */
export interface RecordedEmailRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  idempotencyKey: string | undefined;
  contentType: string | undefined;
  /** The parsed JSON body, or the raw text when it was not JSON. */
  body: unknown;
  status: number;
  faulted: boolean;
}

/** An e-mail the fake accepted (once per idempotency key). */
export interface FakeEmail {
  id: string;
  idempotencyKey: string | undefined;
  from: string;
  to: string[];
  subject: string;
  html: string;
  text: string;
  headers: Record<string, string>;
}

export type EmailFault =
  /** Answer this status (429 carries Retry-After) with a provider-shaped error body. */
  | { status: number; retryAfter?: number }
  /** Close the connection without an answer. */
  | { drop: true }
  /** Answer nothing for this long first, then handle the request normally. */
  | { delayMs: number };

interface Stored {
  body: string;
  id: string;
}

const MAX_BODY_BYTES = 5 * 1024 * 1024;

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

const providerError = (status: number, name: string, message: string) => ({ statusCode: status, name, message });

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new Error("body too large");
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function isStringArray(v: unknown): v is string[] {
  return Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === "string" && x.includes("@"));
}

export class FakeEmailProvider {
  /** Base URL without a trailing slash, e.g. `http://127.0.0.1:12345`: the mailer posts to `${url}/emails`. */
  readonly url: string;
  readonly apiKey: string;
  readonly #server: Server;
  #requests: RecordedEmailRequest[] = [];
  #emails: FakeEmail[] = [];
  #byKey = new Map<string, Stored>();
  #faults: EmailFault[] = [];
  #closed = false;

  private constructor(server: Server, url: string, apiKey: string) {
    this.#server = server;
    this.url = url;
    this.apiKey = apiKey;
  }

  static async start(opts: { apiKey?: string; port?: number } = {}): Promise<FakeEmailProvider> {
    let fake: FakeEmailProvider | undefined;
    const server = createServer((req, res) => {
      if (!fake) return sendJson(res, 503, providerError(503, "starting", "fake-email: starting"));
      fake.#handle(req, res).catch((err: unknown) => {
        if (!res.headersSent) sendJson(res, 500, providerError(500, "internal_error", String(err)));
        else res.destroy();
      });
    });
    server.keepAliveTimeout = 60_000;
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(opts.port ?? 0, "127.0.0.1", () => {
        server.off("error", reject);
        resolve();
      });
    });
    const { port } = server.address() as AddressInfo;
    fake = new FakeEmailProvider(server, `http://127.0.0.1:${port}`, opts.apiKey ?? FAKE_EMAIL_API_KEY);
    return fake;
  }

  /** Every request in arrival order, faulted and refused ones included. */
  get requests(): readonly RecordedEmailRequest[] {
    return this.#requests;
  }

  /** E-mails accepted, once each (a repeat with the same idempotency key is not a second e-mail). */
  get emails(): readonly FakeEmail[] {
    return this.#emails;
  }

  /** Accepted e-mails to one address. */
  emailsTo(address: string): FakeEmail[] {
    return this.#emails.filter((e) => e.to.includes(address));
  }

  /** The next `times` requests fail with `fault`; queued faults are used in order. */
  fail(fault: EmailFault, times = 1): void {
    for (let i = 0; i < times; i++) this.#faults.push(fault);
  }

  /** Forgets requests, e-mails, idempotency keys and faults. */
  reset(): void {
    this.#requests = [];
    this.#emails = [];
    this.#byKey = new Map();
    this.#faults = [];
  }

  /** Polls until the predicate holds (counting sleeps, so fake timers cannot stall it). */
  async waitFor(predicate: (fake: FakeEmailProvider) => boolean, timeoutMs = 5000): Promise<void> {
    for (let waited = 0; ; waited += 10) {
      if (predicate(this)) return;
      if (waited >= timeoutMs) throw new Error(`fake-email: waitFor timed out after ${timeoutMs}ms`);
      await sleep(10);
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await new Promise<void>((resolve, reject) => {
      this.#server.close((err) => (err ? reject(err) : resolve()));
      this.#server.closeAllConnections();
    });
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    let body: unknown = raw;
    let json = false;
    try {
      body = JSON.parse(raw);
      json = true;
    } catch {
      // recorded as text
    }
    const header = (name: string) => {
      const v = req.headers[name];
      return Array.isArray(v) ? v[0] : v;
    };
    const call: RecordedEmailRequest = {
      method: req.method ?? "",
      path: new URL(req.url ?? "/", "http://127.0.0.1").pathname,
      authorization: header("authorization"),
      idempotencyKey: header("idempotency-key"),
      contentType: header("content-type"),
      body,
      status: 0,
      faulted: false,
    };
    this.#requests.push(call);
    const answer = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
      call.status = status;
      sendJson(res, status, payload, headers);
    };

    // Faults come first, like failures in front of the provider, and change no state.
    let fault = this.#faults.shift();
    if (fault && "delayMs" in fault) {
      await sleep(fault.delayMs);
      fault = undefined;
    }
    if (fault) {
      call.faulted = true;
      if ("drop" in fault) {
        req.socket.destroy();
        return;
      }
      const headers: Record<string, string> =
        fault.status === 429 ? { "retry-after": String(fault.retryAfter ?? 1) } : {};
      const name =
        fault.status === 429
          ? "rate_limit_exceeded"
          : fault.status >= 500
            ? "internal_server_error"
            : "validation_error";
      return answer(fault.status, providerError(fault.status, name, `fake-email: injected ${fault.status}`), headers);
    }

    if (call.method !== "POST" || call.path !== "/emails") {
      return answer(404, providerError(404, "not_found", "fake-email: only POST /emails"));
    }
    if (!call.authorization?.startsWith("Bearer ")) {
      return answer(401, providerError(401, "missing_api_key", "Missing API key in the authorization header"));
    }
    if (call.authorization !== `Bearer ${this.apiKey}`) {
      return answer(403, providerError(403, "invalid_api_key", "API key is invalid"));
    }
    if (!json || typeof body !== "object" || body === null) {
      return answer(400, providerError(400, "invalid_body", "The body must be JSON"));
    }
    const b = body as Record<string, unknown>;
    const problem =
      typeof b.from !== "string" || !b.from.includes("@")
        ? "from"
        : !isStringArray(b.to)
          ? "to"
          : typeof b.subject !== "string" || b.subject === ""
            ? "subject"
            : typeof b.html !== "string" && typeof b.text !== "string"
              ? "html"
              : undefined;
    if (problem) return answer(422, providerError(422, "validation_error", `The \`${problem}\` field is invalid.`));

    const key = call.idempotencyKey;
    if (key) {
      const seen = this.#byKey.get(key);
      if (seen && seen.body !== raw) {
        return answer(
          409,
          providerError(
            409,
            "invalid_idempotent_request",
            "Same idempotency key used with a different request payload.",
          ),
        );
      }
      if (seen) return answer(200, { id: seen.id });
    }
    const id = randomUUID();
    if (key) this.#byKey.set(key, { body: raw, id });
    this.#emails.push({
      id,
      idempotencyKey: key,
      from: b.from as string,
      to: b.to as string[],
      subject: b.subject as string,
      html: typeof b.html === "string" ? b.html : "",
      text: typeof b.text === "string" ? b.text : "",
      headers: (typeof b.headers === "object" && b.headers !== null ? b.headers : {}) as Record<string, string>,
    });
    return answer(200, { id });
  }
}

export function startFakeEmail(opts: { apiKey?: string; port?: number } = {}): Promise<FakeEmailProvider> {
  return FakeEmailProvider.start(opts);
}
