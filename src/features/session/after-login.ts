/**
 * Where a sign-in from Slack lands when the person was on their way somewhere: an MCP client's authorization
 * request sends a signed-out browser to the consent page, which first needs a session. Only the person's click on
 * that page sets this cookie (POST /dashboard/api/oauth/requests/<id>/resume), never a mere visit any site could
 * cause; the sign-in exchange goes there instead of /dashboard (and clears it).
 */
export const AFTER_LOGIN_COOKIE = "upbeat_after_login";
export const AFTER_LOGIN_TTL_SECONDS = 15 * 60;
/** Only the consent page: the cookie can never send a sign-in anywhere else (no open redirect). */
const CONSENT_PATH = /^\/dashboard\/connect\?request=[A-Za-z0-9_-]{1,100}$/;

export const afterLoginCookieOptions = {
  httpOnly: true,
  sameSite: "lax" as const,
  secure: true,
  path: "/",
};

/** The path to land on after signing in, when the cookie holds an acceptable one. */
export function afterLoginTarget(value: string | undefined): string | undefined {
  return value && CONSENT_PATH.test(value) ? value : undefined;
}
