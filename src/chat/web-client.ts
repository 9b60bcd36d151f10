import { WebClient, type WebClientOptions } from "@slack/web-api";
import type { Logger } from "pino";
import type { Config } from "../config.ts";
import type { Metrics, SlackCallOutcome } from "../lib/metrics.ts";
import { slackErrorClass, TOKEN_REFUSED } from "./slack-errors.ts";
import { slackLogger } from "./slack-logger.ts";

type FetchFunction = NonNullable<WebClientOptions["fetch"]>;

/** `chat.postMessage`, `admin.conversations.setTeams`: a Web API method name; anything else is not a label. */
const SLACK_METHOD = /^[a-z]+(\.[a-zA-Z]+){1,3}$/;
/** Slack puts `ok` first: most answers are classified without parsing them. */
const OK_FIRST = /^\s*\{\s*"ok"\s*:\s*true\b/;

/** The Web API method a request URL calls (`…/api/chat.postMessage` → `chat.postMessage`), or `other`. */
export function slackMethodOf(url: string): string {
  const path = url.split("?")[0] ?? "";
  const method = path.slice(path.lastIndexOf("/") + 1);
  return SLACK_METHOD.test(method) ? method : "other";
}

/** What an HTTP 200 answer of the Web API says: ok, or the class of its error code. */
export function bodyOutcome(text: string): SlackCallOutcome {
  if (OK_FIRST.test(text)) return "ok";
  try {
    const body = JSON.parse(text) as { ok?: unknown; error?: unknown };
    if (body.ok === true) return "ok";
    return typeof body.error === "string" ? slackErrorClass(body.error) : "slack_error";
  } catch {
    return "http_error";
  }
}

/**
 * Told when Slack answers a call with an error that means the token no longer works (TOKEN_REFUSED), before the
 * client throws it to the caller: `token` is the bearer token the call carried.
 */
export type TokenRefusedHook = (token: string, code: string) => Promise<void>;

/** The code of an `ok: false` answer when it says the token no longer works, else undefined. */
function refusedTokenCode(text: string): string | undefined {
  try {
    const code = (JSON.parse(text) as { error?: unknown }).error;
    return typeof code === "string" && TOKEN_REFUSED.has(code) ? code : undefined;
  } catch {
    return undefined;
  }
}

function bearerOf(init: Parameters<FetchFunction>[1]): string | undefined {
  const headers = init?.headers as Record<string, string> | undefined;
  const auth = headers?.Authorization ?? headers?.authorization;
  return typeof auth === "string" && auth.startsWith("Bearer ") ? auth.slice(7) : undefined;
}

/**
 * The Web API client's fetch, counting every HTTP request it makes (each retry too) by method and outcome. It is
 * the one point every client passes through, ours and those Bolt makes for listeners alike, so it is also where a
 * refused token is noticed (`onTokenRefused`, awaited: the installation is marked before the caller sees the
 * error). The body of a 200 is read here once and handed on unchanged.
 */
export function countingFetch(metrics: Metrics | undefined, inner?: FetchFunction, onTokenRefused?: TokenRefusedHook) {
  const counted: FetchFunction = async (url, init) => {
    const method = slackMethodOf(String(url));
    const started = performance.now();
    const done = (outcome: SlackCallOutcome) =>
      metrics?.observeSlackCall(method, outcome, (performance.now() - started) / 1000);
    let res: Awaited<ReturnType<FetchFunction>>;
    try {
      res = await (inner ?? (globalThis.fetch as FetchFunction))(url, init);
    } catch (err) {
      done("network_error");
      throw err;
    }
    if (res.status !== 200) {
      done(res.status === 429 ? "rate_limited" : "http_error");
      return res;
    }
    let text: string;
    try {
      text = await res.text();
    } catch (err) {
      done("network_error");
      throw err;
    }
    const outcome = bodyOutcome(text);
    done(outcome);
    if (outcome === "auth_error" && onTokenRefused) {
      const code = refusedTokenCode(text);
      const token = bearerOf(init);
      if (code && token) await onTokenRefused(token, code);
    }
    const copy = new Response(text, {
      status: res.status,
      statusText: res.statusText,
      headers: [...res.headers.entries()],
    });
    Object.defineProperty(copy, "url", { value: res.url });
    return copy;
  };
  return counted;
}

/**
 * Slack's client retries for about 30 minutes by default. Reads get a short bounded retry;
 * posting calls get none, because the job that posts retries instead and claims make that safe.
 * Its logging goes through our logger (never the library's console logger), reduced by slackLogger.
 * With `metrics`, every request is counted; with `onTokenRefused`, a refused token is reported (countingFetch).
 */
export function webClientOptions(
  config: Pick<Config, "chatApiUrl">,
  purpose: "read" | "post",
  logger: WebClientOptions["logger"],
  metrics?: Metrics,
  onTokenRefused?: TokenRefusedHook,
): WebClientOptions {
  return {
    slackApiUrl: config.chatApiUrl,
    timeout: 10_000,
    logger,
    retryConfig: purpose === "read" ? { retries: 2, factor: 2, minTimeout: 200, maxTimeout: 2_000 } : { retries: 0 },
    rejectRateLimitedCalls: purpose === "post",
    ...(metrics || onTokenRefused ? { fetch: countingFetch(metrics, undefined, onTokenRefused) } : {}),
  };
}

export function makeWebClient(
  config: Pick<Config, "chatApiUrl">,
  log: Logger,
  token: string | undefined,
  purpose: "read" | "post",
  metrics?: Metrics,
  onTokenRefused?: TokenRefusedHook,
): WebClient {
  return new WebClient(
    token,
    webClientOptions(config, purpose, slackLogger(log, "slack-web-api"), metrics, onTokenRefused),
  );
}
