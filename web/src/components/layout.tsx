import { type ReactNode, useEffect, useRef, useState } from "react";
import { Link } from "../lib/router.tsx";
import { useSignOut } from "../lib/sign-out.ts";
import type { Me } from "../lib/types.ts";
import { SideNav } from "./nav.tsx";

const NAV_ID = "dashboard-nav";

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
  /** The narrow screen's menu; on wide screens the sidebar shows whatever this says. */
  const [menuOpen, setMenuOpen] = useState(false);
  const toggleRef = useRef<HTMLButtonElement>(null);
  // A new page (a link, back or forward) closes the menu so the page is what the reader sees.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the page changes
  useEffect(() => setMenuOpen(false), [path]);
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
            <span className={`badge badge-${me.role} account-role`}>{me.role === "admin" ? "Admin" : "Member"}</span>
            <button
              type="button"
              className="button button-small"
              onClick={() => signOut.mutate()}
              disabled={signOut.isPending}
            >
              Sign out
            </button>
          </div>
          {/* Last in the bar so that Tab goes from it straight into the menu it opens. */}
          <button
            ref={toggleRef}
            type="button"
            className="button button-small nav-toggle"
            aria-expanded={menuOpen}
            aria-controls={NAV_ID}
            onClick={() => setMenuOpen((open) => !open)}
            onKeyDown={(event) => {
              if (event.key === "Escape" && menuOpen) setMenuOpen(false);
            }}
          >
            <span className="nav-toggle-icon" aria-hidden="true" />
            Menu
          </button>
        </div>
      </header>
      <div className="frame">
        <SideNav
          id={NAV_ID}
          me={me}
          path={path}
          open={menuOpen}
          onClose={() => setMenuOpen(false)}
          toggleRef={toggleRef}
        />
        <main id="main" className="main" tabIndex={-1}>
          {children}
        </main>
      </div>
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
