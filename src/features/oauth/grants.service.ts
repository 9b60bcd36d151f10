import type { Deps } from "../../deps.ts";
import type { SessionUser } from "../../http/auth.ts";
import { notFound } from "../../http/errors.ts";
import { type GrantRow, revokeGrantRow, selectLiveGrants } from "./grants.repo.ts";

export interface GrantView {
  id: number;
  client_id: string;
  client_name: string;
  client_uri: string | null;
  redirect_host: string;
  kind: "dynamic" | "metadata_document";
  scopes: GrantRow["scopes"];
  user_id: string;
  user_name: string;
  mine: boolean;
  created_at: string;
  last_used_at: string | null;
}

/** bigserial ids fit a JavaScript number up to 2^53; anything longer is no grant of ours. */
const GRANT_ID = /^[1-9]\d{0,14}$/;

/** The host codes go to, which is what tells a person where their access ends up. */
function hostOf(uri: string | undefined): string {
  if (!uri) return "";
  try {
    return new URL(uri).host;
  } catch {
    return "";
  }
}

function present(row: GrantRow, viewer: string): GrantView {
  return {
    id: row.id,
    client_id: row.clientId,
    client_name: row.clientName ?? "Unknown client",
    client_uri: row.clientUri,
    redirect_host: hostOf(row.redirectUris?.[0]),
    // A metadata-document client's id is its https URL; everything else registered itself.
    kind: row.kind ?? (row.clientId.startsWith("https://") ? "metadata_document" : "dynamic"),
    scopes: row.scopes,
    user_id: row.userId,
    user_name: row.userName,
    mine: row.userId === viewer,
    created_at: row.createdAt.toISOString(),
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
  };
}

/** Members see the clients they connected; admins see every one of the workspace, to revoke what they must. */
export async function listGrants(deps: Pick<Deps, "db">, session: SessionUser): Promise<GrantView[]> {
  const own = session.role === "admin" ? undefined : session.userId;
  return (await selectLiveGrants(deps.db, session.teamId, own)).map((row) => present(row, session.userId));
}

/**
 * Revoking sets `revoked_at`; the token checks read the grant on every request, so its tokens stop at once.
 * Unknown, malformed, already revoked, other workspaces' and (for members) other people's grants are all 404.
 */
export async function revokeGrant(
  deps: Pick<Deps, "db" | "clock">,
  session: SessionUser,
  rawId: string,
): Promise<{ ok: true }> {
  const id = GRANT_ID.test(rawId) ? Number(rawId) : 0;
  const own = session.role === "admin" ? undefined : session.userId;
  if (id < 1 || !(await revokeGrantRow(deps.db, session.teamId, id, deps.clock.now(), own))) {
    throw notFound("Connected client not found");
  }
  return { ok: true };
}
