import { type AnchorHTMLAttributes, type MouseEvent, useSyncExternalStore } from "react";

/** A small history-API router: the server answers index.html for every dashboard page. */

export const BASE = "/dashboard";
const NAVIGATE_EVENT = "upbeat:navigate";

function subscribe(callback: () => void): () => void {
  window.addEventListener("popstate", callback);
  window.addEventListener(NAVIGATE_EVENT, callback);
  return () => {
    window.removeEventListener("popstate", callback);
    window.removeEventListener(NAVIGATE_EVENT, callback);
  };
}

const snapshot = () => window.location.pathname + window.location.search;

/** "/dashboard/reports?from=x" → "/reports?from=x"; "/dashboard" → "/". */
function toAppPath(full: string): string {
  const rest = full.startsWith(BASE) ? full.slice(BASE.length) : full;
  return rest === "" || rest.startsWith("?") ? `/${rest}` : rest;
}

export function href(to: string): string {
  return to === "/" ? BASE : `${BASE}${to}`;
}

export function navigate(to: string, opts: { replace?: boolean } = {}): void {
  const url = href(to);
  if (url === snapshot()) return;
  if (opts.replace) window.history.replaceState(null, "", url);
  else window.history.pushState(null, "", url);
  window.dispatchEvent(new Event(NAVIGATE_EVENT));
}

export interface Location {
  /** Path inside the dashboard without the query, "/" for the overview. */
  path: string;
  search: URLSearchParams;
}

export function useLocation(): Location {
  const full = toAppPath(useSyncExternalStore(subscribe, snapshot));
  const [path = "/", search = ""] = full.split("?", 2);
  const trimmed = path.length > 1 ? path.replace(/\/+$/, "") : path;
  return { path: trimmed || "/", search: new URLSearchParams(search) };
}

type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, "href"> & { to: string };

/** An ordinary link (new tab, copy address work) that navigates in place on a plain click. */
export function Link({ to, onClick, ...rest }: LinkProps) {
  const handle = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (
      event.defaultPrevented ||
      event.button !== 0 ||
      event.metaKey ||
      event.ctrlKey ||
      event.shiftKey ||
      event.altKey
    )
      return;
    event.preventDefault();
    navigate(to);
  };
  return <a href={href(to)} onClick={handle} {...rest} />;
}
