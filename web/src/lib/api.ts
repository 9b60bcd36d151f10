/** The one way the dashboard talks to the server: same-origin JSON, errors as ApiError. */

export const API_BASE = "/dashboard/api";

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The whole error body, for fields beside `error` (a code the page explains in words). */
    readonly body?: unknown,
  ) {
    super(message);
    this.name = "ApiError";
  }

  get isForbidden(): boolean {
    return this.status === 403;
  }
}

type Listener = () => void;
const unauthorizedListeners = new Set<Listener>();

/** Called whenever a request answers 401, so the app can show the sign-in page wherever the user is. */
export function onUnauthorized(listener: Listener): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

type Method = "GET" | "POST" | "PUT" | "DELETE";

async function request<T>(method: Method, path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
  const headers: Record<string, string> = { Accept: "application/json" };
  const init: RequestInit = { method, headers, credentials: "same-origin", cache: "no-store" };
  if (signal) init.signal = signal;
  if (method !== "GET") {
    // The server refuses mutations that are not JSON (and cross-site ones), so every mutation sends a JSON body.
    headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body ?? {});
  }
  let res: Response;
  try {
    res = await fetch(`${API_BASE}${path}`, init);
  } catch (err) {
    if (err instanceof DOMException && err.name === "AbortError") throw err;
    throw new ApiError(0, "Could not reach Upbeat. Check your connection and try again.");
  }
  const text = await res.text();
  let data: unknown;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    data = undefined;
  }
  if (!res.ok) {
    if (res.status === 401) for (const listener of unauthorizedListeners) listener();
    const message =
      data && typeof data === "object" && typeof (data as { error?: unknown }).error === "string"
        ? (data as { error: string }).error
        : `The server answered ${res.status}${res.statusText ? ` ${res.statusText}` : ""}.`;
    throw new ApiError(res.status, message, data);
  }
  return data as T;
}

export const api = {
  get: <T>(path: string, signal?: AbortSignal) => request<T>("GET", path, undefined, signal),
  post: <T>(path: string, body?: unknown) => request<T>("POST", path, body),
  put: <T>(path: string, body?: unknown) => request<T>("PUT", path, body),
  delete: <T>(path: string, body?: unknown) => request<T>("DELETE", path, body),
};

export function errorMessage(err: unknown): string {
  if (err instanceof ApiError) {
    if (err.status === 403) return "You need the admin role for this. Ask a workspace admin in Slack to make you one.";
    if (err.status === 429) return "Too many requests. Wait a minute and try again.";
    if (err.status >= 500) return `${err.message} (server error ${err.status}). Try again in a moment.`;
    return err.message;
  }
  return err instanceof Error ? err.message : String(err);
}

/** `?a=1&b=2` from the defined entries, or "" when there are none. */
export function query(params: Record<string, string | number | undefined>): string {
  const q = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined && value !== "") q.set(key, String(value));
  const s = q.toString();
  return s ? `?${s}` : "";
}
