import type { Deps } from "../../deps.ts";
import { safeEqual, sha256Hex } from "../../lib/crypto.ts";
import { findClient } from "./clients.ts";
import { CLIENT_PREFIX } from "./oauth.model.ts";

export type ClientAuth =
  | { ok: true; clientId: string | undefined }
  | { ok: false; error: "invalid_client" | "invalid_request"; description: string; basic: boolean };

const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);

/** RFC 6749 §2.3.1: Basic credentials are the form-encoded id and secret, joined by the first colon. */
function parseBasic(header: string | undefined): { id: string; secret: string } | undefined | null {
  const m = /^Basic[ \t]+([A-Za-z0-9+/=]+)[ \t]*$/i.exec(header ?? "");
  if (!m) return undefined;
  const decoded = Buffer.from(m[1]!, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) return null;
  try {
    const unform = (s: string) => decodeURIComponent(s.replace(/\+/g, " "));
    return { id: unform(decoded.slice(0, colon)), secret: unform(decoded.slice(colon + 1)) };
  } catch {
    return null;
  }
}

/**
 * Who calls the token or revocation endpoint: the client_id from HTTP Basic or the body, and, for a dynamically
 * registered client that asked for a secret, that secret checked in constant time (only its SHA-256 is stored). A
 * public client's stray secret is ignored; PKCE (or the refresh token) is what binds the request to it.
 */
export async function authenticateClient(
  deps: Pick<Deps, "db">,
  authorization: string | undefined,
  body: Record<string, unknown>,
): Promise<ClientAuth> {
  const basic = parseBasic(authorization);
  if (basic === null)
    return { ok: false, error: "invalid_client", description: "The Basic credentials are malformed", basic: true };
  const bodyId = str(body.client_id);
  if (basic && bodyId !== undefined && bodyId !== basic.id)
    return {
      ok: false,
      error: "invalid_request",
      description: "client_id differs between the Authorization header and the body",
      basic: true,
    };
  const clientId = basic?.id ?? bodyId;
  if (!clientId?.startsWith(CLIENT_PREFIX) || clientId.length > 64) return { ok: true, clientId };
  const client = await findClient(deps.db, clientId);
  const stored = client?.metadata.client_secret_sha256;
  if (typeof stored !== "string") return { ok: true, clientId };
  const secret = basic?.secret ?? str(body.client_secret);
  if (!secret || !safeEqual(sha256Hex(secret), stored))
    return {
      ok: false,
      error: "invalid_client",
      description: "Client authentication failed: this client was registered with a secret",
      basic: basic !== undefined,
    };
  return { ok: true, clientId };
}
