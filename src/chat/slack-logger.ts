import { LogLevel, type Logger as SlackLogger } from "@slack/web-api";
import type { Logger } from "pino";
import { scrubSecrets } from "../lib/log-scrub.ts";

const RANK: Record<LogLevel, number> = {
  [LogLevel.DEBUG]: 0,
  [LogLevel.INFO]: 1,
  [LogLevel.WARN]: 2,
  [LogLevel.ERROR]: 3,
};

/** The Slack libraries' level matching a pino level: what they are asked to log at most. */
export function slackLevelFor(pinoLevel: string): LogLevel {
  if (pinoLevel === "trace" || pinoLevel === "debug") return LogLevel.DEBUG;
  if (pinoLevel === "info") return LogLevel.INFO;
  if (pinoLevel === "warn") return LogLevel.WARN;
  return LogLevel.ERROR;
}

const MAX_LINE = 500;

/** A library argument as text: strings as they are, errors by name, code and message, objects not at all. */
function argText(arg: unknown): string {
  if (typeof arg === "string") return arg;
  if (typeof arg === "number" || typeof arg === "boolean" || typeof arg === "bigint") return String(arg);
  if (arg instanceof Error) {
    const code = (arg as { code?: unknown }).code;
    return `${arg.name}${typeof code === "string" ? ` (${code})` : ""}: ${arg.message}`;
  }
  return arg === undefined || arg === null ? "" : "[object omitted]";
}

const API_CALL = /^apiCall\('(.*)'\) (start|end)$/;
const RESULT = /^http request result: ([\s\S]*)$/;
// The Web API client writes out each request's URL, body and headers and each whole response at DEBUG:
// bodies hold views (sign-in links), messages (answer text) and the OAuth client secret and code.
const PAYLOAD_LINES = /^http request (url|body|headers):/;

/** What a Web API result may say in the logs: whether it worked, and Slack's error code. */
function resultSummary(json: string): string {
  try {
    const result = JSON.parse(json) as { ok?: unknown; error?: unknown };
    if (result.ok === true) return "http request result: ok";
    const code = typeof result.error === "string" && /^[a-z_]{1,64}$/.test(result.error) ? result.error : "unknown";
    return `http request result: error ${code}`;
  } catch {
    return "http request result: [omitted]";
  }
}

/**
 * One line of a Slack library, reduced to what may be logged, or undefined to drop it. Lines that carry
 * payloads are dropped or summarised; anything else loses whatever JSON it holds, then secret shapes.
 */
export function slackLogLine(args: readonly unknown[]): string | undefined {
  const text = args.map(argText).join(" ").trim();
  if (text === "" || PAYLOAD_LINES.test(text)) return undefined;
  const call = API_CALL.exec(text);
  if (call) return /^[\w.]+$/.test(call[1]!) ? text : `apiCall('[url]') ${call[2]}`;
  const result = RESULT.exec(text);
  if (result) return resultSummary(result[1]!);
  // A request or event body, wherever a library chose to print one (Bolt's developer mode prints events).
  const json = text.search(/[{[]\s*["{[]/);
  const kept = json === -1 ? text : `${text.slice(0, json)}[payload omitted]`;
  const line = scrubSecrets(kept);
  return line.length > MAX_LINE ? `${line.slice(0, MAX_LINE)}…` : line;
}

/**
 * Bolt's and the Web API client's logger, written to our pino logger. A line is logged when both the
 * library's level (setLevel) and pino's level allow it, and only in the reduced form of slackLogLine.
 */
export function slackLogger(log: Logger, component: "bolt" | "slack-web-api" | "socket-mode"): SlackLogger {
  const child = log.child({ component });
  let level = slackLevelFor(log.level);
  const emit = (at: LogLevel, pinoLevel: "debug" | "info" | "warn" | "error", args: unknown[]) => {
    if (RANK[at] < RANK[level] || !child.isLevelEnabled(pinoLevel)) return;
    const line = slackLogLine(args);
    if (line !== undefined) child[pinoLevel](line);
  };
  return {
    debug: (...args) => emit(LogLevel.DEBUG, "debug", args),
    info: (...args) => emit(LogLevel.INFO, "info", args),
    warn: (...args) => emit(LogLevel.WARN, "warn", args),
    error: (...args) => emit(LogLevel.ERROR, "error", args),
    setLevel: (l) => {
      level = l;
    },
    getLevel: () => level,
    // The libraries name each client ("web-api:WebClient:3"); the component says enough.
    setName: () => {},
  };
}
