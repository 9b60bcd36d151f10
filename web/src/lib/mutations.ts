import { type QueryClient, type QueryKey, useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "./api.ts";
import { keys } from "./queries.ts";
import type {
  CreatedMcpKey,
  CreatedWebhookEndpoint,
  EmailPreferences,
  FeedToken,
  McpKey,
  Me,
  Member,
  MemberDataDeleted,
  MemberProfile,
  MemberSyncQueued,
  Profile,
  ProfileImportResult,
  Role,
  Rule,
  RuleInput,
  RunStarted,
  Schedule,
  ScheduleInput,
  TimeOffInput,
  TimeOffRange,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEventType,
  WorkspaceDeleted,
} from "./types.ts";

/**
 * Every change the dashboard makes. Each hook puts the server's answer into the cache at once (the page shows it
 * without waiting) and marks what the change made stale; queries on screen refetch, the rest on their next visit.
 * Pages add what only they show (notices, navigation) through `mutate(variables, { onSuccess, onError })`.
 */

function invalidate(client: QueryClient, ...queryKeys: QueryKey[]): void {
  for (const queryKey of queryKeys) void client.invalidateQueries({ queryKey });
}

function standupSaved(client: QueryClient, saved: Schedule): void {
  // The list is in creation order: a new standup goes last.
  client.setQueryData<Schedule[]>(keys.standups(), (list) =>
    list?.some((s) => s.id === saved.id) ? list.map((s) => (s.id === saved.id ? saved : s)) : list && [...list, saved],
  );
  invalidate(client, keys.standups(), keys.stats());
}

export function useCreateStandup() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: ScheduleInput) => api.post<Schedule>("/standups", input),
    onSuccess: (saved) => standupSaved(client, saved),
  });
}

export function useUpdateStandup() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, changes }: { id: string; changes: Partial<ScheduleInput> }) =>
      api.put<Schedule>(`/standups/${encodeURIComponent(id)}`, changes),
    onSuccess: (saved) => standupSaved(client, saved),
  });
}

export function useDeleteStandup() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete(`/standups/${encodeURIComponent(id)}`),
    onSuccess: (_answer, id) => {
      client.setQueryData<Schedule[]>(keys.standups(), (list) => list?.filter((s) => s.id !== id));
      invalidate(client, keys.standups(), keys.stats());
    },
  });
}

/** Run now: today's run starts at once; the list's last run and the overview change with it. */
export function useRunStandup() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.post<RunStarted>(`/standups/${encodeURIComponent(id)}/run`, {}),
    onSettled: () => invalidate(client, keys.standups(), keys.stats()),
  });
}

export function useInviteMember() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => api.post<Member>("/members/invite", { user_id: userId }),
    onSuccess: (member) => {
      client.setQueryData<Member[]>(
        keys.members(),
        (list) => list && [member, ...list.filter((m) => m.user_id !== member.user_id)],
      );
      invalidate(client, keys.members(), keys.people(), keys.stats());
    },
  });
}

/** "Sync now": the status query shows it queued at once and follows it until it ends. */
export function useSyncMembers() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<MemberSyncQueued>("/members/sync", {}),
    onSuccess: () => invalidate(client, keys.memberSync()),
  });
}

export function useChangeRole() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, role }: { userId: string; role: Role }) =>
      api.put(`/members/${encodeURIComponent(userId)}/role`, { role }),
    onSuccess: (_answer, { userId, role }) => {
      client.setQueryData<Member[]>(keys.members(), (list) =>
        list?.map((m) => (m.user_id === userId ? { ...m, role } : m)),
      );
      // Without the admin role the list answers 403; the page starts the dashboard again instead.
      if (client.getQueryData<Me>(keys.me())?.user_id === userId && role !== "admin") return;
      invalidate(client, keys.members());
    },
  });
}

/** Deletes a removed member's data; they leave the list. */
export function useDeleteMemberData() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => api.delete<MemberDataDeleted>(`/members/${encodeURIComponent(userId)}/data`),
    onSuccess: (_answer, userId) => {
      client.setQueryData<Member[]>(keys.members(), (list) => list?.filter((m) => m.user_id !== userId));
      invalidate(client, keys.members(), keys.people());
    },
  });
}

/** Deletes the whole workspace; the session ends with it, so the page leaves the dashboard. */
export function useDeleteWorkspace() {
  return useMutation({
    mutationFn: (confirm: string) => api.delete<WorkspaceDeleted>("/workspace", { confirm }),
  });
}

export function useCreateMcpKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ name, write }: { name: string; write: boolean }) =>
      api.post<CreatedMcpKey>("/mcp/keys", {
        ...(name ? { name } : {}),
        scopes: write ? ["standups:read", "standups:write"] : ["standups:read"],
      }),
    // The answer holds the whole key: drop it as soon as the page that shows it closes.
    gcTime: 0,
    onSuccess: (created) => {
      const listed: McpKey = {
        id: created.id,
        name: created.name,
        key_prefix: created.key_prefix,
        created_at: created.created_at,
        last_used_at: null,
        active: true,
        scopes: created.scopes,
      };
      // Newest first, as the server lists them.
      client.setQueryData<McpKey[]>(keys.mcpKeys(), (list) => list && [listed, ...list]);
      invalidate(client, keys.mcpKeys());
    },
  });
}

export function useRevokeMcpKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete(`/mcp/keys/${id}`),
    onSuccess: (_answer, id) => {
      client.setQueryData<McpKey[]>(keys.mcpKeys(), (list) =>
        list?.map((k) => (k.id === id ? { ...k, active: false } : k)),
      );
      invalidate(client, keys.mcpKeys());
    },
  });
}

/** The list is in creation order: a new rule goes last; an edited one stays where it is. */
function ruleSaved(client: QueryClient, saved: Rule): void {
  client.setQueryData<Rule[]>(keys.rules(), (list) =>
    list?.some((r) => r.id === saved.id) ? list.map((r) => (r.id === saved.id ? saved : r)) : list && [...list, saved],
  );
  invalidate(client, keys.rules());
}

export function useCreateRule() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: RuleInput) => api.post<Rule>("/rules", input),
    onSuccess: (saved) => ruleSaved(client, saved),
  });
}

export function useUpdateRule() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, changes }: { id: number; changes: Partial<RuleInput> }) =>
      api.put<Rule>(`/rules/${id}`, changes),
    onSuccess: (saved) => ruleSaved(client, saved),
  });
}

export function useDeleteRule() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete(`/rules/${id}`),
    onSuccess: (_answer, id) => {
      client.setQueryData<Rule[]>(keys.rules(), (list) => list?.filter((r) => r.id !== id));
      invalidate(client, keys.rules());
    },
  });
}

export function useCreateWebhook() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { url: string; events: WebhookEventType[] }) =>
      api.post<CreatedWebhookEndpoint>("/webhooks", input),
    // The answer holds the signing secret: drop it as soon as the page that shows it closes.
    gcTime: 0,
    onSuccess: (created) => {
      const listed: WebhookEndpoint = {
        id: created.id,
        url: created.url,
        created_at: created.created_at,
        events: created.events,
        active: created.active,
        disabled_reason: null,
        disabled_at: null,
      };
      // Newest first, as the server lists them.
      client.setQueryData<WebhookEndpoint[]>(keys.webhooks(), (list) => list && [listed, ...list]);
      invalidate(client, keys.webhooks());
    },
  });
}

export function useDeleteWebhook() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete(`/webhooks/${id}`),
    onSuccess: (_answer, id) => {
      client.setQueryData<WebhookEndpoint[]>(keys.webhooks(), (list) => list?.filter((e) => e.id !== id));
      client.removeQueries({ queryKey: keys.webhookDeliveries(id) });
      invalidate(client, keys.webhooks());
    },
  });
}

/** The test delivery goes to the top of the endpoint's log at once, pending; the log refreshes until it is sent. */
export function useSendWebhookTest() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.post<WebhookDelivery>(`/webhooks/${id}/test`, {}),
    onSuccess: (queued, id) => {
      client.setQueryData<WebhookDelivery[]>(keys.webhookDeliveries(id), (list) => list && [queued, ...list]);
      invalidate(client, keys.webhookDeliveries(id));
    },
  });
}

/** The token is shown once and never read back, so no query holds it and none goes stale. */
export function useIssueFeedToken() {
  return useMutation({
    mutationFn: () => api.post<FeedToken>("/feed-token", {}),
    gcTime: 0,
  });
}

export function useRevokeFeedToken() {
  return useMutation({ mutationFn: () => api.delete("/feed-token", {}) });
}

/** The weekly digest on or off for the signed-in admin; the answer is the saved state. */
export function useSetDigest() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (digest: boolean) => api.put<EmailPreferences>("/email/preferences", { digest }),
    onSuccess: (saved) => client.setQueryData(keys.emailPreferences(), saved),
  });
}

/** The profile fields a save sends (all of them: the form shows every field). */
export type ProfileFields = Omit<Profile, "user_id" | "set_by_admin" | "updated_at">;

/** The signed-in member saves their own profile; the answer is the stored profile. */
export function useSaveProfile() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (fields: ProfileFields) => api.put<Profile>("/profile", fields),
    onSuccess: (saved) => {
      client.setQueryData(keys.profile(), saved);
      invalidate(client, keys.profiles());
    },
  });
}

/** An admin saves a member's profile. */
export function useSaveMemberProfile() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, fields }: { userId: string; fields: ProfileFields }) =>
      api.put<Profile>(`/profiles/${encodeURIComponent(userId)}`, fields),
    onSuccess: (saved) => {
      client.setQueryData<MemberProfile[]>(keys.profiles(), (list) =>
        list?.map((p) => (p.user_id === saved.user_id ? { ...p, ...saved } : p)),
      );
      invalidate(client, keys.profiles(), keys.profile());
    },
  });
}

/** The CSV import: a preview writes nothing; a real import makes the list stale. */
export function useImportProfiles() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { csv: string; preview: boolean; overwrite: boolean }) =>
      api.post<ProfileImportResult>("/profiles/import", body),
    onSuccess: (result) => {
      if (!result.preview) invalidate(client, keys.profiles(), keys.profile());
    },
  });
}

/** Time off changes who is asked and today's overview. */
export function useAddTimeOff() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: TimeOffInput) => api.post<TimeOffRange>("/time-off", input),
    onSuccess: () => invalidate(client, ["time-off"], keys.today()),
  });
}

export function useRemoveTimeOff() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete(`/time-off/${id}`),
    onSuccess: () => invalidate(client, ["time-off"], keys.today()),
  });
}
