import type { Deps } from "../deps.ts";
import { calendarZone } from "../features/calendar/index.ts";
import { authenticateKey, recordKeyUse } from "../features/mcp-keys/index.ts";
import { authenticateAccessToken } from "../features/oauth/index.ts";
import type { McpPrincipal } from "./tool-kit.ts";

/** A principal and how to record that it was used (at most once a minute per credential). */
export interface Authenticated {
  principal: McpPrincipal;
  recordUse(): Promise<void>;
}

/** API keys begin with this; anything else presented at /mcp is taken for an OAuth access token. */
const KEY_START = "svc_";

/**
 * Who a presented Bearer credential is: an API key (`svc_…`) on both paths; on `/mcp` also an OAuth access token
 * (issued for this server's `/mcp` resource). Undefined for anything unknown, revoked, expired or of an uninstalled
 * workspace. Read on every request, never cached: a revocation takes effect at once on every instance.
 */
export async function authenticateMcp(
  deps: Deps,
  presented: string,
  opts: { oauth: boolean },
): Promise<Authenticated | undefined> {
  if (presented.startsWith(KEY_START)) {
    const owner = await authenticateKey(deps, presented);
    if (!owner) return undefined;
    return {
      principal: {
        teamId: owner.teamId,
        teamName: owner.teamName,
        userId: owner.createdBy || null,
        scopes: owner.scopes,
        isAdmin: true,
        timezone: calendarZone(owner.timezone),
        credential: { kind: "key", keyId: owner.keyId },
      },
      recordUse: () => recordKeyUse(deps, owner),
    };
  }
  if (!opts.oauth) return undefined;
  return authenticateAccessToken(deps, presented);
}

/** The rate-limit bucket of a credential: a key's, or a grant's. */
export function credentialBucket(p: McpPrincipal): string {
  return p.credential.kind === "key" ? `mcp:${p.credential.keyId}` : `mcp:grant:${p.credential.grantId}`;
}
