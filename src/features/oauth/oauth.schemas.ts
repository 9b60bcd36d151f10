import { z } from "zod";
import { isoTimestamp } from "../../contract/index.ts";

/** Shapes of the authorization server's answers, for serialisation and /openapi.json. */

export const oauthError = z
  .object({
    error: z.string().describe("RFC 6749 / RFC 7591 error code"),
    error_description: z.string().optional().describe("What went wrong, in plain words"),
  })
  .meta({ id: "OAuthError" });

const scopeList = z.array(z.enum(["standups:read", "standups:write"]));

export const protectedResourceMetadata = z
  .object({
    resource: z.string(),
    authorization_servers: z.array(z.string()),
    scopes_supported: scopeList,
    bearer_methods_supported: z.array(z.literal("header")),
    resource_name: z.string(),
    resource_documentation: z.string(),
  })
  .meta({ id: "ProtectedResourceMetadata", description: "RFC 9728 metadata of the MCP endpoint" });

export const authorizationServerMetadata = z
  .object({
    issuer: z.string(),
    authorization_endpoint: z.string(),
    token_endpoint: z.string(),
    registration_endpoint: z.string(),
    revocation_endpoint: z.string(),
    response_types_supported: z.array(z.literal("code")),
    response_modes_supported: z.array(z.literal("query")),
    grant_types_supported: z.array(z.string()),
    code_challenge_methods_supported: z.array(z.literal("S256")),
    token_endpoint_auth_methods_supported: z.array(z.enum(["none", "client_secret_post", "client_secret_basic"])),
    revocation_endpoint_auth_methods_supported: z.array(z.literal("none")),
    client_id_metadata_document_supported: z.literal(true),
    authorization_response_iss_parameter_supported: z.literal(true),
    scopes_supported: scopeList,
    service_documentation: z.string(),
  })
  .meta({ id: "AuthorizationServerMetadata", description: "RFC 8414 metadata of the authorization server" });

export const registeredClient = z
  .object({
    client_id: z.string().describe("mcpc_ and 22 base62 characters"),
    client_id_issued_at: z.number().int(),
    client_name: z.string(),
    redirect_uris: z.array(z.string()),
    client_uri: z.string().optional(),
    grant_types: z.array(z.string()),
    response_types: z.array(z.literal("code")),
    token_endpoint_auth_method: z.enum(["none", "client_secret_post", "client_secret_basic"]),
    client_secret: z
      .string()
      .optional()
      .describe("upcs_…: only for a client that registered with client_secret_post or _basic; shown only here"),
    client_secret_expires_at: z.literal(0).optional().describe("0: the secret does not expire"),
    scope: z.string().optional(),
  })
  .meta({ id: "RegisteredClient" });

export const tokenResponse = z
  .object({
    access_token: z.string().describe("upa_…, valid 1 hour"),
    token_type: z.literal("Bearer"),
    expires_in: z.number().int(),
    refresh_token: z.string().describe("upr_…, valid 30 days, used once (rotated)"),
    scope: z.string(),
  })
  .meta({ id: "TokenResponse" });

/** Form fields or JSON; validated by the endpoint itself so every failure is an RFC 6749 error. */
export const formDoc = (description: string, properties: Record<string, { type: "string"; description?: string }>) =>
  z.unknown().meta({ description, type: "object", properties });

export const consentRequest = z
  .object({
    request_id: z.string(),
    client: z.object({
      client_id: z.string(),
      name: z.string(),
      uri: z.string().nullable(),
      kind: z.enum(["dynamic", "metadata_document"]),
      redirect_host: z.string().describe("Where the code goes: the host of the redirect URI (or its custom scheme)"),
    }),
    scopes: z.array(z.object({ scope: z.string(), description: z.string() })),
    expires_at: isoTimestamp,
    workspace: z.object({ team_id: z.string(), name: z.string() }),
    user: z.object({ user_id: z.string(), name: z.string() }),
  })
  .meta({ id: "OAuthConsentRequest" });

export const redirectTo = z
  .object({ redirect_to: z.string().describe("Where the browser goes next: the client's redirect URI") })
  .meta({ id: "OAuthRedirect" });
