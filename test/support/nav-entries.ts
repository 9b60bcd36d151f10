/**
 * Every entry of the dashboard's navigation in the order it is listed, with its group; each page's heading is the
 * entry's label. The browser tests that walk the navigation share this list, so a new page is added in one place.
 */
export const NAV_ENTRIES: { group: string; label: string; path: string; admin?: boolean }[] = [
  { group: "Standups", label: "Overview", path: "" },
  { group: "Standups", label: "Standups", path: "/standups" },
  { group: "Standups", label: "Reports", path: "/reports" },
  { group: "Standups", label: "Analytics", path: "/analytics" },
  { group: "Standups", label: "Blockers", path: "/blockers" },
  { group: "People", label: "Members", path: "/members", admin: true },
  { group: "People", label: "Profiles", path: "/profiles", admin: true },
  { group: "People", label: "Time off", path: "/time-off" },
  { group: "People", label: "Calendar", path: "/calendar" },
  { group: "People", label: "Celebrations", path: "/celebrations" },
  { group: "People", label: "Kudos", path: "/kudos" },
  { group: "Connect", label: "Rules", path: "/rules", admin: true },
  { group: "Connect", label: "Webhooks", path: "/webhooks", admin: true },
  { group: "Connect", label: "AI access", path: "/ai-access" },
  { group: "Connect", label: "Public feed", path: "/feed", admin: true },
  { group: "Connect", label: "E-mail", path: "/email", admin: true },
  { group: "You", label: "My profile", path: "/profile" },
];

/** The two viewports every page is checked at. */
export const WIDE = { width: 1280, height: 800 };
export const NARROW = { width: 390, height: 844 };
