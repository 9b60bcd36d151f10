import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { api, query } from "./api.ts";
import type {
  Analytics,
  Channel,
  EmailPreferences,
  FailedChatEvent,
  Kudo,
  LeaderboardEntry,
  McpConfigs,
  McpKey,
  Me,
  Member,
  MemberProfile,
  MemberSyncStatus,
  Person,
  Profile,
  Rule,
  Schedule,
  Stats,
  Template,
  TimeOffList,
  Today,
  WebhookDelivery,
  WebhookEndpoint,
} from "./types.ts";

/** A range of days as the server takes it: two dates, or the last N days in the workspace's timezone. */
export type RangeParams = { from: string; to: string } | { days: number };
/** One standup, one member, a full-text search: absent means all. */
export type ReportFilters = { schedule_id?: string | undefined; user_id?: string | undefined; q?: string | undefined };
export type ReportsParams = RangeParams & ReportFilters;
/** One standup, one member: absent means all. */
export type AnalyticsFilters = Pick<ReportFilters, "schedule_id" | "user_id">;

/** Every cache key in one place, so a mutation names exactly what it makes stale. */
export const keys = {
  me: () => ["me"] as const,
  stats: () => ["stats"] as const,
  today: () => ["today"] as const,
  standups: () => ["standups"] as const,
  reports: (params: ReportsParams) => ["reports", params] as const,
  analytics: (days: number, filters: AnalyticsFilters = {}) => ["analytics", days, filters] as const,
  members: () => ["members"] as const,
  people: () => ["people"] as const,
  memberSync: () => ["members", "sync"] as const,
  failedChatEvents: () => ["chat", "failed-events"] as const,
  channels: () => ["channels"] as const,
  templates: () => ["templates"] as const,
  mcpKeys: () => ["mcp-keys"] as const,
  mcpConfig: () => ["mcp-config"] as const,
  rules: () => ["rules"] as const,
  kudos: () => ["kudos"] as const,
  leaderboard: (days: number) => ["kudos-leaderboard", days] as const,
  webhooks: () => ["webhooks"] as const,
  webhookDeliveries: (id: number) => ["webhooks", id, "deliveries"] as const,
  emailPreferences: () => ["email-preferences"] as const,
  profile: () => ["profile"] as const,
  profiles: () => ["profiles"] as const,
  timeOff: (params: { include_past?: boolean }) => ["time-off", params] as const,
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

/** Today by standup; answers keep coming in, so it refreshes every minute while the overview is open. */
export function useToday() {
  return useQuery({ queryKey: keys.today(), queryFn: get<Today>("/today"), refetchInterval: 60_000 });
}

export function useAnalytics(days: number, filters: AnalyticsFilters = {}) {
  return useQuery({
    queryKey: keys.analytics(days, filters),
    queryFn: get<Analytics>(`/analytics${query({ days, ...filters })}`),
    placeholderData: keepPreviousData,
  });
}

/** The member list is admin-only: pass `enabled: false` where a member may see the page too, so it never asks. */
export function useMembers(enabled = true) {
  return useQuery({ queryKey: keys.members(), queryFn: get<Member[]>("/members"), enabled });
}

/**
 * The workspace's people by name and picture, for pickers, filters and names: any signed-in member may read it.
 * Names change seldom, so it is kept for five minutes.
 */
export function usePeople() {
  return useQuery({ queryKey: keys.people(), queryFn: get<Person[]>("/people"), staleTime: 5 * 60_000 });
}

/** The member sync's status; while one is queued or running it is read again every few seconds. */
export function useMemberSync() {
  return useQuery({
    queryKey: keys.memberSync(),
    queryFn: get<MemberSyncStatus>("/members/sync"),
    refetchInterval: (q) => (q.state.data && q.state.data.state !== "idle" ? 3_000 : false),
  });
}

export function useFailedChatEvents() {
  return useQuery({ queryKey: keys.failedChatEvents(), queryFn: get<FailedChatEvent[]>("/chat/failed-events") });
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

export function useRules() {
  return useQuery({ queryKey: keys.rules(), queryFn: get<Rule[]>("/rules") });
}

/** The workspace's newest kudos (the server sends at most 100). */
export function useKudos() {
  return useQuery({ queryKey: keys.kudos(), queryFn: get<Kudo[]>("/kudos") });
}

/** Who received the most kudos in the last `days` days; the previous period stays on screen while the next loads. */
export function useLeaderboard(days: number) {
  return useQuery({
    queryKey: keys.leaderboard(days),
    queryFn: get<LeaderboardEntry[]>(`/kudos/leaderboard${query({ days })}`),
    placeholderData: keepPreviousData,
  });
}

export function useWebhooks() {
  return useQuery({ queryKey: keys.webhooks(), queryFn: get<WebhookEndpoint[]>("/webhooks") });
}

/** An endpoint's deliveries log; while one is still pending it refreshes every 5 seconds. */
export function useWebhookDeliveries(id: number) {
  return useQuery({
    queryKey: keys.webhookDeliveries(id),
    queryFn: get<WebhookDelivery[]>(`/webhooks/${id}/deliveries`),
    refetchInterval: (query) => (query.state.data?.some((d) => d.status === "pending") ? 5_000 : false),
  });
}

/** The signed-in admin's digest switch, and whether this server sends e-mail at all. */
export function useEmailPreferences() {
  return useQuery({ queryKey: keys.emailPreferences(), queryFn: get<EmailPreferences>("/email/preferences") });
}

/** The signed-in member's own profile (defaults when never set). */
export function useProfile() {
  return useQuery({ queryKey: keys.profile(), queryFn: get<Profile>("/profile") });
}

/** The server pages the admin list by user id, at most this many a page. */
export const PROFILES_PAGE = 1000;

/** Every current member's profile: the pages followed one after another (5,000 members are five requests). */
export function useProfiles() {
  return useQuery({
    queryKey: keys.profiles(),
    queryFn: async ({ signal }) => {
      const all: MemberProfile[] = [];
      for (let after: string | undefined; ; ) {
        const page = await api.get<MemberProfile[]>(`/profiles${query({ limit: PROFILES_PAGE, after })}`, signal);
        all.push(...page);
        if (page.length < PROFILES_PAGE) return all;
        after = page.at(-1)!.user_id;
      }
    },
  });
}

/** Time off: the caller's own ranges, or everyone's for an admin; current and upcoming unless include_past. */
export function useTimeOff(params: { include_past?: boolean } = {}) {
  return useQuery({
    queryKey: keys.timeOff(params),
    queryFn: get<TimeOffList>(
      `/time-off${query({ ...(params.include_past ? { include_past: "true" } : {}), limit: 500 })}`,
    ),
  });
}
