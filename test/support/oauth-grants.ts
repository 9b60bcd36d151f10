import type { Executor } from "../../src/db/client.ts";
import { type McpScope, type OAuthClientKind, oauthClients, oauthGrants, oauthRequests } from "../../src/db/schema.ts";
import { sha256Hex } from "../../src/lib/crypto.ts";

/** An OAuth client row as registration would leave it (tests seed it directly; part A registers them for real). */
export async function seedOAuthClient(
  db: Executor,
  o: { clientId: string; name: string; redirectUris: string[]; kind?: OAuthClientKind; clientUri?: string | null },
  at: Date,
): Promise<void> {
  await db.insert(oauthClients).values({
    clientId: o.clientId,
    kind: o.kind ?? (o.clientId.startsWith("https://") ? "metadata_document" : "dynamic"),
    clientName: o.name,
    redirectUris: o.redirectUris,
    clientUri: o.clientUri ?? null,
    metadata: { client_name: o.name, redirect_uris: o.redirectUris },
    createdAt: at,
  });
}

/** A person's consent to a client, as approving on the consent page leaves it; returns the grant id. */
export async function seedGrant(
  db: Executor,
  o: {
    teamId: string;
    userId: string;
    clientId: string;
    scopes?: McpScope[];
    createdAt: Date;
    lastUsedAt?: Date | null;
    revokedAt?: Date | null;
    resource?: string;
  },
): Promise<number> {
  const [row] = await db
    .insert(oauthGrants)
    .values({
      teamId: o.teamId,
      userId: o.userId,
      clientId: o.clientId,
      scopes: o.scopes ?? ["standups:read"],
      resource: o.resource ?? "http://localhost:3000/mcp",
      createdAt: o.createdAt,
      lastUsedAt: o.lastUsedAt ?? null,
      revokedAt: o.revokedAt ?? null,
    })
    .returning({ id: oauthGrants.id });
  return row!.id;
}

/** An authorization request waiting for consent (as `GET /oauth/authorize` leaves it); the page carries `id`. */
export async function seedOAuthRequest(
  db: Executor,
  o: { id: string; clientId: string; redirectUri: string; scopes: McpScope[]; state?: string; resource: string },
  at: Date,
  ttlMs = 10 * 60_000,
): Promise<void> {
  await db.insert(oauthRequests).values({
    idHash: sha256Hex(o.id),
    clientId: o.clientId,
    redirectUri: o.redirectUri,
    state: o.state ?? null,
    // Any S256 challenge: the page never sees it; the token exchange (part A) checks it.
    codeChallenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
    scopes: o.scopes,
    resource: o.resource,
    createdAt: at,
    expiresAt: new Date(at.getTime() + ttlMs),
  });
}
