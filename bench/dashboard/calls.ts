/**
 * Every GET a dashboard page makes on its first render, as the web code asks for it (web/src/lib/queries.ts,
 * web/src/lib/celebrations.ts, web/src/lib/blockers.ts, web/src/lib/ai-clients.ts and the hooks each page and the
 * components it renders call, with the pages' default filters). Paths are relative to /dashboard/api.
 *
 * Kept by hand: when a page starts asking for something new, add it here. Calls a page makes only after a
 * choice (a standup chosen for /question-stats, a webhook's deliveries opened, "Load more") are left out, except
 * the profile pages, whose first render follows every page of /profiles (5,000 members: five requests).
 */

export type Role = "admin" | "member";

export interface Page {
  /** The dashboard route. */
  route: string;
  name: string;
  /** Who opens it: a member's page differs where the server answers by role (their own data only). */
  as: Role;
  paths: string[];
}

/** Every page's layout asks who is signed in first. */
const ME = "/me";

export const PAGES: Page[] = [
  { route: "/", name: "Overview", as: "admin", paths: [ME, "/stats", "/today", "/analytics?days=30"] },
  { route: "/", name: "Overview", as: "member", paths: [ME, "/stats", "/today", "/analytics?days=30"] },
  { route: "/standups", name: "Standups", as: "admin", paths: [ME, "/standups", "/channels"] },
  { route: "/standups/new", name: "New standup", as: "admin", paths: [ME, "/standups", "/channels", "/templates"] },
  { route: "/reports", name: "Reports", as: "admin", paths: [ME, "/reports?days=7", "/people", "/standups"] },
  { route: "/reports", name: "Reports", as: "member", paths: [ME, "/reports?days=7", "/people", "/standups"] },
  {
    route: "/blockers",
    name: "Blockers",
    as: "admin",
    paths: [ME, "/blockers?status=open&page=1&per_page=25", "/people", "/standups"],
  },
  {
    route: "/blockers",
    name: "Blockers",
    as: "member",
    paths: [ME, "/blockers?status=open&page=1&per_page=25", "/people", "/standups"],
  },
  { route: "/analytics", name: "Analytics", as: "admin", paths: [ME, "/analytics?days=30", "/people", "/standups"] },
  { route: "/analytics", name: "Analytics", as: "member", paths: [ME, "/analytics?days=30", "/people", "/standups"] },
  { route: "/kudos", name: "Kudos", as: "admin", paths: [ME, "/kudos", "/kudos/leaderboard?days=30"] },
  { route: "/time-off", name: "Time off", as: "admin", paths: [ME, "/time-off?limit=500", "/members"] },
  { route: "/time-off", name: "Time off", as: "member", paths: [ME, "/time-off?limit=500"] },
  {
    route: "/members",
    name: "Members",
    as: "admin",
    paths: [ME, "/members/sync", "/members", "/people", "/chat/failed-events"],
  },
  { route: "/rules", name: "Rules", as: "admin", paths: [ME, "/rules", "/channels", "/members"] },
  { route: "/ai-access", name: "AI access", as: "admin", paths: [ME, "/mcp-config", "/mcp/keys", "/oauth/grants"] },
  { route: "/webhooks", name: "Webhooks", as: "admin", paths: [ME, "/webhooks"] },
  {
    route: "/celebrations",
    name: "Celebrations",
    as: "admin",
    paths: [ME, "/celebrations/settings", "/channels", "/people", "/celebrations/upcoming", "/celebrations/ask-dates"],
  },
  {
    route: "/calendar",
    name: "Calendar",
    as: "admin",
    paths: [ME, "/celebrations/settings", "/celebrations/holidays"],
  },
  { route: "/email", name: "E-mail", as: "admin", paths: [ME, "/email/preferences"] },
  { route: "/profile", name: "My profile", as: "member", paths: [ME, "/profile"] },
  {
    route: "/profiles",
    name: "Profiles",
    as: "admin",
    paths: [ME, "/profiles?limit=1000", "/profiles?limit=1000&after=U00001000"],
  },
];

/** The distinct (role, path) pairs to measure, in page order. */
export function distinctCalls(pages: Page[]): { as: Role; path: string }[] {
  const seen = new Set<string>();
  const out: { as: Role; path: string }[] = [];
  for (const p of pages) {
    for (const path of p.paths) {
      const key = `${p.as} ${path}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ as: p.as, path });
    }
  }
  return out;
}
