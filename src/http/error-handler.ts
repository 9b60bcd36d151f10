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

/** One place turns every failure into `{"error": "..."}`; a 5xx shows a generic message and logs the cause. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | AppError, req, reply) => {
    if (err instanceof AppError) {
      if (err.status >= 500) req.log.error({ err: err.message, code: err.code }, "request failed");
      return reply.status(err.status).send({ error: err.message });
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
    req.log.error({ err }, "unhandled error");
    return reply.status(500).send({ error: "Internal server error" });
  });

  app.setNotFoundHandler((req, reply) => {
    reply.status(404).send({ error: `Not found: ${req.method} ${req.url.split("?")[0]}` });
  });
}
