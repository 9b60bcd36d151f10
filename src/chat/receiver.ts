import type { App, Receiver } from "@slack/bolt";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { errorBody } from "../contract/index.ts";
import type { Deps } from "../deps.ts";
import { addressKey } from "../http/rate-limit.ts";
import { BODY_LIMIT } from "../http/server.ts";
import { stripNul } from "../lib/nul.ts";
import type { DeliveryKind } from "./intake/intake.repo.ts";
import type { Dispatch, Intake } from "./intake/intake.ts";
import { SIGNATURE_FAILURES_PER_MINUTE, SignatureGate } from "./signature-gate.ts";
import { SIGNATURE_WINDOW_SECONDS, verifySlackSignature } from "./verify.ts";

/** Bolt's side of the transport: the intake hands it each delivery (`dispatch`); start and stop are the app's. */
export class FastifyReceiver implements Receiver {
  #bolt: App | undefined;
  #direct: Dispatch | undefined;

  /** Set by createBolt: Events API deliveries go to our listeners directly (events-direct.ts), the rest to Bolt. */
  setDispatch(dispatch: Dispatch): void {
    this.#direct = dispatch;
  }
  /** Hands one delivery to the listeners; rejects when one of them failed. */
  readonly dispatch: Dispatch = (body, ack, retry) =>
    this.#direct ? this.#direct(body, ack, retry) : this.bolt.processEvent({ body, ack, ...retry });

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

/**
 * A NUL can only be in JSON text as the escape \u0000 (JSON.parse refuses raw control characters in strings), so text
 * without one parses to a value without one: stripNul's walk over the whole body is needed only when it is there.
 */
const mayHoldNul = (json: string) => json.includes("\\u0000");

/**
 * Slack sends what people type, NUL bytes too; the database cannot hold them, so they go here (stripNul). `json` is
 * the body's JSON text when it came as JSON and nothing was stripped (the intake stores it as it is).
 */
function parseBody(raw: Buffer, contentType: string | undefined): { body: Body; json?: string } | undefined {
  const text = raw.toString("utf8");
  try {
    if ((contentType ?? "").includes("application/json")) {
      const value = JSON.parse(text) as Body;
      return mayHoldNul(text) ? { body: stripNul(value) } : { body: value, json: text };
    }
    const form = Object.fromEntries(new URLSearchParams(text));
    if (typeof form.payload === "string") {
      const value = JSON.parse(form.payload) as Body;
      return { body: mayHoldNul(form.payload) ? stripNul(value) : value };
    }
    return { body: stripNul(form) };
  } catch {
    return undefined;
  }
}

const tooMany = (reply: FastifyReply, retryAfterSeconds: number) =>
  reply.status(429).header("retry-after", String(retryAfterSeconds)).send({ error: "Too many requests" });

function kindOf(body: Body): DeliveryKind {
  if (body.type === "event_callback") return "event";
  return typeof body.command === "string" ? "command" : "interaction";
}

async function handle(deps: Deps, intake: Intake, gate: SignatureGate, req: FastifyRequest, reply: FastifyReply) {
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
    const ip = addressKey(req.ip);
    // Already blocked: refused without counting (no database write per request of a flood).
    const wait = gate.retryAfter(ip, deps.clock.now().getTime()) || (await gate.fail(ip));
    if (wait > 0) {
      req.log.warn("unsigned chat requests from an address refused until the minute ends: too many bad signatures");
      return tooMany(reply, wait);
    }
    return reply.status(401).send({ error: "Invalid request signature" });
  }
  const parsed = parseBody(raw, contentType);
  if (!parsed) return reply.status(400).send({ error: "Malformed body" });
  const body = parsed.body;
  if (body.type === "url_verification") return reply.send({ challenge: body.challenge });

  const retryNum = Number(req.headers["x-slack-retry-num"] ?? 0);
  const retry = retryNum ? { retryNum, retryReason: String(req.headers["x-slack-retry-reason"] ?? "") } : undefined;
  let result: unknown;
  try {
    result = await intake.receive({
      kind: kindOf(body),
      body,
      raw,
      ...(parsed.json !== undefined ? { json: parsed.json } : {}),
      ...(retry ? { retry } : {}),
    });
  } catch (err) {
    // Not stored, so not acknowledged: Slack retries an event it got no 200 for (and shows the member an error for
    // a command or interaction), where a 200 would lose it.
    req.log.error({ err: err instanceof Error ? err.message : String(err) }, "could not record a chat delivery");
    return reply.status(503).send({ error: "Service unavailable" });
  }
  if (result === undefined || result === "") return reply.send("");
  if (typeof result === "string") return reply.type("text/plain; charset=utf-8").send(result);
  return reply.send(result);
}

/**
 * Whether a request from an address blocked for bad signatures can be refused on its headers alone: no signature,
 * a timestamp outside the window, or a body over the limit can never be a valid Slack request.
 */
function hopeless(req: FastifyRequest, nowMs: number): boolean {
  const signature = req.headers["x-slack-signature"];
  const timestamp = Number(req.headers["x-slack-request-timestamp"]);
  if (typeof signature !== "string" || !Number.isFinite(timestamp)) return true;
  if (Math.abs(nowMs / 1000 - timestamp) > SIGNATURE_WINDOW_SECONDS) return true;
  return Number(req.headers["content-length"] ?? 0) > BODY_LIMIT;
}

export function chatRoutes(intake: Intake) {
  return async (app: FastifyInstance, deps: Deps): Promise<void> => {
    // Encapsulated so the raw-body parser applies only to the Slack endpoints.
    const gate = new SignatureGate(deps);
    await app.register(async (scope) => {
      // A blocked address's request that cannot be validly signed is refused before its body is read; any other is
      // read and verified (handle), so Slack behind a shared address is never refused for someone else's requests.
      scope.addHook("onRequest", async (req, reply) => {
        const now = deps.clock.now().getTime();
        const wait = gate.retryAfter(addressKey(req.ip), now);
        if (wait > 0 && hopeless(req, now)) return tooMany(reply, wait);
      });
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser("*", { parseAs: "buffer" }, (_req, body, done) => done(null, body));
      const route = (req: FastifyRequest, reply: FastifyReply) => handle(deps, intake, gate, req, reply);
      const schema = (summary: string) => ({
        summary,
        description:
          "Called only by Slack. Verified with the signing secret (X-Slack-Signature, X-Slack-Request-Timestamp " +
          "within 5 minutes) before anything else, then stored, and only then acknowledged; retries " +
          "(X-Slack-Retry-Num) are acknowledged and processed once.",
        response: {
          200: z.unknown().describe("Empty, or Slack's acknowledgement body (a challenge, response_action or message)"),
          400: errorBody.describe("A body that is neither JSON nor a form"),
          401: errorBody.describe("Missing, forged or stale signature"),
          429: errorBody.describe(
            `More than ${SIGNATURE_FAILURES_PER_MINUTE} bad signatures a minute from this address: until the minute ` +
              "ends (Retry-After) its requests that are not validly signed are refused with 429 instead of 401, " +
              "without being counted (and before their body is read when the headers alone show it). Validly " +
              "signed requests are always accepted and never count.",
          ),
          503: errorBody.describe("The delivery could not be stored (database unavailable): Slack retries it"),
        },
      });
      scope.post("/chat/events", { schema: schema("Slack Events API deliveries (and slash commands)") }, route);
      scope.post("/chat/interactions", { schema: schema("Slack interactivity: buttons, modal submissions") }, route);
      // Slack also posts slash commands wherever the app is told; one URL for all is simplest to configure.
      scope.post("/chat/commands", { schema: schema("Slack slash commands") }, route);
    });
  };
}
