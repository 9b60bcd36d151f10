import { eq } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { oauthClients } from "../../db/schema.ts";
import type { Deps } from "../../deps.ts";
import { randomBase62, sha256Hex } from "../../lib/crypto.ts";
import { fetchClientDocument, isMetadataDocumentId } from "./client-document.ts";
import { CLIENT_PREFIX, CLIENT_SECRET_PREFIX, GRANT_TYPES, newClientId } from "./oauth.model.ts";
import { redirectUrisProblem } from "./redirect-uris.ts";

export type ClientRow = typeof oauthClients.$inferSelect;

export const MAX_CLIENT_NAME = 100;
export const UNNAMED_CLIENT = "Unnamed client";
/** A cached Client ID Metadata Document is fetched again after this long. */
export const DOCUMENT_FRESH_MS = 24 * 3600_000;
/** When fetching it again fails, a copy younger than this still serves (the client's site may be down briefly). */
export const DOCUMENT_FALLBACK_MS = 7 * 24 * 3600_000;

/** What registration or a metadata document yields, ready to store. */
export interface ClientMetadata {
  client_name: string;
  redirect_uris: string[];
  client_uri?: string;
  grant_types: string[];
  response_types: string[];
  token_endpoint_auth_method: ClientAuthMethod;
  scope?: string;
}

/**
 * How a client authenticates at the token endpoint. Dynamic registrations may ask for a secret (Claude and others
 * register with client_secret_post); PKCE is required either way. Metadata documents are public clients.
 */
export const CLIENT_AUTH_METHODS = ["none", "client_secret_post", "client_secret_basic"] as const;
export type ClientAuthMethod = (typeof CLIENT_AUTH_METHODS)[number];

export type MetadataCheck =
  | { ok: true; metadata: ClientMetadata }
  | { ok: false; error: "invalid_redirect_uri" | "invalid_client_metadata"; description: string };

const bad = (description: string): MetadataCheck => ({ ok: false, error: "invalid_client_metadata", description });

const isHttpUrl = (raw: string) => {
  try {
    const u = new URL(raw);
    return u.protocol === "https:" || u.protocol === "http:";
  } catch {
    return false;
  }
};

/**
 * RFC 7591 client metadata as this server accepts it: public clients (no secrets) using the authorization code
 * with PKCE. `requireName`: Client ID Metadata Documents must name the client; dynamic ones get a default.
 */
export function checkClientMetadata(
  body: unknown,
  opts: { requireName: boolean; allowSecret?: boolean },
): MetadataCheck {
  if (typeof body !== "object" || body === null || Array.isArray(body))
    return bad("the client metadata must be a JSON object");
  const m = body as Record<string, unknown>;
  const uris = redirectUrisProblem(m.redirect_uris);
  if (uris) return { ok: false, error: "invalid_redirect_uri", description: uris };
  const name = m.client_name;
  if (name === undefined && opts.requireName) return bad("client_name is required");
  if (name !== undefined && (typeof name !== "string" || name.trim() === "" || name.length > MAX_CLIENT_NAME))
    return bad(`client_name must be a string of 1 to ${MAX_CLIENT_NAME} characters`);
  const uri = m.client_uri;
  if (uri !== undefined && (typeof uri !== "string" || uri.length > 2000 || !isHttpUrl(uri)))
    return bad("client_uri must be an http(s) URL");
  const method = m.token_endpoint_auth_method ?? "none";
  const methods: readonly unknown[] = opts.allowSecret ? CLIENT_AUTH_METHODS : ["none"];
  if (!methods.includes(method))
    return bad(
      opts.allowSecret
        ? `token_endpoint_auth_method must be one of ${CLIENT_AUTH_METHODS.join(", ")}`
        : 'token_endpoint_auth_method must be "none": a metadata document describes a public client (PKCE)',
    );
  const grants = m.grant_types ?? ["authorization_code"];
  if (!Array.isArray(grants) || grants.some((g) => !(GRANT_TYPES as readonly unknown[]).includes(g)))
    return bad(`grant_types may hold only ${GRANT_TYPES.join(" and ")}`);
  const responses = m.response_types ?? ["code"];
  if (!Array.isArray(responses) || responses.some((r) => r !== "code"))
    return bad('response_types may hold only "code"');
  if (m.scope !== undefined && (typeof m.scope !== "string" || m.scope.length > 200))
    return bad("scope must be a space-separated string");
  return {
    ok: true,
    metadata: {
      client_name: typeof name === "string" ? name.trim() : UNNAMED_CLIENT,
      redirect_uris: m.redirect_uris as string[],
      ...(typeof uri === "string" ? { client_uri: uri } : {}),
      grant_types: [...new Set(grants as string[])],
      response_types: ["code"],
      token_endpoint_auth_method: method as ClientAuthMethod,
      ...(typeof m.scope === "string" ? { scope: m.scope } : {}),
    },
  };
}

export async function findClient(ex: Executor, clientId: string): Promise<ClientRow | undefined> {
  const [row] = await ex.select().from(oauthClients).where(eq(oauthClients.clientId, clientId)).limit(1);
  return row;
}

/** RFC 7591 registration: a new `mcpc_` client id for the checked metadata. */
export async function registerClient(deps: Pick<Deps, "db" | "clock">, metadata: ClientMetadata) {
  const now = deps.clock.now();
  const clientId = newClientId();
  // A client that asked for a secret gets one, shown once; only its SHA-256 is kept (beside the metadata).
  const secret = metadata.token_endpoint_auth_method === "none" ? undefined : CLIENT_SECRET_PREFIX + randomBase62(43);
  await deps.db.insert(oauthClients).values({
    clientId,
    kind: "dynamic",
    clientName: metadata.client_name,
    redirectUris: metadata.redirect_uris,
    clientUri: metadata.client_uri ?? null,
    metadata: { ...metadata, ...(secret ? { client_secret_sha256: sha256Hex(secret) } : {}) },
    createdAt: now,
  });
  return {
    client_id: clientId,
    client_id_issued_at: Math.floor(now.getTime() / 1000),
    ...(secret ? { client_secret: secret, client_secret_expires_at: 0 } : {}),
    ...metadata,
  };
}

export type ClientLookup = { ok: true; client: ClientRow } | { ok: false; description: string };

/**
 * The client behind a client_id: a registered `mcpc_` one, or one known by its metadata document (fetched, checked
 * and cached; fetched again once a day).
 */
export async function resolveClient(deps: Deps, clientId: string): Promise<ClientLookup> {
  if (clientId.startsWith(CLIENT_PREFIX)) {
    const row = clientId.length <= 64 ? await findClient(deps.db, clientId) : undefined;
    return row?.kind === "dynamic"
      ? { ok: true, client: row }
      : { ok: false, description: "This client is not registered here (unknown client_id)." };
  }
  if (!isMetadataDocumentId(clientId))
    return { ok: false, description: "client_id is neither a registered client nor an https metadata document URL." };
  const now = deps.clock.now();
  const cached = await findClient(deps.db, clientId);
  const age = cached?.fetchedAt ? now.getTime() - cached.fetchedAt.getTime() : Number.POSITIVE_INFINITY;
  if (cached?.kind === "metadata_document" && age < DOCUMENT_FRESH_MS) return { ok: true, client: cached };
  const fetched = await fetchClientDocument(deps, clientId);
  if (!fetched.ok) {
    if (cached?.kind === "metadata_document" && age < DOCUMENT_FALLBACK_MS) return { ok: true, client: cached };
    return { ok: false, description: `The client's metadata document could not be used: ${fetched.error}` };
  }
  const checked = checkClientMetadata(fetched.document, { requireName: true });
  if (!checked.ok)
    return { ok: false, description: `The client's metadata document is not valid: ${checked.description}` };
  if (fetched.document.client_id !== clientId)
    return { ok: false, description: "The client's metadata document names another client_id than its own URL." };
  const m = checked.metadata;
  const values = {
    kind: "metadata_document" as const,
    clientName: m.client_name,
    redirectUris: m.redirect_uris,
    clientUri: m.client_uri ?? null,
    metadata: { ...m },
    fetchedAt: now,
  };
  const [row] = await deps.db
    .insert(oauthClients)
    .values({ clientId, createdAt: now, ...values })
    .onConflictDoUpdate({ target: oauthClients.clientId, set: values })
    .returning();
  return { ok: true, client: row! };
}
