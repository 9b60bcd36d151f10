import { sql } from "drizzle-orm";
import { daysAgo, type PruneStep } from "../../lib/retention.ts";

/** A registered client never authorised by anyone goes after this long (registration is open to anyone). */
export const UNUSED_CLIENT_DAYS = 7;
/** A revoked grant stays listed for the audit of who had access, then goes. */
export const REVOKED_GRANT_DAYS = 90;

/**
 * OAuth rows: codes and access tokens once expired, refresh tokens a day after their use (kept that long so a
 * replay is still recognised and revokes the grant) or once expired, every token of a revoked grant (or of one deleted with a member's data), consent
 * requests after a day, revoked grants after 90 days, clients nobody authorised after 7 days.
 */
export const oauthPruneSteps: readonly PruneStep[] = [
  {
    name: "oauth_tokens",
    table: "oauth_tokens",
    where: (now) => sql`(kind in ('code', 'access') and expires_at < ${now.toISOString()})
      or (kind = 'refresh' and (used_at < ${daysAgo(now, 1)} or expires_at < ${now.toISOString()}))
      or not exists (select 1 from oauth_grants g where g.id = oauth_tokens.grant_id and g.revoked_at is null)`,
  },
  { name: "oauth_requests", table: "oauth_requests", where: (now) => sql`created_at < ${daysAgo(now, 1)}` },
  {
    name: "oauth_grants",
    table: "oauth_grants",
    where: (now) => sql`revoked_at < ${daysAgo(now, REVOKED_GRANT_DAYS)}`,
  },
  {
    name: "oauth_clients",
    table: "oauth_clients",
    where: (now) => sql`last_used_at is null and created_at < ${daysAgo(now, UNUSED_CLIENT_DAYS)}
      and not exists (select 1 from oauth_grants g where g.client_id = oauth_clients.client_id)`,
  },
];
