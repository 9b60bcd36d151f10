import type { FastifyError, FastifyInstance } from "fastify";
import { AppError } from "./errors.ts";

type Issue = { instancePath?: string; message?: string };

/**
 * The first problem, naming its field: "schedule_time must be HH:MM …" as the schema words it, or
 * "name: Invalid input …" when zod's default message does not name it.
 */
export function validationMessage(issues: readonly Issue[], context: string | undefined): string {
  const issue = issues[0] ?? {};
  const field = (issue.instancePath ?? "").split("/").filter(Boolean).join(".");
  const message = issue.message ?? "Invalid input";
  if (!field)
    return context === "body" && message.startsWith("Invalid input") ? "Request body must be a JSON object" : message;
  // "questions[1] must be a string" names its field; zod's own "Invalid input: …" does not (and may contain it).
  const named = message === field || message.startsWith(`${field} `) || message.startsWith(`${field}[`);
  return named ? message : `${field}: ${message}`;
}

/** PostgreSQL error classes that mean "no database right now", not "this request is wrong". */
const UNAVAILABLE_SQLSTATE = /^(08|57P0[1-3]|53300)/;
const UNAVAILABLE_MESSAGE = /timeout exceeded when trying to connect|Connection terminated|ECONNREFUSED|ECONNRESET/i;

/**
 * Whether a failure (or what caused it: drizzle wraps driver errors) is the database being out of reach or out of
 * connections: that is a 503 with Retry-After, as for /healthz, and not an internal error of the request.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === "string" && (UNAVAILABLE_SQLSTATE.test(code) || code === "ECONNREFUSED")) return true;
    if (typeof message === "string" && UNAVAILABLE_MESSAGE.test(message)) return true;
  }
  return false;
}

/** One place turns every failure into `{"error": "..."}`; a 5xx shows a generic message and logs the cause. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | AppError, req, reply) => {
    if (err instanceof AppError) {
      if (err.status >= 500) req.log.error({ err: err.message, code: err.code }, "request failed");
      return reply
        .status(err.status)
        .send(err.detail === undefined ? { error: err.message } : { error: err.message, detail: err.detail });
    }
    const status = typeof err.statusCode === "number" ? err.statusCode : 500;
    if (err.code === "FST_ERR_CTP_BODY_TOO_LARGE" || status === 413) {
      return reply.status(413).send({ error: "Request body is larger than 1 MB" });
    }
    if (err.code === "FST_ERR_CTP_INVALID_MEDIA_TYPE" || status === 415) {
      return reply.status(415).send({ error: "Unsupported content type; send application/json" });
    }
    if (err.validation) {
      return reply.status(400).send({ error: validationMessage(err.validation, err.validationContext) });
    }
    if (status >= 400 && status < 500) return reply.status(status).send({ error: err.message });
    if (isDatabaseUnavailable(err)) {
      req.log.warn({ err }, "database unavailable");
      return reply.status(503).header("retry-after", "1").send({ error: "Database unavailable; try again shortly" });
    }
    req.log.error({ err }, "unhandled error");
    return reply.status(500).send({ error: "Internal server error" });
  });

  app.setNotFoundHandler((req, reply) => {
    reply.status(404).send({ error: `Not found: ${req.method} ${req.url.split("?")[0]}` });
  });
}
