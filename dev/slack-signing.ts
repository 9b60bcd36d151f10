import { createHmac, randomBytes } from "node:crypto";

export const TEST_SIGNING_SECRET = "test-signing-secret-0123456789abcdef";

export interface SignedRequest {
  headers: Record<string, string>;
  payload: string;
}

/** Signs a body the way Slack does: v0 HMAC-SHA256 over `v0:<ts>:<body>`. */
export function sign(
  body: string,
  opts: { nowMs: number; secret?: string; timestamp?: number; contentType?: string; retryNum?: number },
): SignedRequest {
  const ts = opts.timestamp ?? Math.floor(opts.nowMs / 1000);
  const sig = `v0=${createHmac("sha256", opts.secret ?? TEST_SIGNING_SECRET)
    .update(`v0:${ts}:${body}`)
    .digest("hex")}`;
  const headers: Record<string, string> = {
    "content-type": opts.contentType ?? "application/json",
    "x-slack-request-timestamp": String(ts),
    "x-slack-signature": sig,
  };
  if (opts.retryNum !== undefined) {
    headers["x-slack-retry-num"] = String(opts.retryNum);
    headers["x-slack-retry-reason"] = "http_timeout";
  }
  return { headers, payload: body };
}

let seq = 0;
export function eventId(): string {
  seq += 1;
  return `Ev${Date.now().toString(36).toUpperCase()}${seq}${randomBytes(3).toString("hex").toUpperCase()}`;
}

/** An Events API envelope. */
export function eventEnvelope(
  teamId: string,
  event: Record<string, unknown>,
  opts: { eventId?: string; apiAppId?: string } = {},
) {
  return {
    token: "legacy-verification-token",
    team_id: teamId,
    api_app_id: opts.apiAppId ?? "A0UPBEAT",
    type: "event_callback",
    event_id: opts.eventId ?? eventId(),
    event_time: Math.floor(Date.now() / 1000),
    authorizations: [{ team_id: teamId, user_id: "UBOT", is_bot: true, is_enterprise_install: false }],
    event: { event_ts: `${Math.floor(Date.now() / 1000)}.000100`, ...event },
  };
}

/** A slash command's fields: posted form-encoded over HTTP, sent as a JSON payload over Socket Mode. */
export function slashCommandFields(
  teamId: string,
  userId: string,
  text: string,
  command = "/upbeat",
): Record<string, string> {
  return {
    token: "legacy",
    team_id: teamId,
    team_domain: "acme",
    channel_id: "C0GENERAL",
    channel_name: "general",
    user_id: userId,
    user_name: userId.toLowerCase(),
    command,
    text,
    api_app_id: "A0UPBEAT",
    response_url: "http://127.0.0.1:9/commands/response",
    trigger_id: `trig.${randomBytes(4).toString("hex")}`,
  };
}

/** A slash command as Slack posts it: form-encoded fields. */
export function slashCommandForm(teamId: string, userId: string, text: string, command = "/upbeat"): string {
  return new URLSearchParams(slashCommandFields(teamId, userId, text, command)).toString();
}

/** An interactivity payload (block_actions, view_submission …) as Slack posts it: `payload=<json>`. */
export function interactionForm(payload: Record<string, unknown>): string {
  return new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
}
