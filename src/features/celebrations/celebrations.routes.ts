import type { FastifyRequest } from "fastify";
import { z } from "zod";
import {
  askDatesPreview as askDatesPreviewBody,
  askDatesSent,
  celebrationSettings,
  errorBody,
  holiday,
  holidayImport,
  listedHoliday,
  mutationErrors,
  okBody,
  sessionErrors,
  upcomingCelebration,
  workspaceCalendar,
} from "../../contract/index.ts";
import type { Deps } from "../../deps.ts";
import { requireSession } from "../../http/auth.ts";
import type { App } from "../../http/server.ts";
import { addHoliday, importHolidays, listHolidayViews, removeHoliday } from "./celebrations.holidays.ts";
import { calendarInput, holidayImportInput, holidayInput, settingsInput } from "./celebrations.input.ts";
import {
  askDatesPreview,
  readSettings,
  requireManager,
  sendAskDates,
  writeCalendar,
  writeSettings,
} from "./celebrations.service.ts";
import { upcoming } from "./celebrations.upcoming.ts";

/** Who may change Celebrations: a workspace admin, or one of the Celebrations admins the settings name. */
const managerErrors = {
  ...sessionErrors,
  403: errorBody.describe("Neither a workspace admin nor a Celebrations admin (or a cross-site request)"),
} as const;
const changeErrors = { ...managerErrors, 400: mutationErrors[400], 415: mutationErrors[415] } as const;

/**
 * Celebrations and the workspace calendar on the dashboard. Members read the settings and the holidays; changes,
 * the upcoming list and asking for dates need a workspace admin or a Celebrations admin, checked before the body is
 * read (a member's malformed body is still a 403). Holidays are both kinds of admin's too, but only a workspace
 * admin's skip standups (celebrations.holidays.ts decides, from the caller's role).
 */
export function celebrationRoutes(app: App, deps: Deps): void {
  const manager = async (req: FastifyRequest) => requireManager(deps, requireSession(req));

  app.get(
    "/dashboard/api/celebrations/settings",
    {
      schema: {
        summary: "Celebrations settings, the workspace calendar's zone and working days, and can_react",
        response: { 200: celebrationSettings, ...sessionErrors },
      },
    },
    async (req) => readSettings(deps, requireSession(req)),
  );

  app.put(
    "/dashboard/api/celebrations/settings",
    {
      onRequest: manager,
      config: { celebrationsAdmin: true },
      schema: {
        summary: "Save the Celebrations settings; channel_id, timezone and working_days are required",
        body: settingsInput,
        response: { 200: celebrationSettings, ...changeErrors, 500: errorBody.describe("Slack could not be reached") },
      },
    },
    async (req) => writeSettings(deps, requireSession(req), req.body),
  );

  app.put(
    "/dashboard/api/calendar",
    {
      onRequest: manager,
      config: { celebrationsAdmin: true },
      schema: {
        summary: "Save the workspace calendar (timezone and working days) without setting up Celebrations",
        description:
          "The zone is where 'today' is counted for reports, the feed, MCP, time off and the daily Celebrations post; the working days decide which days Celebrations post on.",
        body: calendarInput,
        response: { 200: workspaceCalendar, ...changeErrors },
      },
    },
    async (req) => writeCalendar(deps, requireSession(req).teamId, req.body),
  );

  app.get(
    "/dashboard/api/celebrations/holidays",
    {
      schema: {
        summary:
          "The workspace's holidays by date (celebrations move before them; standups skip those with skips_standups)",
        response: { 200: z.array(listedHoliday), ...sessionErrors },
      },
    },
    async (req) => listHolidayViews(deps, requireSession(req).teamId),
  );

  app.post(
    "/dashboard/api/celebrations/holidays",
    {
      onRequest: manager,
      config: { celebrationsAdmin: true },
      schema: {
        summary: "Add a holiday, or rename the one on that date",
        description:
          "A workspace admin's holiday skips standups (also when renaming one); a Celebrations admin's new holiday moves Celebrations only, and their renaming keeps whether standups skip it.",
        body: holidayInput,
        response: { 200: holiday.describe("Renamed"), 201: holiday.describe("Added"), ...changeErrors },
      },
    },
    async (req, reply) => {
      const out = await addHoliday(deps, requireSession(req), req.body);
      return reply.status(out.created ? 201 : 200).send(out.holiday);
    },
  );

  app.delete(
    "/dashboard/api/celebrations/holidays/:date",
    {
      onRequest: manager,
      config: { celebrationsAdmin: true },
      schema: {
        summary: "Remove the holiday on that YYYY-MM-DD date",
        description: "A holiday that standups skip can only be removed by a workspace admin (403 Admin required).",
        params: z.object({ date: z.string() }),
        response: {
          200: okBody,
          ...managerErrors,
          403: errorBody.describe(
            "Neither a workspace admin nor a Celebrations admin, a Celebrations admin removing a holiday that standups skip (Admin required), or a cross-site request",
          ),
          400: mutationErrors[400],
          404: errorBody.describe("No holiday on that date in this workspace"),
        },
      },
    },
    async (req) => removeHoliday(deps, requireSession(req), req.params.date),
  );

  app.post(
    "/dashboard/api/celebrations/holidays/import",
    {
      onRequest: manager,
      config: { celebrationsAdmin: true },
      schema: {
        summary:
          "Import holidays from CSV (header date,name; at most 5,000 rows); preview (default true) writes nothing",
        description: "Each row follows the rule of adding one holiday: only a workspace admin's skip standups.",
        body: holidayImportInput,
        response: { 200: holidayImport, ...changeErrors },
      },
    },
    async (req) => importHolidays(deps, requireSession(req), req.body),
  );

  app.get(
    "/dashboard/api/celebrations/upcoming",
    {
      onRequest: manager,
      config: { celebrationsAdmin: true },
      schema: {
        summary: "Every celebration from today through the next 29 days, the day each is posted and whether it was",
        response: { 200: z.array(upcomingCelebration), ...managerErrors },
      },
    },
    async (req) => upcoming(deps, requireSession(req).teamId),
  );

  app.get(
    "/dashboard/api/celebrations/ask-dates",
    {
      onRequest: manager,
      config: { celebrationsAdmin: true },
      schema: {
        summary: "How many people the ask-for-dates DM would reach now, and its text; sends nothing",
        response: { 200: askDatesPreviewBody, ...managerErrors },
      },
    },
    async (req) => askDatesPreview(deps, requireSession(req).teamId),
  );

  app.post(
    "/dashboard/api/celebrations/ask-dates",
    {
      onRequest: manager,
      config: { celebrationsAdmin: true },
      schema: {
        summary: "DM everyone still missing dates (at most once per person per 30 days)",
        response: {
          200: askDatesSent,
          ...managerErrors,
          415: mutationErrors[415],
          409: errorBody.describe("No Celebrations channel and timezone saved yet"),
        },
      },
    },
    async (req) => sendAskDates(deps, requireSession(req).teamId),
  );
}
