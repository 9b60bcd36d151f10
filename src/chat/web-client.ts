import { WebClient, type WebClientOptions } from "@slack/web-api";
import type { Logger } from "pino";
import type { Config } from "../config.ts";
import { slackLogger } from "./slack-logger.ts";

/**
 * Slack's client retries for about 30 minutes by default. Reads get a short bounded retry;
 * posting calls get none, because the job that posts retries instead and claims make that safe.
 * Its logging goes through our logger (never the library's console logger), reduced by slackLogger.
 */
export function webClientOptions(
  config: Pick<Config, "chatApiUrl">,
  purpose: "read" | "post",
  logger: WebClientOptions["logger"],
): WebClientOptions {
  return {
    slackApiUrl: config.chatApiUrl,
    timeout: 10_000,
    logger,
    retryConfig: purpose === "read" ? { retries: 2, factor: 2, minTimeout: 200, maxTimeout: 2_000 } : { retries: 0 },
    rejectRateLimitedCalls: purpose === "post",
  };
}

export function makeWebClient(
  config: Pick<Config, "chatApiUrl">,
  log: Logger,
  token: string | undefined,
  purpose: "read" | "post",
): WebClient {
  return new WebClient(token, webClientOptions(config, purpose, slackLogger(log, "slack-web-api")));
}
