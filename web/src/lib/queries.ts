import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { api, query } from "./api.ts";
import type {
  Analytics,
  Channel,
  McpConfigs,
  McpKey,
  Me,
  Member,
  Reports,
  Schedule,
  Stats,
  Template,
} from "./types.ts";

/** A range of days as the server takes it: two dates, or the last N days in the workspace's timezone. */
export type ReportsParams = { from: string; to: string } | { days: number };

/** Every cache key in one place, so a mutation names exactly what it makes stale. */
export const keys = {
  me: () => ["me"] as const,
  stats: () => ["stats"] as const,
  standups: () => ["standups"] as const,
  reports: (params: ReportsParams) => ["reports", params] as const,
  analytics: (days: number) => ["analytics", days] as const,
  members: () => ["members"] as const,
  channels: () => ["channels"] as const,
  templates: () => ["templates"] as const,
  mcpKeys: () => ["mcp-keys"] as const,
  mcpConfig: () => ["mcp-config"] as const,
};

/** A GET that stops when the query is cancelled (its page closed before the answer came). */
function get<T>(path: string) {
  return ({ signal }: { signal: AbortSignal }) => api.get<T>(path, signal);
}

/** Off while the session is known to have ended, so nothing asks for the signed-in user again. */
export function useMe(enabled = true) {
  return useQuery({ queryKey: keys.me(), queryFn: get<Me>("/me"), enabled });
}

export function useStats() {
  return useQuery({ queryKey: keys.stats(), queryFn: get<Stats>("/stats") });
}

export function useStandups() {
  return useQuery({ queryKey: keys.standups(), queryFn: get<Schedule[]>("/standups") });
}

/** While another range loads, the previous range stays on screen (`isPlaceholderData`). */
export function useReports(params: ReportsParams) {
  return useQuery({
    queryKey: keys.reports(params),
    queryFn: get<Reports>(`/reports${query(params)}`),
    placeholderData: keepPreviousData,
  });
}

export function useAnalytics(days: number) {
  return useQuery({
    queryKey: keys.analytics(days),
    queryFn: get<Analytics>(`/analytics${query({ days })}`),
    placeholderData: keepPreviousData,
  });
}

export function useMembers() {
  return useQuery({ queryKey: keys.members(), queryFn: get<Member[]>("/members") });
}

export function useChannels() {
  return useQuery({ queryKey: keys.channels(), queryFn: get<Channel[]>("/channels") });
}

/** The built-in question templates change only with a new release. */
export function useTemplates() {
  return useQuery({ queryKey: keys.templates(), queryFn: get<Template[]>("/templates"), staleTime: Infinity });
}

export function useMcpKeys() {
  return useQuery({ queryKey: keys.mcpKeys(), queryFn: get<McpKey[]>("/mcp/keys") });
}

/** The snippets depend only on the server's address. */
export function useMcpConfig() {
  return useQuery({ queryKey: keys.mcpConfig(), queryFn: get<McpConfigs>("/mcp-config"), staleTime: Infinity });
}
