import { LogLevel, WebClient, type WebClientOptions } from "@slack/web-api";
import type { Config } from "../config.ts";

/**
 * Slack's client retries for about 30 minutes by default. Reads get a short bounded retry;
 * posting calls get none, because the job that posts retries instead and claims make that safe.
 */
export function webClientOptions(config: Pick<Config, "chatApiUrl">, purpose: "read" | "post"): WebClientOptions {
  return {
    slackApiUrl: config.chatApiUrl,
    timeout: 10_000,
    logLevel: LogLevel.ERROR,
    retryConfig: purpose === "read" ? { retries: 2, factor: 2, minTimeout: 200, maxTimeout: 2_000 } : { retries: 0 },
    rejectRateLimitedCalls: purpose === "post",
  };
}

export function makeWebClient(
  config: Pick<Config, "chatApiUrl">,
  token: string | undefined,
  purpose: "read" | "post",
): WebClient {
  return new WebClient(token, webClientOptions(config, purpose));
}
