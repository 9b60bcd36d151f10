import type { Deps } from "../../deps.ts";
import { safeEqual, sha256Hex } from "../../lib/crypto.ts";
import {
  ACCESS_PREFIX,
  ACCESS_TTL_SECONDS,
  CODE_PREFIX,
  isOurResource,
  parseScopes,
  REFRESH_PREFIX,
  s256,
  tokenShape,
  VERIFIER_SHAPE,
} from "./oauth.model.ts";
import {
  claimToken,
  findRefreshWithGrant,
  findTokenWithGrant,
  type GrantRow,
  issuePair,
  narrowGrant,
  revokeGrant,
} from "./oauth.repo.ts";

/** RFC 6749 §5.2 error codes (and RFC 8707's invalid_target). */
export type TokenErrorCode =
  | "invalid_request"
  | "invalid_grant"
  | "invalid_client"
  | "unsupported_grant_type"
  | "invalid_scope"
  | "invalid_target";

export type TokenOutcome =
  | {
      ok: true;
      body: { access_token: string; token_type: "Bearer"; expires_in: number; refresh_token: string; scope: string };
    }
  | { ok: false; error: TokenErrorCode; description: string };

const fail = (error: TokenErrorCode, description: string): TokenOutcome => ({ ok: false, error, description });
const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);

const CODE_SHAPE = tokenShape(CODE_PREFIX);
const REFRESH_SHAPE = tokenShape(REFRESH_PREFIX);
const ACCESS_SHAPE = tokenShape(ACCESS_PREFIX);

function tokenBody(pair: { access_token: string; refresh_token: string }, grant: Pick<GrantRow, "scopes">) {
  return {
    ok: true as const,
    body: {
      access_token: pair.access_token,
      token_type: "Bearer" as const,
      expires_in: ACCESS_TTL_SECONDS,
      refresh_token: pair.refresh_token,
      scope: grant.scopes.join(" "),
    },
  };
}

/** The token endpoint: the grant type decides; everything else is checked by the grant's own rules. */
export async function exchangeToken(deps: Deps, params: Record<string, unknown>): Promise<TokenOutcome> {
  const grantType = str(params.grant_type);
  if (!grantType) return fail("invalid_request", "grant_type is required");
  if (grantType === "authorization_code") return exchangeCode(deps, params);
  if (grantType === "refresh_token") return refresh(deps, params);
  return fail("unsupported_grant_type", "grant_type must be authorization_code or refresh_token");
}

/**
 * authorization_code with PKCE: the code is claimed for its one use before anything else is judged, so two
 * exchanges never both succeed. A code presented again (or one that fails its checks after the claim) revokes
 * the grant: whoever holds it now may not be the client it was issued to.
 */
async function exchangeCode(deps: Deps, params: Record<string, unknown>): Promise<TokenOutcome> {
  const code = str(params.code);
  const clientId = str(params.client_id);
  const verifier = str(params.code_verifier);
  const redirectUri = str(params.redirect_uri);
  const resource = str(params.resource);
  if (!code || !clientId || !verifier || !redirectUri)
    return fail("invalid_request", "code, client_id, code_verifier and redirect_uri are required");
  if (!CODE_SHAPE.test(code)) return fail("invalid_grant", "The authorization code is not valid");
  const now = deps.clock.now();
  const hash = sha256Hex(code);
  return deps.db.transaction(async (tx) => {
    const found = await findTokenWithGrant(tx, hash, "code");
    if (!found) return fail("invalid_grant", "The authorization code is not valid");
    const { token, grant } = found;
    if (!(await claimToken(tx, hash, now))) {
      await revokeGrant(tx, grant.id, now);
      return fail("invalid_grant", "The authorization code was already used; the grant is revoked");
    }
    const refuse = async (error: TokenErrorCode, description: string) => {
      await revokeGrant(tx, grant.id, now);
      return fail(error, description);
    };
    if (grant.revokedAt) return fail("invalid_grant", "The authorization was revoked");
    if (token.expiresAt <= now) return refuse("invalid_grant", "The authorization code has expired");
    if (grant.clientId !== clientId)
      return refuse("invalid_grant", "The authorization code was issued to another client");
    if (token.redirectUri !== redirectUri)
      return refuse("invalid_grant", "redirect_uri differs from the one of the authorization request");
    if (resource && !isOurResource(resource, deps.config.appUrl))
      return refuse("invalid_target", "resource must be this server's MCP endpoint");
    if (!VERIFIER_SHAPE.test(verifier) || !safeEqual(s256(verifier), token.codeChallenge ?? ""))
      return refuse("invalid_grant", "code_verifier does not match the code_challenge (PKCE)");
    return tokenBody(await issuePair(tx, grant, now), grant);
  });
}

/**
 * refresh_token with rotation: the presented token is used up and a new pair issued, in one transaction. Every
 * check (client, member, expiry, resource, scope) comes before the claim, so a request that fails them leaves the
 * token usable for a corrected retry; the claim only tells a first use from a replay. A used refresh token presented
 * again means it leaked (or the client lost the newer one): the whole grant is revoked. `scope` may narrow the
 * grant, never widen it.
 */
async function refresh(deps: Deps, params: Record<string, unknown>): Promise<TokenOutcome> {
  const presented = str(params.refresh_token);
  const clientId = str(params.client_id);
  const resource = str(params.resource);
  if (!presented || !clientId) return fail("invalid_request", "refresh_token and client_id are required");
  if (!REFRESH_SHAPE.test(presented)) return fail("invalid_grant", "The refresh token is not valid");
  let scopes: ReturnType<typeof parseScopes>;
  const scope = str(params.scope);
  if (scope !== undefined) {
    scopes = parseScopes(scope);
    if (!scopes) return fail("invalid_scope", "scope may hold only standups:read and standups:write");
  }
  if (resource && !isOurResource(resource, deps.config.appUrl))
    return fail("invalid_target", "resource must be this server's MCP endpoint");
  const now = deps.clock.now();
  const hash = sha256Hex(presented);
  return deps.db.transaction(async (tx) => {
    const found = await findRefreshWithGrant(tx, hash);
    if (!found) return fail("invalid_grant", "The refresh token is not valid");
    const { token, grant } = found;
    if (grant.revokedAt) return fail("invalid_grant", "The authorization was revoked");
    if (grant.clientId !== clientId) return fail("invalid_grant", "The refresh token was issued to another client");
    if (!found.memberActive)
      return fail("invalid_grant", "The member who authorised this client is no longer active in the workspace");
    // A used token is judged a replay whatever else the request says: it is evidence of a leak.
    if (!token.usedAt) {
      if (token.expiresAt <= now) return fail("invalid_grant", "The refresh token has expired");
      if (scopes?.some((s) => !grant.scopes.includes(s)))
        return fail("invalid_scope", "scope may only narrow what was granted");
    }
    if (token.usedAt || !(await claimToken(tx, hash, now))) {
      await revokeGrant(tx, grant.id, now);
      return fail("invalid_grant", "The refresh token was already used; the grant is revoked");
    }
    let granted = grant;
    if (scopes) {
      await narrowGrant(tx, grant.id, scopes);
      granted = { ...grant, scopes };
    }
    return tokenBody(await issuePair(tx, grant, now), granted);
  });
}

/**
 * RFC 7009: the grant of a presented access or refresh token is revoked with all its tokens. Unknown tokens, and
 * tokens of another client, change nothing; the answer is the same either way.
 */
export async function revokeByToken(deps: Deps, params: Record<string, unknown>): Promise<void> {
  const presented = str(params.token);
  if (!presented || !(ACCESS_SHAPE.test(presented) || REFRESH_SHAPE.test(presented))) return;
  const clientId = str(params.client_id);
  const found = await findTokenWithGrant(deps.db, sha256Hex(presented));
  if (!found || found.token.kind === "code") return;
  if (clientId && clientId !== found.grant.clientId) return;
  await deps.db.transaction((tx) => revokeGrant(tx, found.grant.id, deps.clock.now()));
}
