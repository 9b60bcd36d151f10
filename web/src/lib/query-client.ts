import { QueryClient } from "@tanstack/react-query";
import { ApiError } from "./api.ts";

/** Answers worth asking again: the network failed (status 0) or the server did (5xx). A 4xx answers the same twice. */
export function isRetryable(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 0 || error.status >= 500);
}

const MAX_RETRIES = 2;

/**
 * The dashboard's one cache. Data counts as fresh for 30 s: going back to a page shows it at once and asks the
 * server only when it is older than that; returning to the tab refetches only the stale queries on screen.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        retry: (failures, error) => failures < MAX_RETRIES && isRetryable(error),
        refetchOnWindowFocus: true,
        refetchOnReconnect: true,
      },
      // A mutation that failed halfway may have happened: the user decides whether to try again.
      mutations: { retry: false },
    },
  });
}
