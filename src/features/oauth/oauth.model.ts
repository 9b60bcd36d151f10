import { createHash } from "node:crypto";
import type { McpScope } from "../../db/schema.ts";
import { randomBase62, randomToken } from "../../lib/crypto.ts";

/**
 * The authorization server's constants and small rules, shared by its routes (issue 26). The issuer is a path
 * (`${APP_URL}/oauth`) on purpose: nothing is served at the root well-knowns, so `/mcp/key` has nothing to discover.
 */

export const issuerOf = (appUrl: string) => `${appUrl}/oauth`;
/** The MCP endpoint's canonical URI: the RFC 8707 resource and every token's audience. */
export const resourceOf = (appUrl: string) => `${appUrl}/mcp`;
export const resourceMetadataUrlOf = (appUrl: string) => `${appUrl}/.well-known/oauth-protected-resource/mcp`;

export const ACCESS_PREFIX = "upa_";
export const REFRESH_PREFIX = "upr_";
export const CODE_PREFIX = "upc_";
export const CLIENT_PREFIX = "mcpc_";
/** Secrets of dynamically registered clients that asked for one (client_secret_post or _basic). */
export const CLIENT_SECRET_PREFIX = "upcs_";
/** 43 base62 characters: about 256 bits. */
const SECRET_LENGTH = 43;

export const ACCESS_TTL_SECONDS = 3600;
export const REFRESH_TTL_MS = 30 * 86_400_000;
export const CODE_TTL_MS = 60_000;
export const REQUEST_TTL_MS = 10 * 60_000;
/** Registration and authorization requests per client address and minute (as install and sign-in). */
export const OAUTH_PER_MINUTE = 30;

export const SCOPES = ["standups:read", "standups:write"] as const satisfies readonly McpScope[];
export const DEFAULT_SCOPE: McpScope = "standups:read";
export const GRANT_TYPES = ["authorization_code", "refresh_token"] as const;

export const SCOPE_DESCRIPTIONS: Record<McpScope, string> = {
  "standups:read": "Read standups, answers, blockers, kudos, participation and members of the workspace",
  "standups:write": "Post and edit your standup answers, skip a day, set your time off, give kudos, resolve blockers",
};

export const newSecret = (prefix: string) => prefix + randomBase62(SECRET_LENGTH);
export const newClientId = () => CLIENT_PREFIX + randomBase62(22);
/** The consent request's id: random, only its SHA-256 is stored. */
export const newRequestId = () => randomToken(32);

/** What a presented token must look like before it is worth a database lookup. */
export const tokenShape = (prefix: string) => new RegExp(`^${prefix}[0-9A-Za-z]{${SECRET_LENGTH}}$`);

/**
 * A space-separated scope list as granted: unknown scopes make it undefined (invalid_scope); none given is
 * standups:read; write implies read. Always in the order of SCOPES.
 */
export function parseScopes(raw: string | undefined): McpScope[] | undefined {
  const asked = (raw ?? "").split(" ").filter(Boolean);
  if (asked.some((s) => !(SCOPES as readonly string[]).includes(s))) return undefined;
  const set = new Set<string>(asked.length ? asked : [DEFAULT_SCOPE]);
  if (set.has("standups:write")) set.add("standups:read");
  return SCOPES.filter((s) => set.has(s));
}

/**
 * Whether a `resource` names this MCP server: scheme and host are compared case-insensitively and a trailing
 * slash is ignored (the specification asks servers to accept both), the rest exactly.
 */
export function isOurResource(given: string, appUrl: string): boolean {
  const canon = (raw: string) => {
    const u = new URL(raw);
    return `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, "")}${u.search}`;
  };
  try {
    const u = new URL(given);
    if (u.hash) return false;
    return canon(given) === canon(resourceOf(appUrl));
  } catch {
    return false;
  }
}

/** RFC 7636: BASE64URL(SHA256(verifier)). */
export const s256 = (verifier: string) => createHash("sha256").update(verifier).digest("base64url");
/** RFC 7636 §4.1: 43 to 128 unreserved characters (the challenge of S256 is always 43). */
export const VERIFIER_SHAPE = /^[A-Za-z0-9._~-]{43,128}$/;
export const CHALLENGE_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** The client's redirect URI with the authorization response's parameters added (its own query kept). */
export function redirectWith(redirectUri: string, params: Record<string, string | null | undefined>): string {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null) url.searchParams.set(k, v);
  return url.toString();
}
