import type { Deps } from "../../deps.ts";
import { sha256Hex } from "../../lib/crypto.ts";
import type { McpPrincipal } from "../../mcp/tool-kit.ts";
import { calendarZone } from "../calendar/index.ts";
import { ACCESS_PREFIX, resourceOf, tokenShape } from "./oauth.model.ts";
import { findLiveAccess, touchGrant } from "./oauth.repo.ts";

const ACCESS_SHAPE = tokenShape(ACCESS_PREFIX);
/** `last_used_at` of a grant is written at most this often. */
export const GRANT_TOUCH_MS = 60_000;

export interface AccessOwner {
  principal: McpPrincipal;
  recordUse(): Promise<void>;
}

/**
 * The principal behind an OAuth access token: live (not expired), of a grant that is not revoked, of a member who is
 * still active (their current role decides what reads reach), of an installed workspace, and issued for this MCP server (RFC 8707 audience). Undefined otherwise. One query, never cached: a
 * revocation takes effect at once.
 */
export async function authenticateAccessToken(
  deps: Pick<Deps, "db" | "clock" | "config">,
  presented: string,
): Promise<AccessOwner | undefined> {
  if (!ACCESS_SHAPE.test(presented)) return undefined;
  const now = deps.clock.now();
  const row = await findLiveAccess(deps.db, sha256Hex(presented), now);
  if (!row || row.resource !== resourceOf(deps.config.appUrl)) return undefined;
  return {
    principal: {
      teamId: row.teamId,
      teamName: row.teamName,
      userId: row.userId,
      scopes: row.scopes,
      isAdmin: row.role === "admin",
      timezone: calendarZone(row.timezone),
      credential: {
        kind: "oauth",
        grantId: row.grantId,
        clientId: row.clientId,
        clientName: row.clientName ?? row.clientId,
      },
    },
    async recordUse() {
      const staleBefore = new Date(now.getTime() - GRANT_TOUCH_MS);
      if (row.lastUsedAt && row.lastUsedAt >= staleBefore) return;
      await touchGrant(deps.db, row.grantId, now, staleBefore);
    },
  };
}
