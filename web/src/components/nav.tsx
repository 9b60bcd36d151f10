import { type KeyboardEvent, type MouseEvent, type RefObject, useId } from "react";
import { Link } from "../lib/router.tsx";
import type { Me } from "../lib/types.ts";

export interface NavItem {
  to: string;
  label: string;
  admin?: boolean;
}

export interface NavGroup {
  label: string;
  items: NavItem[];
}

/**
 * The dashboard's pages grouped the way a team lead thinks about them: the standups and what they produced, the
 * people, what Upbeat connects to, and the viewer's own profile. Every page is in exactly one group.
 */
export const NAV_GROUPS: NavGroup[] = [
  {
    label: "Standups",
    items: [
      { to: "/", label: "Overview" },
      { to: "/standups", label: "Standups" },
      { to: "/reports", label: "Reports" },
      { to: "/analytics", label: "Analytics" },
      { to: "/blockers", label: "Blockers" },
    ],
  },
  {
    label: "People",
    items: [
      { to: "/members", label: "Members", admin: true },
      { to: "/profiles", label: "Profiles", admin: true },
      { to: "/time-off", label: "Time off" },
      { to: "/calendar", label: "Calendar" },
      { to: "/celebrations", label: "Celebrations" },
      { to: "/kudos", label: "Kudos" },
    ],
  },
  {
    label: "Connect",
    items: [
      { to: "/rules", label: "Rules", admin: true },
      { to: "/webhooks", label: "Webhooks", admin: true },
      { to: "/ai-access", label: "AI access" },
      { to: "/feed", label: "Public feed", admin: true },
      { to: "/email", label: "E-mail", admin: true },
    ],
  },
  { label: "You", items: [{ to: "/profile", label: "My profile" }] },
];

/** The groups as this person sees them: admin-only entries left out for members, and groups left empty dropped. */
export function navFor(role: Me["role"]): NavGroup[] {
  return NAV_GROUPS.map((group) => ({
    ...group,
    items: group.items.filter((item) => !item.admin || role === "admin"),
  })).filter((group) => group.items.length > 0);
}

export function isCurrent(item: NavItem, path: string): boolean {
  return item.to === "/" ? path === "/" : path === item.to || path.startsWith(`${item.to}/`);
}

/**
 * The navigation: a sidebar on wide screens; on narrow ones the same list, shown while the menu button's
 * disclosure is open (CSS decides which by width, so both are one list in one order for keyboard and screen readers).
 */
export function SideNav({
  id,
  me,
  path,
  open,
  onClose,
  toggleRef,
}: {
  id: string;
  me: Me;
  path: string;
  open: boolean;
  onClose: () => void;
  toggleRef: RefObject<HTMLButtonElement | null>;
}) {
  const prefix = useId();
  // Choosing an entry closes the menu, also when it is the page already shown (the path would not change then).
  const onClick = (event: MouseEvent<HTMLElement>) => {
    if ((event.target as HTMLElement).closest("a")) onClose();
  };
  // Escape inside the open menu closes it and gives focus back to the button that opened it.
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key !== "Escape" || !open) return;
    event.preventDefault();
    onClose();
    toggleRef.current?.focus();
  };
  return (
    <nav
      id={id}
      className={`sidenav${open ? " is-open" : ""}`}
      aria-label="Dashboard"
      onClick={onClick}
      onKeyDown={onKeyDown}
    >
      {/* On a phone the top bar has no room for the workspace and role: the menu says them. */}
      <p className="nav-context">
        {me.team_name} · {me.role === "admin" ? "Admin" : "Member"}
      </p>
      {navFor(me.role).map((group) => {
        const labelId = `${prefix}-${group.label}`;
        return (
          <div className="nav-group" key={group.label}>
            <p className="nav-group-title" id={labelId}>
              {group.label}
            </p>
            <ul className="nav-list" aria-labelledby={labelId}>
              {group.items.map((item) => (
                <li key={item.to}>
                  <Link to={item.to} className="nav-link" aria-current={isCurrent(item, path) ? "page" : undefined}>
                    {item.label}
                  </Link>
                </li>
              ))}
            </ul>
          </div>
        );
      })}
    </nav>
  );
}
