import type { FastifyError, FastifyInstance } from "fastify";
import { AppError } from "./errors.ts";

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
      return reply.status(400).send({ error: err.message });
    }
    if (status >= 400 && status < 500) return reply.status(status).send({ error: err.message });
    req.log.error({ err }, "unhandled error");
    return reply.status(500).send({ error: "Internal server error" });
  });

  app.setNotFoundHandler((req, reply) => {
    reply.status(404).send({ error: `Not found: ${req.method} ${req.url.split("?")[0]}` });
  });
}
