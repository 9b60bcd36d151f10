import { mulberry32 } from "../dev/fake-slack/index.ts";

/** The simulated workspace: who works there, where, and how they tend to answer. Fixed, so every demo looks alike. */

export const DEMO_TEAM = { id: "T0DEMO0001", name: "Northwind Robotics", domain: "northwind" };
export const DEMO_BOT = { token: "xoxb-demo-northwind-bot-token", userId: "U0DEMOBOT1" };
export const DEMO_CHANNELS = [
  { id: "C0DEMOSTND", name: "team-standup" },
  { id: "C0DEMOGNRL", name: "general" },
  { id: "C0DEMOPLAT", name: "platform-standup" },
  { id: "C0DEMOSHIP", name: "shipping" },
];
export const PRODUCT_CHANNEL = DEMO_CHANNELS[0]!;
export const PLATFORM_CHANNEL = DEMO_CHANNELS[2]!;
export const GENERAL_CHANNEL = DEMO_CHANNELS[1]!;

export interface DemoPerson {
  id: string;
  name: string;
  realName: string;
  tz: string;
  admin?: boolean;
  /** Which of the two teams (and standups) they belong to. */
  team: "product" | "platform";
}

const PEOPLE: [string, string][] = [
  ["Maya Okafor", "Europe/London"],
  ["Lucía Fernández", "Europe/Madrid"],
  ["Priya Raman", "Asia/Kolkata"],
  ["Tom Becker", "Europe/Berlin"],
  ["Aiko Tanaka", "Asia/Tokyo"],
  ["Noah Williams", "America/New_York"],
  ["Sofia Rossi", "Europe/Rome"],
  ["Ethan Clarke", "America/Los_Angeles"],
  ["Amara Nwosu", "Africa/Lagos"],
  ["Jonas Lindqvist", "Europe/Stockholm"],
  ["Chloé Martin", "Europe/Paris"],
  ["Diego Alvarez", "America/Mexico_City"],
  ["Hannah Kim", "Asia/Seoul"],
  ["Oliver Smith", "Australia/Sydney"],
  ["Fatima Zahra", "Africa/Casablanca"],
  ["Ravi Patel", "America/Toronto"],
  ["Elena Petrova", "Europe/Sofia"],
  ["Sam Taylor", "America/Chicago"],
  ["Ingrid Hansen", "Europe/Oslo"],
  ["Kwame Mensah", "Africa/Accra"],
  ["Mei Chen", "Asia/Singapore"],
  ["Łukasz Wójcik", "Europe/Warsaw"],
  ["Zoe Anderson", "Pacific/Auckland"],
  ["Arjun Nair", "Asia/Dubai"],
  ["Grace O'Brien", "Europe/Dublin"],
];

/** Slack handles are ASCII ("lucia"); real names keep their accents ("Lucía Fernández"). */
const handle = (realName: string) =>
  realName
    .split(" ")[0]!
    .normalize("NFD")
    .replace(/ł/gi, "l")
    .replace(/[^A-Za-z]/g, "")
    .toLowerCase();

// Even places are the product team (#team-standup, one zone), odd ones the platform team spread around the world.
export const DEMO_PEOPLE: DemoPerson[] = PEOPLE.map(([realName, tz], i) => ({
  id: `U0DEMO${String(i + 1).padStart(4, "0")}`,
  name: handle(realName),
  realName,
  tz,
  team: i % 2 === 0 ? "product" : "platform",
  ...(i === 0 ? { admin: true } : {}),
}));

export const ADMIN = DEMO_PEOPLE[0]!;
/** The demo's "Sign in as a member": an ordinary member of the product team. */
export const MEMBER = DEMO_PEOPLE.find((p) => p.realName === "Lucía Fernández")!;
/** Left the company: deactivated in Slack, so inactive in Upbeat, whom "Add a member" offers (and Slack refuses). */
export const DEPARTED = DEMO_PEOPLE[DEMO_PEOPLE.length - 1]!;
/** The people still at work; the departed one keeps only their past answers. */
export const teamOf = (team: DemoPerson["team"]) => DEMO_PEOPLE.filter((p) => p.team === team && p !== DEPARTED);

export const YESTERDAY = [
  "Finished the retry logic for the uploader",
  "Reviewed three PRs and paired with Sam on the flaky test",
  "Shipped the new onboarding emails",
  "Wrote the migration for the billing tables",
  "Customer call with Acme about SSO, notes in the doc",
  "Fixed the timezone bug in the report export",
  "Profiled the search endpoint: 40% faster now",
  "Drafted the Q3 roadmap section for platform",
  "Closed 12 support tickets",
  "Set up the staging database replica",
  "Design review for the mobile settings screen",
  "Cleaned up feature flags from the spring release",
];

export const TODAY = [
  "Start on the audit log API",
  "Pair with Priya on the payments refactor",
  "Write tests for the scheduler edge cases",
  "Prepare the demo for Thursday",
  "Investigate the memory spike on worker-3",
  "Finish the accessibility fixes on the dashboard",
  "Interview two candidates",
  "Update the runbook for on-call",
  "Ship the CSV import preview",
  "Plan the sprint with the team",
];

export const BLOCKERS_NONE = ["none", "None", "n/a", "Nothing for now", "-", "No blockers :saluting_face:"];
export const BLOCKERS_REAL = [
  "Waiting on security review for the SSO change",
  "No access to the prod logs yet",
  "Blocked on the design for the empty states",
  "CI is red on main since last night",
  "Need a decision on the pricing page copy",
];

export const MOOD_WEIGHTS: [string, number][] = [
  ["😀", 30],
  ["🙂", 38],
  ["😐", 20],
  ["😕", 9],
  ["😫", 3],
];

/** Seeded PRNG shared with the fake's fault injection: the same history on every fresh demo. */
export const rng = mulberry32;

export function pick<T>(r: () => number, xs: readonly T[]): T {
  return xs[Math.floor(r() * xs.length)]!;
}

export function pickWeighted(r: () => number, xs: [string, number][]): string {
  const total = xs.reduce((n, [, w]) => n + w, 0);
  let x = r() * total;
  for (const [v, w] of xs) {
    x -= w;
    if (x < 0) return v;
  }
  return xs[0]![0];
}
