/**
 * Which redirect URIs a client may register, and whether a requested one matches (OAuth 2.1 §2.3.1, RFC 8252).
 * https anywhere; plain http only to the machine itself (native apps listening on a loopback port); custom schemes
 * for native apps (cursor://, vscode://), but never schemes that run or read something in the browser.
 */

export const MAX_REDIRECT_URIS = 10;
const MAX_URI_LENGTH = 2000;
const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);
/**
 * Schemes that run or read something in the browser, or hand the URI to a dangerous operating-system handler
 * (Windows search, Office and settings handlers, Android intents, file shares). Registration is open, so a
 * redirect URI proves nothing about the client: these are never a place to send a person's browser.
 */
const FORBIDDEN_SCHEMES = new Set([
  "javascript:",
  "data:",
  "file:",
  "vbscript:",
  "blob:",
  "about:",
  "filesystem:",
  "search-ms:",
  "intent:",
  "jar:",
  "view-source:",
  "chrome:",
  "chrome-extension:",
  "shell:",
  "smb:",
  "ftp:",
]);
/** Every ms-… scheme (ms-settings:, ms-word:, ms-officecmd:, ms-msdt: …) is a Windows handler. */
const isForbiddenScheme = (protocol: string) => FORBIDDEN_SCHEMES.has(protocol) || protocol.startsWith("ms-");

const isLoopbackHttp = (u: URL) => u.protocol === "http:" && LOOPBACK_HOSTS.has(u.hostname);

/** Why a redirect URI cannot be registered, or undefined when it can. */
export function redirectUriProblem(raw: unknown): string | undefined {
  if (typeof raw !== "string" || raw === "") return "each redirect URI must be a non-empty string";
  if (raw.length > MAX_URI_LENGTH) return `redirect URIs must be at most ${MAX_URI_LENGTH} characters`;
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return `${raw} is not an absolute URI`;
  }
  if (u.hash || raw.includes("#")) return `${raw} must not contain a #fragment`;
  if (isForbiddenScheme(u.protocol)) return `${u.protocol} redirect URIs are not allowed`;
  if (u.protocol === "http:" && !isLoopbackHttp(u))
    return `${raw} must use https (plain http only for localhost, 127.0.0.1 or [::1])`;
  if ((u.protocol === "http:" || u.protocol === "https:") && (u.username || u.password))
    return `${raw} must not contain a user name or password`;
  return undefined;
}

/** Why a list of redirect URIs cannot be registered, or undefined. */
export function redirectUrisProblem(raw: unknown): string | undefined {
  if (!Array.isArray(raw) || raw.length === 0) return "redirect_uris must be a non-empty array of URIs";
  if (raw.length > MAX_REDIRECT_URIS) return `redirect_uris holds at most ${MAX_REDIRECT_URIS} URIs`;
  for (const uri of raw) {
    const problem = redirectUriProblem(uri);
    if (problem) return problem;
  }
  return undefined;
}

/**
 * The redirect URI to use: the requested one when it equals a registered one, or, for a loopback http one,
 * differs only in port (RFC 8252 §7.3: native apps pick a free port when they start). Without a request, the only
 * registered one. Undefined when nothing matches.
 */
export function matchRedirectUri(registered: readonly string[], requested: string | undefined): string | undefined {
  if (requested === undefined) return registered.length === 1 ? registered[0] : undefined;
  if (registered.includes(requested)) return requested;
  let asked: URL;
  try {
    asked = new URL(requested);
  } catch {
    return undefined;
  }
  if (!isLoopbackHttp(asked) || asked.hash) return undefined;
  const withoutPort = (u: URL) => `${u.protocol}//${u.hostname}${u.pathname}${u.search}`;
  for (const r of registered) {
    try {
      const u = new URL(r);
      if (isLoopbackHttp(u) && withoutPort(u) === withoutPort(asked)) return requested;
    } catch {
      // A stored URI always parses; nothing to match otherwise.
    }
  }
  return undefined;
}

/** The host the consent page names (what the code is sent to); a custom scheme is named by its scheme. */
export function redirectHost(uri: string): string {
  try {
    const u = new URL(uri);
    return u.host || u.protocol.replace(/:$/, "");
  } catch {
    return uri;
  }
}
