/**
 * One error family; the handler turns it into `{"error": message}` with its status, plus `detail` when set (the
 * spec fixes some `error` texts, so anything more specific goes beside them).
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly detail?: string,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, code = "bad_request") => new AppError(400, code, message);
export const unauthorized = () => new AppError(401, "unauthorized", "Unauthorized");
export const forbidden = (message = "Admin required") => new AppError(403, "forbidden", message);
/** Any admin-only action refused: the spec's `{"error": "Admin required"}`, with which admin it takes as `detail`. */
export const adminRequired = (detail: string) => new AppError(403, "forbidden", "Admin required", detail);
export const notFound = (message = "Not found") => new AppError(404, "not_found", message);
export const conflict = (message: string) => new AppError(409, "conflict", message);
export const tooMany = (message = "Too many requests") => new AppError(429, "rate_limited", message);
export const upstreamFailed = (message: string) => new AppError(500, "upstream_failed", message);
