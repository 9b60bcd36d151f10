import type { App, Receiver } from "@slack/bolt";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { errorBody } from "../contract/index.ts";
import type { Deps } from "../deps.ts";
import { addressKey } from "../http/rate-limit.ts";
import { stripNul } from "../lib/nul.ts";
import { EventClaims } from "./event-claims.ts";
import { SIGNATURE_FAILURES_PER_MINUTE, SignatureGate } from "./signature-gate.ts";
import { verifySlackSignature } from "./verify.ts";

/** Slack gives up after 3 s; answer before that even if no listener acknowledged. */
const ACK_DEADLINE_MS = 2_500;

const EVENT_BACKLOG_MAX = 256;

function logListenerError(req: FastifyRequest, err: unknown): void {
  req.log.error({ err: err instanceof Error ? err.message : String(err) }, "chat listener failed");
}

/** Transport only: Fastify verifies, parses and acknowledges; Bolt's listeners do the work. */
export class FastifyReceiver implements Receiver {
  #bolt: App | undefined;
  readonly #inFlight = new Set<Promise<void>>();

  /** Runs acknowledged event work in the background; false when the backlog is full (run it inline). */
  track(work: () => Promise<void>, log: FastifyRequest["log"]): boolean {
    if (this.#inFlight.size >= EVENT_BACKLOG_MAX) return false;
    const p: Promise<void> = work()
      .catch((err: unknown) =>
        log.error({ err: err instanceof Error ? err.message : String(err) }, "chat listener failed"),
      )
      .finally(() => this.#inFlight.delete(p));
    this.#inFlight.add(p);
    return true;
  }

  /** Lets acknowledged events finish before shutdown closes the database. */
  async settle(timeoutMs = 10_000): Promise<void> {
    const timeout = new Promise((resolve) => setTimeout(resolve, timeoutMs).unref());
    await Promise.race([Promise.allSettled([...this.#inFlight]), timeout]);
  }

  init(app: App): void {
    this.#bolt = app;
  }
  async start(): Promise<void> {}
  async stop(): Promise<void> {}
  get bolt(): App {
    if (!this.#bolt) throw new Error("receiver not initialised by a Bolt App");
    return this.#bolt;
  }
}

type Body = Record<string, unknown>;

/** Slack sends what people type, NUL bytes too; the database cannot hold them, so they go here (stripNul). */
function parseBody(raw: Buffer, contentType: string | undefined): Body | undefined {
  const text = raw.toString("utf8");
  try {
    if ((contentType ?? "").includes("application/json")) return stripNul(JSON.parse(text) as Body);
    const form = Object.fromEntries(new URLSearchParams(text));
    if (typeof form.payload === "string") return stripNul(JSON.parse(form.payload) as Body);
    return stripNul(form);
  } catch {
    return undefined;
  }
}

const tooMany = (reply: FastifyReply, retryAfterSeconds: number) =>
  reply.status(429).header("retry-after", String(retryAfterSeconds)).send({ error: "Too many requests" });

async function handle(
  deps: Deps,
  receiver: FastifyReceiver,
  gate: SignatureGate,
  claims: EventClaims,
  req: FastifyRequest,
  reply: FastifyReply,
) {
  const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
  const contentType = req.headers["content-type"];
  // Slack's certificate probe for slash commands is unsigned and carries nothing to process.
  if (!contentType?.includes("json") && /(^|&)ssl_check=1(&|$)/.test(raw.toString("utf8"))) return reply.send("");

  const check = verifySlackSignature(
    deps.config.chatSigningSecret,
    raw,
    {
      signature: req.headers["x-slack-signature"] as string | undefined,
      timestamp: req.headers["x-slack-request-timestamp"] as string | undefined,
    },
    deps.clock.now().getTime(),
  );
  if (!check.ok) {
    req.log.warn({ reason: check.reason }, "refused unsigned chat request");
    const wait = await gate.fail(addressKey(req.ip));
    if (wait > 0) {
      req.log.warn("chat requests from an address refused until the minute ends: too many bad signatures");
      return tooMany(reply, wait);
    }
    return reply.status(401).send({ error: "Invalid request signature" });
  }
  const body = parseBody(raw, contentType);
  if (!body) return reply.status(400).send({ error: "Malformed body" });
  if (body.type === "url_verification") return reply.send({ challenge: body.challenge });

  const retryNum = Number(req.headers["x-slack-retry-num"] ?? 0);
  const retry = retryNum ? { retryNum, retryReason: String(req.headers["x-slack-retry-reason"] ?? "") } : {};

  if (body.type === "event_callback" && typeof body.event_id === "string") {
    // Events need no answer but 200: acknowledge first, then claim the event id and dispatch. Past a
    // bounded backlog the work is done before answering, so overload slows senders instead of piling up.
    const eventId = body.event_id;
    const work = async () => {
      if (!(await claims.claim(eventId, body.team_id as string | undefined))) return;
      await receiver.bolt.processEvent({ body, ack: async () => {}, ...retry });
    };
    if (!receiver.track(work, req.log)) await work().catch((err: unknown) => logListenerError(req, err));
    return reply.send("");
  }

  let acked = false;
  const response = new Promise<unknown>((resolve) => {
    const timer = setTimeout(() => resolve(undefined), ACK_DEADLINE_MS);
    const ack = async (res?: unknown) => {
      if (acked) return;
      acked = true;
      clearTimeout(timer);
      resolve(res);
    };
    receiver.bolt.processEvent({ body, ack, ...retry }).catch((err: unknown) => {
      logListenerError(req, err);
      void ack();
    });
  });
  const result = await response;
  if (result === undefined || result === "") return reply.send("");
  if (typeof result === "string") return reply.type("text/plain; charset=utf-8").send(result);
  return reply.send(result);
}

export function chatRoutes(receiver: FastifyReceiver) {
  return async (app: FastifyInstance, deps: Deps): Promise<void> => {
    // Encapsulated so the raw-body parser applies only to the Slack endpoints.
    const gate = new SignatureGate(deps);
    const claims = new EventClaims(deps.database, deps.clock);
    await app.register(async (scope) => {
      // An address over its signature-failure limit is refused before its body is read or any HMAC computed.
      scope.addHook("onRequest", async (req, reply) => {
        const wait = gate.retryAfter(addressKey(req.ip), deps.clock.now().getTime());
        if (wait > 0) return tooMany(reply, wait);
      });
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser("*", { parseAs: "buffer" }, (_req, body, done) => done(null, body));
      const route = (req: FastifyRequest, reply: FastifyReply) => handle(deps, receiver, gate, claims, req, reply);
      const schema = (summary: string) => ({
        summary,
        description:
          "Called only by Slack. Verified with the signing secret (X-Slack-Signature, X-Slack-Request-Timestamp " +
          "within 5 minutes) before anything else; retries (X-Slack-Retry-Num) are acknowledged and processed once.",
        response: {
          200: z.unknown().describe("Empty, or Slack's acknowledgement body (a challenge, response_action or message)"),
          400: errorBody.describe("A body that is neither JSON nor a form"),
          401: errorBody.describe("Missing, forged or stale signature"),
          429: errorBody.describe(
            `More than ${SIGNATURE_FAILURES_PER_MINUTE} bad signatures a minute from this address: every request ` +
              "from it is refused until the minute ends (Retry-After). Validly signed requests never count.",
          ),
        },
      });
      scope.post("/chat/events", { schema: schema("Slack Events API deliveries (and slash commands)") }, route);
      scope.post("/chat/interactions", { schema: schema("Slack interactivity: buttons, modal submissions") }, route);
      // Slack also posts slash commands wherever the app is told; one URL for all is simplest to configure.
      scope.post("/chat/commands", { schema: schema("Slack slash commands") }, route);
    });
  };
}
