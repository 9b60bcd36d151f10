import { useCallback, useEffect, useState } from "react";
import { api } from "./api.ts";

export interface ApiState<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  /** Fetches again, keeping the current data on screen until the answer arrives. */
  reload: () => void;
  /** Local update after a mutation, without a round trip. */
  setData: (update: (current: T | undefined) => T | undefined) => void;
}

/** GETs `path` (null: nothing yet); a newer path or reload wins over an older answer still on its way. */
export function useApi<T>(path: string | null): ApiState<T> {
  const [data, setDataState] = useState<T | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const [loading, setLoading] = useState(path !== null);
  const [generation, setGeneration] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: generation is the reload trigger
  useEffect(() => {
    if (path === null) return;
    const controller = new AbortController();
    setLoading(true);
    setError(undefined);
    api
      .get<T>(path, controller.signal)
      .then((result) => {
        if (controller.signal.aborted) return;
        setDataState(result);
        setLoading(false);
      })
      .catch((err: unknown) => {
        if (controller.signal.aborted) return;
        setError(err);
        setLoading(false);
      });
    return () => controller.abort();
  }, [path, generation]);

  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  const setData = useCallback((update: (current: T | undefined) => T | undefined) => setDataState(update), []);
  return { data, error, loading, reload, setData };
}
