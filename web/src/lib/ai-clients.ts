import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "./api.ts";
import type { McpConfigs, OAuthGrant } from "./types.ts";

/**
 * Connected AI clients (OAuth grants) and the consent page's requests. The consent API belongs to the OAuth
 * server; its shape is the one the issue fixed, written out here because the contract has no schema for it yet.
 */

export type McpScope = "standups:read" | "standups:write";

export interface ConsentRequest {
  request_id: string;
  client: {
    client_id: string;
    name: string;
    uri: string | null;
    kind: "dynamic" | "metadata_document";
    redirect_host: string;
  };
  scopes: { scope: string; description: string }[];
  expires_at: string;
  workspace: { team_id: string; name: string };
  user: { user_id: string; name: string };
}

/** What each scope lets a client do, in plain words (the consent page, the key form). */
export const SCOPE_WORDS: Record<McpScope, string> = {
  "standups:read": "Read standups, blockers, kudos and members of this workspace",
  "standups:write":
    "Submit and edit your standup answers, skip, set your time off, give kudos and resolve blockers — as you",
};

/** "Read" or "Read and write" — a write credential always reads too. */
export function scopesInWords(scopes: readonly string[]): string {
  return scopes.includes("standups:write") ? "Read and write" : "Read only";
}

export const grantKeys = {
  grants: () => ["oauth-grants"] as const,
  request: (id: string) => ["oauth-request", id] as const,
};

export function useGrants() {
  return useQuery({ queryKey: grantKeys.grants(), queryFn: () => api.get<OAuthGrant[]>("/oauth/grants") });
}

export function useRevokeGrant() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete<{ ok: true }>(`/oauth/grants/${id}`),
    onSuccess: (_answer, id) => {
      // Revoked grants are not listed: it leaves the list at once.
      client.setQueryData<OAuthGrant[]>(grantKeys.grants(), (list) => list?.filter((g) => g.id !== id));
      void client.invalidateQueries({ queryKey: grantKeys.grants() });
    },
  });
}

/** The request behind the consent page: no retry (404, 409 and 401 are answers, not hiccups). */
export function useConsentRequest(id: string) {
  return useQuery({
    queryKey: grantKeys.request(id),
    queryFn: () => api.get<ConsentRequest>(`/oauth/requests/${encodeURIComponent(id)}`),
    enabled: id !== "",
    retry: false,
    refetchOnWindowFocus: false,
  });
}

/** Signed out on the consent page: the person asks to come back to it after signing in (the server sets a cookie). */
export function useResumeRequest(id: string) {
  return useMutation({
    mutationFn: () => api.post<void>(`/oauth/requests/${encodeURIComponent(id)}/resume`, {}),
  });
}

/** Approve may carry the scopes the person chose (a subset of the request's; the server never widens). */
export function useDecideRequest(id: string) {
  return useMutation({
    mutationFn: ({ decision, scopes }: { decision: "approve" | "deny"; scopes?: McpScope[] }) =>
      api.post<{ redirect_to: string }>(
        `/oauth/requests/${encodeURIComponent(id)}/${decision}`,
        decision === "approve" && scopes ? { scopes } : {},
      ),
  });
}

/**
 * APP_URL as the server knows it: the key-client snippets carry `${APP_URL}/mcp…`. The page's own origin is the
 * fallback (the dashboard is served at APP_URL in any working set-up).
 */
export function appUrlOf(configs: McpConfigs | undefined): string {
  const found = /"(https?:\/\/[^"\s]+?)\/mcp(?:\/key)?"/.exec(JSON.stringify(configs ?? {}));
  return found?.[1] ?? window.location.origin;
}

const RELATIVE = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });
const STEPS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 86_400_000],
  ["month", 30 * 86_400_000],
  ["week", 7 * 86_400_000],
  ["day", 86_400_000],
  ["hour", 3_600_000],
  ["minute", 60_000],
];

/** "3 days ago", "yesterday", "just now"; "never" without a time. */
export function relativeTime(iso: string | null, now = Date.now()): string {
  if (!iso) return "never";
  const diff = new Date(iso).getTime() - now;
  for (const [unit, ms] of STEPS) {
    if (Math.abs(diff) >= ms) return RELATIVE.format(Math.round(diff / ms), unit);
  }
  return "just now";
}
