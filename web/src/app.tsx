import { useQueryClient } from "@tanstack/react-query";
import { lazy, type ReactNode, Suspense, useCallback, useEffect, useRef, useState } from "react";
import { Layout } from "./components/layout.tsx";
import { AdminOnly, ErrorState, Loading } from "./components/states.tsx";
import { ApiError, onUnauthorized } from "./lib/api.ts";
import { keys, useMe } from "./lib/queries.ts";
import { Link, useLocation } from "./lib/router.tsx";
import type { Me } from "./lib/types.ts";
import { OverviewPage } from "./pages/overview.tsx";

// Pages that are not the landing page load on first visit: they (and Chart.js) stay out of the first load, which
// must stay within 100 kB gzip (issue 27; measured by `npm run bench:dashboard`).
// Shown only once a session has ended.
const SignedOut = lazy(() => import("./components/signed-out.tsx").then((m) => ({ default: m.SignedOut })));
const ReportsPage = lazy(() => import("./pages/reports.tsx").then((m) => ({ default: m.ReportsPage })));
const StandupsPage = lazy(() => import("./pages/standups.tsx").then((m) => ({ default: m.StandupsPage })));
const AnalyticsPage = lazy(() => import("./pages/analytics.tsx").then((m) => ({ default: m.AnalyticsPage })));
const StandupEditorPage = lazy(() =>
  import("./pages/standup-editor.tsx").then((m) => ({ default: m.StandupEditorPage })),
);
const MembersPage = lazy(() => import("./pages/members.tsx").then((m) => ({ default: m.MembersPage })));
const AiAccessPage = lazy(() => import("./pages/ai-access.tsx").then((m) => ({ default: m.AiAccessPage })));
const RulesPage = lazy(() => import("./pages/rules.tsx").then((m) => ({ default: m.RulesPage })));
const KudosPage = lazy(() => import("./pages/kudos.tsx").then((m) => ({ default: m.KudosPage })));
const WebhooksPage = lazy(() => import("./pages/webhooks.tsx").then((m) => ({ default: m.WebhooksPage })));
const FeedPage = lazy(() => import("./pages/feed.tsx").then((m) => ({ default: m.FeedPage })));
const CelebrationsPage = lazy(() => import("./pages/celebrations.tsx").then((m) => ({ default: m.CelebrationsPage })));
const CalendarPage = lazy(() => import("./pages/calendar.tsx").then((m) => ({ default: m.CalendarPage })));
const BlockersPage = lazy(() => import("./pages/blockers.tsx").then((m) => ({ default: m.BlockersPage })));
const TimeOffPage = lazy(() => import("./pages/time-off.tsx").then((m) => ({ default: m.TimeOffPage })));
const EmailPage = lazy(() => import("./pages/email.tsx").then((m) => ({ default: m.EmailPage })));
const MyProfilePage = lazy(() => import("./pages/my-profile.tsx").then((m) => ({ default: m.MyProfilePage })));
const ConnectPage = lazy(() => import("./pages/connect.tsx").then((m) => ({ default: m.ConnectPage })));
const ProfilesPage = lazy(() => import("./pages/profiles.tsx").then((m) => ({ default: m.ProfilesPage })));

type Session =
  | { kind: "loading" }
  | { kind: "signed-out"; reason?: string }
  | { kind: "error"; error: unknown }
  | { kind: "ready"; me: Me };

interface Route {
  title: string;
  element: ReactNode;
  admin?: boolean;
}

function resolveRoute(path: string, search: URLSearchParams, me: Me): Route {
  const isAdmin = me.role === "admin";
  if (path === "/") return { title: "Overview", element: <OverviewPage /> };
  if (path === "/standups") return { title: "Standups", element: <StandupsPage isAdmin={isAdmin} /> };
  if (path === "/standups/new") return { title: "New standup", element: <StandupEditorPage />, admin: true };
  const edit = /^\/standups\/([^/]+)$/.exec(path);
  if (edit)
    return { title: "Edit standup", element: <StandupEditorPage id={decodeURIComponent(edit[1]!)} />, admin: true };
  if (path === "/reports") return { title: "Reports", element: <ReportsPage search={search} /> };
  if (path === "/blockers") return { title: "Blockers", element: <BlockersPage search={search} me={me} /> };
  if (path === "/analytics") return { title: "Analytics", element: <AnalyticsPage search={search} /> };
  if (path === "/kudos") return { title: "Kudos", element: <KudosPage /> };
  if (path === "/time-off") return { title: "Time off", element: <TimeOffPage me={me} /> };
  if (path === "/members") return { title: "Members", element: <MembersPage me={me} />, admin: true };
  if (path === "/rules") return { title: "Rules", element: <RulesPage />, admin: true };
  // Everyone manages the AI clients they connected; the page keeps API keys to admins.
  if (path === "/ai-access") return { title: "AI access", element: <AiAccessPage me={me} /> };
  if (path === "/webhooks") return { title: "Webhooks", element: <WebhooksPage />, admin: true };
  if (path === "/feed") return { title: "Public feed", element: <FeedPage />, admin: true };
  if (path === "/celebrations") return { title: "Celebrations", element: <CelebrationsPage /> };
  if (path === "/calendar") return { title: "Calendar", element: <CalendarPage /> };
  if (path === "/email") return { title: "E-mail", element: <EmailPage />, admin: true };
  if (path === "/profile") return { title: "My profile", element: <MyProfilePage /> };
  if (path === "/profiles") return { title: "Profiles", element: <ProfilesPage />, admin: true };
  return {
    title: "Page not found",
    element: (
      <div className="state state-empty">
        <h1 tabIndex={-1} className="page-title">
          Page not found
        </h1>
        <p>There is no dashboard page at this address.</p>
        <p>
          <Link to="/">Go to the overview</Link>
        </p>
      </div>
    ),
  };
}

/** After the workspace was deleted (members page): what the sign-in page says. The address loses its ?deleted=. */
function takeDeletedNotice(): string | undefined {
  const params = new URLSearchParams(window.location.search);
  const deleted = params.get("deleted");
  if (deleted === null) return undefined;
  params.delete("deleted");
  const rest = params.toString();
  window.history.replaceState(null, "", `${window.location.pathname}${rest ? `?${rest}` : ""}`);
  return deleted === "token-kept"
    ? "The workspace's data is deleted, but Upbeat could not revoke its access to Slack: remove the app in Slack (workspace settings, Manage apps)."
    : "The workspace's data is deleted and Upbeat's access to Slack is revoked. To use Upbeat again, add it to Slack at /install.";
}

export function App() {
  const client = useQueryClient();
  /** Set when the session ended in this tab (signed out, or a request answered 401): why, for the sign-in page. */
  const [ended, setEnded] = useState<string | undefined>(takeDeletedNotice);
  const me = useMe(ended === undefined);
  const { path, search } = useLocation();

  const endSession = useCallback(
    (reason: string) => {
      setEnded(reason);
      // Nothing of this workspace stays in memory for whoever uses the tab next.
      client.clear();
    },
    [client],
  );
  useEffect(
    () =>
      onUnauthorized(() => {
        // Before the first answer a 401 only means "not signed in": the me query shows that without a reason.
        if (client.getQueryData(keys.me()) !== undefined) endSession("Your session has ended. Sign in again.");
      }),
    [client, endSession],
  );
  const session: Session =
    ended !== undefined
      ? { kind: "signed-out", reason: ended }
      : me.data
        ? { kind: "ready", me: me.data }
        : me.error instanceof ApiError && me.error.status === 401
          ? { kind: "signed-out" }
          : me.isError && !me.isFetching
            ? { kind: "error", error: me.error }
            : { kind: "loading" };

  // After a client-side navigation, start at the top and move focus to the new page's heading.
  const firstPath = useRef(path);
  useEffect(() => {
    if (firstPath.current === path) return;
    firstPath.current = "";
    window.scrollTo(0, 0);
    const focusHeading = () => document.querySelector<HTMLElement>("main h1")?.focus({ preventScroll: true });
    const timer = window.setTimeout(focusHeading, 0);
    return () => window.clearTimeout(timer);
  }, [path]);

  const route = session.kind === "ready" ? resolveRoute(path, search, session.me) : undefined;
  useEffect(() => {
    // The consent page names its own title (the client asking).
    if (path === "/connect") return;
    const title =
      session.kind === "signed-out" ? "Sign in" : route ? route.title : session.kind === "error" ? "Error" : "Loading";
    document.title = `${title} · Upbeat`;
  }, [session.kind, route, path]);

  // An AI client's consent request: a page of its own, signed in or not (it explains signing in itself).
  if (path === "/connect") {
    return (
      <Suspense fallback={<Loading label="Loading the request…" />}>
        <ConnectPage search={search} />
      </Suspense>
    );
  }

  if (session.kind === "loading") {
    return (
      <main id="main" className="signin">
        <Loading label="Loading your dashboard…" />
      </main>
    );
  }
  if (session.kind === "signed-out") {
    return (
      <Suspense fallback={<Loading />}>
        <SignedOut {...(session.reason ? { reason: session.reason } : {})} />
      </Suspense>
    );
  }
  if (session.kind === "error") {
    return (
      <main id="main" className="signin">
        <div className="signin-card">
          <ErrorState error={session.error} onRetry={() => void me.refetch()} title="The dashboard could not load" />
        </div>
      </main>
    );
  }
  const allowed = !route?.admin || session.me.role === "admin";
  return (
    <Layout me={session.me} path={path} onSignedOut={() => endSession("You have signed out.")}>
      <Suspense fallback={<Loading />}>{allowed ? route?.element : <AdminOnly />}</Suspense>
    </Layout>
  );
}
