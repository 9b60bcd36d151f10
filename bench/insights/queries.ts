/**
 * The SQL each insight endpoint runs, called exactly as src/features/insights/insights.service.ts calls
 * it (same repo functions, same arguments, same Promise.all grouping), without HTTP, auth or the JSON
 * shaping around it. Also the per-request queries that come with every /dashboard/api request.
 */

import { REPORTS_PAGE_DEFAULT } from "../../src/contract/index.ts";
import type { Db } from "../../src/db/client.ts";
import { resolveWindow, shiftDate, workspaceTimezone } from "../../src/features/calendar/index.ts";
import {
  blockersByDay,
  moodCounts,
  participationAndMembers,
  participationByDay,
  responseTotals,
  standupsBetween,
  statsFor,
} from "../../src/features/insights/index.ts";
import { findSessionUser } from "../../src/features/session/index.ts";
import { hitRateLimit } from "../../src/http/rate-limit.ts";
import { sha256Hex } from "../../src/lib/crypto.ts";

export interface Endpoint {
  name: string;
  path: string;
  /** The endpoint's SQL, as the service runs it. */
  raw: (db: Db, teamId: string, today: string) => Promise<unknown>;
}

export const ENDPOINTS: Endpoint[] = [
  {
    name: "stats",
    path: "/dashboard/api/stats",
    raw: (db, teamId, today) => statsFor(db, teamId, today, shiftDate(today, -6), {}, new Date()),
  },
  {
    name: "reports?days=30",
    path: "/dashboard/api/reports?days=30",
    // The first page: the page itself (one row more than the limit, to know there is a next page), the
    // window's participation by day and its totals.
    raw: (db, teamId, today) => {
      const w = resolveWindow({ days: "30" }, today, { defaultDays: 7 });
      return Promise.all([
        standupsBetween(db, teamId, w.from, w.to, { limit: REPORTS_PAGE_DEFAULT + 1 }),
        participationByDay(db, teamId, w.from, w.to, {}, new Date()),
        responseTotals(db, teamId, w.from, w.to, {}),
      ]);
    },
  },
  {
    name: "analytics?days=30",
    path: "/dashboard/api/analytics?days=30",
    raw: (db, teamId, today) => {
      const w = resolveWindow({ days: "30" }, today, { defaultDays: 7 });
      return Promise.all([
        moodCounts(db, teamId, w.from, w.to, {}),
        participationAndMembers(db, teamId, w.from, w.to, {}, new Date()),
        blockersByDay(db, teamId, w.from, w.to, {}),
      ]);
    },
  },
];

export const PER_REQUEST = "per-request auth + timezone";

/**
 * What every dashboard API request adds before the endpoint's own SQL, in the same order: the session
 * lookup and the rate-limit upsert (src/http/auth.ts), then the workspace timezone for "today" (window.ts).
 */
export async function perRequestQueries(db: Db, cookieRaw: string): Promise<void> {
  // cookieRaw is the svc_session value (not the whole "svc_session=…" header).
  const idHash = sha256Hex(cookieRaw);
  const now = new Date();
  const user = await findSessionUser(db, idHash, now);
  if (!user) throw new Error("bench session not found");
  await hitRateLimit(db, `session:${idHash.slice(0, 32)}`, 600, now);
  await workspaceTimezone({ db }, user.teamId);
}
