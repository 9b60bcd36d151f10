import type { SlackCallOutcome } from "../lib/metrics.ts";

/** Slack's error code from a Web API platform error (`ok: false`), or undefined for anything else. */
export function slackErrorCode(err: unknown): string | undefined {
  const e = err as { code?: string; data?: { error?: unknown } };
  return e?.code === "slack_webapi_platform_error" && typeof e.data?.error === "string" ? e.data.error : undefined;
}

/**
 * Errors with which Slack refuses the payload itself: the same message or view is refused however often it is
 * sent, so a job that gets one gives up instead of retrying.
 */
const PAYLOAD_REFUSED = new Set([
  "invalid_blocks",
  "invalid_blocks_format",
  "msg_too_long",
  "msg_blocks_too_long",
  "no_text",
  "invalid_attachments",
  "too_many_attachments",
  "invalid_metadata_format",
  "invalid_metadata_schema",
  "metadata_too_large",
  "invalid_arguments",
]);

/** The Slack error code when Slack refused the payload itself (see PAYLOAD_REFUSED), else undefined. */
export function payloadRefused(err: unknown): string | undefined {
  const code = slackErrorCode(err);
  return code !== undefined && PAYLOAD_REFUSED.has(code) ? code : undefined;
}

/**
 * Errors with which Slack refuses the destination of a message: the channel is gone, archived or closed to the
 * bot (a private channel it was removed from), or the person cannot be messaged. Nothing changes on a retry
 * until someone acts, so a job that gets one gives up with a warning instead of retrying for a day.
 */
const DESTINATION_GONE = new Set([
  "channel_not_found",
  "not_in_channel",
  "is_archived",
  "user_not_found",
  "user_disabled",
  "cannot_dm_bot",
]);

/** The Slack error code when Slack refused the destination itself (see DESTINATION_GONE), else undefined. */
export function destinationGone(err: unknown): string | undefined {
  const code = slackErrorCode(err);
  return code !== undefined && DESTINATION_GONE.has(code) ? code : undefined;
}

/** Errors that say the token or its scopes do not allow the call: the workspace must reinstall or re-authorise. */
const AUTH_REFUSED = new Set([
  "not_authed",
  "invalid_auth",
  "account_inactive",
  "token_revoked",
  "token_expired",
  "no_permission",
  "missing_scope",
  "not_allowed_token_type",
  "team_access_not_granted",
]);

/**
 * Errors that say Slack no longer accepts the token at all (revoked, expired, the workspace or bot deactivated): the
 * installation is marked as needing reinstall the first time one is seen (ChatClients), and nothing is retried.
 * Scope errors (missing_scope, no_permission) are not among them: the token works for other calls.
 */
export const TOKEN_REFUSED = new Set(["invalid_auth", "account_inactive", "token_revoked", "token_expired"]);

/** The Slack error code when Slack no longer accepts the token (see TOKEN_REFUSED), else undefined. */
export function tokenRefused(err: unknown): string | undefined {
  const code = slackErrorCode(err);
  return code !== undefined && TOKEN_REFUSED.has(code) ? code : undefined;
}

/** The metrics outcome of a Slack error code (`ok: false`): a few classes, whatever codes Slack adds. */
export function slackErrorClass(code: string): SlackCallOutcome {
  if (code === "ratelimited" || code === "rate_limited") return "rate_limited";
  if (PAYLOAD_REFUSED.has(code)) return "payload_refused";
  if (DESTINATION_GONE.has(code)) return "destination_gone";
  if (AUTH_REFUSED.has(code)) return "auth_error";
  return "slack_error";
}
