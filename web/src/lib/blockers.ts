import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { API_BASE, api, query } from "./api.ts";
import { keys } from "./queries.ts";
import type { BlockerItem, BlockerPage } from "./types.ts";

/** The Blockers page's data (issue 25), kept beside it so the shared query and mutation modules stay as they are. */

export type BlockerStatusTab = "open" | "resolved";
export interface BlockerParams {
  status: BlockerStatusTab;
  standup?: string | undefined;
  member?: string | undefined;
  page: number;
}

export const BLOCKERS_PER_PAGE = 25;
const blockerKeys = { all: () => ["blockers"] as const, list: (p: BlockerParams) => ["blockers", p] as const };

const filterQuery = (p: Omit<BlockerParams, "page">) => ({ status: p.status, standup: p.standup, member: p.member });

export function useBlockers(params: BlockerParams) {
  return useQuery({
    queryKey: blockerKeys.list(params),
    queryFn: ({ signal }) =>
      api.get<BlockerPage>(
        `/blockers${query({ ...filterQuery(params), page: params.page, per_page: BLOCKERS_PER_PAGE })}`,
        signal,
      ),
    placeholderData: keepPreviousData,
  });
}

export function blockersCsvHref(params: Omit<BlockerParams, "page">): string {
  return `${API_BASE}/blockers.csv${query(filterQuery(params))}`;
}

/** Resolving changes both tabs and the "Active blockers" figure. */
export function useResolveBlocker() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, note }: { id: number; note: string }) =>
      api.post<BlockerItem>(`/blockers/${id}/resolve`, note.trim() ? { note: note.trim() } : {}),
    onSettled: () => {
      void client.invalidateQueries({ queryKey: blockerKeys.all() });
      void client.invalidateQueries({ queryKey: keys.stats() });
      void client.invalidateQueries({ queryKey: ["reports"] });
    },
  });
}
