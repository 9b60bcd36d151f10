import { randomBytes } from "node:crypto";
import { sign } from "../../dev/slack-signing.ts";

/** Fixed, bench-only secrets: the app server is started with them and the load generator signs with them. */
export const BENCH_SIGNING_SECRET = "bench-signing-secret-0123456789abcdef";
export const BENCH_SESSION_SECRET_KEY = "bench-session-secret-key-0123456789abcdefghijklmnop";
export const BENCH_TEAM_ID = "T0BENCH";
/** Nothing listens on port 9: the event the bench sends makes no Web API call. */
export const BENCH_CHAT_API_URL = "http://127.0.0.1:9/api/";

/** The app server's environment for the bench: in-memory PGlite, warnings-only logging, the bench secrets. */
export const BENCH_APP_ENV: Readonly<Record<string, string>> = {
  NODE_ENV: "production",
  APP_URL: "https://upbeat.example.test",
  HOST: "127.0.0.1",
  DATABASE_URL: "pglite://memory",
  LOG_LEVEL: "WARNING",
  CHAT_CLIENT_ID: "bench-client-id",
  CHAT_CLIENT_SECRET: "bench-client-secret",
  CHAT_SIGNING_SECRET: BENCH_SIGNING_SECRET,
  SESSION_SECRET_KEY: BENCH_SESSION_SECRET_KEY,
  CHAT_API_URL: BENCH_CHAT_API_URL,
  CHAT_OAUTH_URL: "http://127.0.0.1:9/oauth/v2/authorize",
};

/** Slack's v0 signature headers for a JSON body (HMAC-SHA256 of `v0:<ts>:<body>`), signed now. */
export function signedHeaders(body: string, opts: { retryNum?: number; secret?: string } = {}): Record<string, string> {
  return sign(body, {
    nowMs: Date.now(),
    secret: opts.secret ?? BENCH_SIGNING_SECRET,
    ...(opts.retryNum !== undefined ? { retryNum: opts.retryNum } : {}),
  }).headers;
}

/** Unique event ids for this process: a random prefix (so reruns never collide) and a counter. */
export function eventIdSource(): () => string {
  const prefix = randomBytes(4).toString("hex").toUpperCase();
  let seq = 0;
  return () => {
    seq += 1;
    return `Ev${prefix}${seq.toString(36).toUpperCase()}`;
  };
}

/** An Events API `event_callback` envelope carrying a `reaction_added` event (no Upbeat listener). */
export function reactionEventBody(eventId: string, teamId = BENCH_TEAM_ID): string {
  const now = Date.now();
  const seconds = Math.floor(now / 1000);
  return JSON.stringify({
    token: "bench-verification-token",
    team_id: teamId,
    api_app_id: "A0UPBEAT",
    type: "event_callback",
    event_id: eventId,
    event_time: seconds,
    authorizations: [{ team_id: teamId, user_id: "U0BENCHBOT", is_bot: true, is_enterprise_install: false }],
    event: {
      type: "reaction_added",
      user: "U0BENCHUSER",
      reaction: "thumbsup",
      item_user: "U0BENCHOTHER",
      item: { type: "message", channel: "C0BENCH", ts: `${seconds}.000100` },
      event_ts: `${seconds}.${String(now % 1000).padStart(3, "0")}100`,
    },
  });
}

/** The line a bench server prints on stdout once it accepts connections. */
export const READY = /^ready (\d+)$/;
