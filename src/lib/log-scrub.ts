/**
 * The last line of defence for log text: known secret shapes are masked wherever they appear. It cannot
 * recognise answer text or other free text; what may carry those is dropped before it gets here.
 */
const SECRET_SHAPES: readonly [RegExp, string][] = [
  // Slack tokens: bot, user, app-level, config and refresh tokens.
  [/\bxox[a-z]-[A-Za-z0-9-]+/g, "xox?-[redacted]"],
  [/\bxapp-[A-Za-z0-9-]+/g, "xapp-[redacted]"],
  // MCP keys (svc_ and 32+ characters; the session cookie's name is shorter) and webhook secrets.
  [/\bsvc_[0-9A-Za-z]{16,}/g, "svc_[redacted]"],
  [/\bwhsec_[A-Za-z0-9+/=_-]+/g, "whsec_[redacted]"],
  [/\b(Bearer|Basic)\s+[^\s"',;]+/gi, "$1 [redacted]"],
  // Login tokens and OAuth states: base64url(JSON) "." signature, wherever they stand.
  [/\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{16,}/g, "[signed-token]"],
  // Query strings of URLs (login links, OAuth codes and states) and any `t=` value left over.
  [/(\bhttps?:\/\/[^\s"'<>?#]*)\?[^\s"'<>#]*/g, "$1?[query]"],
  [/([?&](?:t|token|code|state|client_secret)=)[^&\s"'<>#]+/g, "$1[redacted]"],
  // Feed tokens live in the path.
  [/\/feed\/[^/\s"'<>?#]+/g, "/feed/[token]"],
  // Cookie values: a Cookie or Set-Cookie header written out, or our session cookie anywhere.
  [/\b((?:set-)?cookie["']?\s*[:=]\s*["']?)[^"'\n]+/gi, "$1[redacted]"],
  [/\b(svc_session=)[^;\s"']+/g, "$1[redacted]"],
  // drizzle's "Failed query: … params: …" would repeat the row's values (answer text among them).
  [/(\nparams: )[\s\S]*/g, "$1[omitted]"],
];

/**
 * Text none of SECRET_SHAPES can match lacks all of these (each shape needs one of them, letter case aside): most
 * log text (request ids, routes, plain messages) is let through after this one test.
 */
const SHAPE_MARKERS =
  /xox|xapp-|svc_|whsec_|bearer|basic|eyJ|https?:\/\/|[?&](?:t|token|code|state|client_secret)=|\/feed\/|cookie|\nparams: /i;

/** Masks every known secret shape in a piece of log text. */
export function scrubSecrets(text: string): string {
  if (!SHAPE_MARKERS.test(text)) return text;
  let out = text;
  for (const [shape, mask] of SECRET_SHAPES) out = out.replace(shape, mask);
  return out;
}

/**
 * An error as the logs may see it: its name, code and scrubbed message (and stack), never the request
 * or response a library error carries as properties (Slack's `data`, `body` and `headers`, pg's `detail`).
 */
export interface LoggableError {
  type: string;
  message: string;
  code?: string;
  stack?: string;
  cause?: LoggableError;
}

export function loggableError(err: unknown, depth = 0): LoggableError {
  if (!(err instanceof Error)) return { type: typeof err, message: scrubSecrets(String(err)) };
  const code = (err as { code?: unknown }).code;
  return {
    type: err.name,
    message: scrubSecrets(err.message),
    ...(typeof code === "string" || typeof code === "number" ? { code: String(code) } : {}),
    ...(depth === 0 && err.stack ? { stack: scrubSecrets(err.stack) } : {}),
    // The cause's message says why (pg's "duplicate key value …"); one level is enough.
    ...(depth === 0 && err.cause !== undefined ? { cause: loggableError(err.cause, 1) } : {}),
  };
}
