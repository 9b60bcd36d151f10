import { type ReactNode, useEffect, useRef } from "react";
import { useSignOut } from "../lib/mutations.ts";
import { Link } from "../lib/router.tsx";
import type { Me } from "../lib/types.ts";

export interface NavItem {
  to: string;
  label: string;
  admin?: boolean;
}

export const NAV: NavItem[] = [
  { to: "/", label: "Overview" },
  { to: "/standups", label: "Standups" },
  { to: "/reports", label: "Reports" },
  { to: "/analytics", label: "Analytics" },
  { to: "/kudos", label: "Kudos" },
  { to: "/profile", label: "My profile" },
  { to: "/celebrations", label: "Celebrations" },
  { to: "/calendar", label: "Calendar" },
  { to: "/time-off", label: "Time off" },
  { to: "/members", label: "Members", admin: true },
  { to: "/profiles", label: "Profiles", admin: true },
  { to: "/rules", label: "Rules", admin: true },
  { to: "/ai-access", label: "AI access", admin: true },
  { to: "/webhooks", label: "Webhooks", admin: true },
  { to: "/feed", label: "Public feed", admin: true },
  { to: "/email", label: "E-mail", admin: true },
];

function isCurrent(item: NavItem, path: string): boolean {
  return item.to === "/" ? path === "/" : path === item.to || path.startsWith(`${item.to}/`);
}

export function Layout({
  me,
  path,
  onSignedOut,
  children,
}: {
  me: Me;
  path: string;
  onSignedOut: () => void;
  children: ReactNode;
}) {
  const signOut = useSignOut(onSignedOut);
  const items = NAV.filter((item) => !item.admin || me.role === "admin");
  const navRef = useRef<HTMLUListElement>(null);
  // On a narrow screen the menu scrolls sideways: keep the current page's entry in view.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the page changes
  useEffect(() => {
    const list = navRef.current;
    const current = list?.querySelector<HTMLElement>('[aria-current="page"]');
    if (!list || !current) return;
    const left = current.offsetLeft - list.offsetLeft;
    if (left < list.scrollLeft || left + current.offsetWidth > list.scrollLeft + list.clientWidth) {
      list.scrollLeft = left - (list.clientWidth - current.offsetWidth) / 2;
    }
  }, [path]);
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <div className="topbar-inner">
          <Link to="/" className="brand" aria-label="Upbeat overview">
            <span className="brand-mark" aria-hidden="true" />
            <span className="brand-name">Upbeat</span>
          </Link>
          <span className="team" title={me.team_id}>
            {me.team_name}
          </span>
          <div className="account">
            <span className={`badge badge-${me.role}`}>{me.role === "admin" ? "Admin" : "Member"}</span>
            <button
              type="button"
              className="button button-small"
              onClick={() => signOut.mutate()}
              disabled={signOut.isPending}
            >
              Sign out
            </button>
          </div>
        </div>
        <nav className="nav" aria-label="Dashboard">
          <ul className="nav-list" ref={navRef}>
            {items.map((item) => (
              <li key={item.to}>
                <Link to={item.to} className="nav-link" aria-current={isCurrent(item, path) ? "page" : undefined}>
                  {item.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </header>
      <main id="main" className="main" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}

/** The page's h1; receives focus after client-side navigation so screen readers announce the new page. */
export function PageHeader({ title, children, lead }: { title: string; lead?: ReactNode; children?: ReactNode }) {
  return (
    <div className="page-header">
      <div>
        <h1 tabIndex={-1} className="page-title">
          {title}
        </h1>
        {lead ? <p className="page-lead">{lead}</p> : null}
      </div>
      {children ? <div className="page-actions">{children}</div> : null}
    </div>
  );
}
