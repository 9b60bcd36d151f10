import { Readable } from "node:stream";
import { z } from "zod";
import {
  BLOCKER_NOTE_MAX,
  blockerFilterQuery,
  blockerIdParams,
  blockerItem,
  blockerListQuery,
  blockerPage,
  errorBody,
  mutationErrors,
  resolveBlockerInput,
  sessionErrors,
} from "../../contract/index.ts";
import type { Deps } from "../../deps.ts";
import { requireSession } from "../../http/auth.ts";
import type { App } from "../../http/server.ts";
import { resolveFilters } from "../insights/index.ts";
import { BLOCKER_CSV_COLUMNS, blockerCsv } from "./blockers.csv.ts";
import { listBlockers, resolveFromDashboard } from "./blockers.service.ts";

const badQuery = { 400: mutationErrors[400] };
const noStandup = { 404: errorBody.describe("standup is not a standup of this workspace") };

export function blockerRoutes(app: App, deps: Deps): void {
  app.get(
    "/dashboard/api/blockers",
    {
      schema: {
        summary: "Blocker items, paged: open ones first by age (oldest first), resolved ones newest first",
        description:
          "Open items are those of active members in standups that still exist; active_blockers in the stats counts " +
          "the same items. Every signed-in member sees every item, as in Reports.",
        querystring: blockerListQuery,
        response: { 200: blockerPage, ...sessionErrors, ...badQuery, ...noStandup },
      },
    },
    async (req) => {
      const { teamId } = requireSession(req);
      // A standup of another workspace is a 404, as in Reports, so its existence does not leak.
      await resolveFilters(deps, teamId, { schedule_id: req.query.standup });
      return listBlockers(deps, teamId, req.query);
    },
  );

  app.get(
    "/dashboard/api/blockers.csv",
    {
      schema: {
        summary: "The blocker items the filters match, as CSV",
        querystring: blockerFilterQuery,
        response: {
          200: {
            description:
              `RFC 4180 CSV, UTF-8 with a byte order mark, columns ${BLOCKER_CSV_COLUMNS.join(", ")}, in the list's ` +
              "order; a cell a spreadsheet would run as a formula gets a leading ' (as in the answers export)",
            content: { "text/csv": { schema: z.string() } },
          },
          ...sessionErrors,
          ...badQuery,
          ...noStandup,
        },
      },
    },
    async (req, reply) => {
      const { teamId } = requireSession(req);
      await resolveFilters(deps, teamId, { schedule_id: req.query.standup });
      reply
        .header("content-type", "text/csv; charset=utf-8")
        .header("content-disposition", `attachment; filename="blockers-${req.query.status ?? "open"}.csv"`)
        .header("cache-control", "no-store");
      const csv = Readable.from(blockerCsv(deps, teamId, req.query), { objectMode: false });
      // A stream is sent as it is (no serialiser runs); the schema documents the text it carries.
      return reply.send(csv as unknown as string);
    },
  );

  app.post(
    "/dashboard/api/blockers/:id/resolve",
    {
      schema: {
        summary: "Resolve an open blocker item, with an optional note",
        description:
          `The blocker's member or an admin. The note is at most ${BLOCKER_NOTE_MAX} characters. Sends the ` +
          "blocker.resolved webhook event once; resolving an item that is already resolved is a 409.",
        params: blockerIdParams,
        body: resolveBlockerInput.optional(),
        response: {
          200: blockerItem,
          ...sessionErrors,
          ...mutationErrors,
          403: errorBody.describe("Someone else's blocker and the session is not an admin's, or a cross-site request"),
          404: errorBody.describe("No such blocker in this workspace"),
          409: errorBody.describe("The blocker is already resolved"),
        },
      },
    },
    async (req) => resolveFromDashboard(deps, requireSession(req), req.params.id, req.body?.note),
  );
}
