import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "./api.ts";
import type {
  AskDatesPreview,
  AskDatesSent,
  CelebrationSettings,
  Holiday,
  HolidayImport,
  ListedHoliday,
  UpcomingCelebration,
} from "./types.ts";

/** Queries and changes of the Celebrations and Calendar pages (their own file, so the shared ones stay small). */

export const celebrationKeys = {
  settings: () => ["celebrations", "settings"] as const,
  holidays: () => ["celebrations", "holidays"] as const,
  upcoming: () => ["celebrations", "upcoming"] as const,
  askDates: () => ["celebrations", "ask-dates"] as const,
};

export type CelebrationSettingsInput = Omit<CelebrationSettings, "can_react" | "can_manage">;

export function useCelebrationSettings() {
  return useQuery({
    queryKey: celebrationKeys.settings(),
    queryFn: ({ signal }) => api.get<CelebrationSettings>("/celebrations/settings", signal),
  });
}

export function useHolidays() {
  return useQuery({
    queryKey: celebrationKeys.holidays(),
    queryFn: ({ signal }) => api.get<ListedHoliday[]>("/celebrations/holidays", signal),
  });
}

export function useUpcoming(enabled: boolean) {
  return useQuery({
    queryKey: celebrationKeys.upcoming(),
    queryFn: ({ signal }) => api.get<UpcomingCelebration[]>("/celebrations/upcoming", signal),
    enabled,
  });
}

export function useAskDatesPreview(enabled: boolean) {
  return useQuery({
    queryKey: celebrationKeys.askDates(),
    queryFn: ({ signal }) => api.get<AskDatesPreview>("/celebrations/ask-dates", signal),
    enabled,
  });
}

/** Anything Celebrations shows may change with the calendar or the settings. */
function useInvalidateAll() {
  const client = useQueryClient();
  return () => void client.invalidateQueries({ queryKey: ["celebrations"] });
}

export function useSaveCelebrationSettings() {
  const client = useQueryClient();
  const invalidate = useInvalidateAll();
  return useMutation({
    mutationFn: (input: CelebrationSettingsInput) => api.put<CelebrationSettings>("/celebrations/settings", input),
    onSuccess: (saved) => {
      client.setQueryData(celebrationKeys.settings(), saved);
      invalidate();
    },
  });
}

/** The workspace calendar alone: no Celebrations channel needed. */
export function useSaveCalendar() {
  const invalidate = useInvalidateAll();
  return useMutation({
    mutationFn: (input: { timezone: string; working_days: string[] }) =>
      api.put<{ timezone: string; working_days: string[] }>("/calendar", input),
    onSuccess: () => invalidate(),
  });
}

export function useSaveHoliday() {
  const invalidate = useInvalidateAll();
  return useMutation({
    mutationFn: (h: Holiday) => api.post<Holiday>("/celebrations/holidays", h),
    onSuccess: invalidate,
  });
}

export function useDeleteHoliday() {
  const invalidate = useInvalidateAll();
  return useMutation({
    mutationFn: (date: string) => api.delete(`/celebrations/holidays/${encodeURIComponent(date)}`),
    onSuccess: invalidate,
  });
}

export function useImportHolidays() {
  const invalidate = useInvalidateAll();
  return useMutation({
    mutationFn: (input: { csv: string; preview: boolean }) =>
      api.post<HolidayImport>("/celebrations/holidays/import", input),
    onSuccess: (result) => {
      if (!result.preview) invalidate();
    },
  });
}

export function useSendAskDates() {
  const invalidate = useInvalidateAll();
  return useMutation({
    mutationFn: () => api.post<AskDatesSent>("/celebrations/ask-dates"),
    onSuccess: invalidate,
  });
}
