import { keepPreviousData, useInfiniteQuery } from "@tanstack/react-query";
import { api, query } from "./api.ts";
import { keys, type ReportsParams } from "./queries.ts";
import type { Reports } from "./types.ts";

// Apart from lib/queries.ts, which the first page load includes: only the Reports page pages through results, and
// react-query's infinite-query code stays in its lazy chunk (issue 27's 100 kB gzip budget for the first load).

/**
 * The reports of a range, page by page ("Load more" fetches the next cursor); each page carries the whole
 * window's summary and participation. While other filters load, the previous ones stay on screen.
 */
export function useReportPages(params: ReportsParams) {
  return useInfiniteQuery({
    queryKey: keys.reports(params),
    queryFn: ({ pageParam, signal }) => api.get<Reports>(`/reports${query({ ...params, cursor: pageParam })}`, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    placeholderData: keepPreviousData,
  });
}
