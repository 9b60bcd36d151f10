import type { FastifyError, FastifyReply, FastifyRequest, onSendHookHandler } from "fastify";
import { z } from "zod";
import { adminErrors, emailPreferences, html, mutationErrors } from "../../contract/index.ts";
import type { Deps } from "../../deps.ts";
import { requireSession } from "../../http/auth.ts";
import { checkRateLimit } from "../../http/rate-limit.ts";
import type { App } from "../../http/server.ts";
import { getPreferences, preferencesInput, unsubscribe, updatePreferences } from "./preferences.service.ts";
import { confirmPage, donePage, messagePage } from "./unsubscribe.page.ts";
import { readUnsubscribeToken } from "./unsubscribe.token.ts";

export const UNSUBSCRIBE_PER_MINUTE = 60;
/** The one-click POST carries `List-Unsubscribe=One-Click` and nothing more. */
const UNSUBSCRIBE_BODY_LIMIT = 16 * 1024;
const HTML = "text/html; charset=utf-8";

/** The pages carry a signed link in their URL: never indexed, cached, framed or leaked via Referer. */
const PAGE_HEADERS: Record<string, string> = {
  "x-robots-tag": "noindex",
  "referrer-policy": "no-referrer",
  "cache-control": "no-store",
  "content-security-policy":
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
};

const pageHeaders: onSendHookHandler = async (_req, reply, payload) => {
  reply.headers(PAGE_HEADERS);
  return payload;
};

/** Failures on these pages stay pages; the generic handler would answer JSON. */
function pageErrorHandler(err: FastifyError, req: FastifyRequest, reply: FastifyReply): void {
  const status =
    typeof err.statusCode === "number" && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
  if (status === 500) req.log.error({ err }, "unsubscribe page failed");
  reply
    .status(status)
    .type(HTML)
    .send(
      status === 500
        ? messagePage("Something went wrong", "Your request could not be handled. Try again later.")
        : messagePage("Bad request", "The request could not be served."),
    );
}

const pages = {
  200: html("A page: the confirmation with its button (GET), or that the digest is off now (POST)"),
  400: html("The link is not one Upbeat signed (or is over a year old): a page that says so"),
  429: html(`More than ${UNSUBSCRIBE_PER_MINUTE} requests a minute from this address: a page, with Retry-After`),
};

const tokenQuery = z.object({
  // Anything but one string counts as absent: the page then says the link is not valid.
  t: z.string().optional().catch(undefined).describe("The signed unsubscribe token from the e-mail"),
});

export async function emailRoutes(app: App, deps: Deps): Promise<void> {
  app.get(
    "/dashboard/api/email/preferences",
    {
      config: { admin: true },
      schema: {
        summary: "The signed-in admin's e-mail settings, and whether this server sends e-mail",
        response: { 200: emailPreferences, ...adminErrors },
      },
    },
    async (req) => {
      const s = requireSession(req);
      return getPreferences(deps, s.teamId, s.userId);
    },
  );

  app.put(
    "/dashboard/api/email/preferences",
    {
      config: { admin: true },
      schema: {
        summary: "Switch the weekly digest on or off for the signed-in admin",
        body: preferencesInput,
        response: { 200: emailPreferences, ...adminErrors, ...mutationErrors },
      },
    },
    async (req) => {
      const s = requireSession(req);
      return updatePreferences(deps, s.teamId, s.userId, req.body);
    },
  );

  // Encapsulated: the one-click POST is a form (RFC 8058), not JSON, and every answer here is a page.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", { parseAs: "string", bodyLimit: UNSUBSCRIBE_BODY_LIMIT }, (_req, body, done) =>
      done(null, body),
    );
    scope.setErrorHandler(pageErrorHandler);
    scope.addHook("onSend", pageHeaders);

    /** Counted per address before the token is looked at, so guessing is throttled too. True when it answered 429. */
    const refused = async (req: FastifyRequest, reply: FastifyReply): Promise<boolean> => {
      if ((await checkRateLimit(deps, reply, `unsubscribe:${req.ip}`, UNSUBSCRIBE_PER_MINUTE)).allowed) return false;
      reply
        .status(429)
        .type(HTML)
        .send(messagePage("Too many requests", "Too many requests from your address. Wait a minute and try again."));
      return true;
    };
    const invalid = (reply: FastifyReply) =>
      reply
        .status(400)
        .type(HTML)
        .send(
          messagePage(
            "This unsubscribe link is not valid",
            "Use the link from an Upbeat e-mail as it is, or switch the digest off in the Upbeat dashboard, under E-mail.",
          ),
        );
    // The token is in the URL: keep the per-request info lines out of the logs.
    const options = (summary: string, description: string) =>
      ({ logLevel: "warn", schema: { summary, description, querystring: tokenQuery, response: pages } }) as const;

    scope.get(
      "/email/unsubscribe",
      options(
        "The unsubscribe link of an e-mail: a confirmation page",
        "Changes nothing by itself (mail scanners open links): the page's button sends the POST.",
      ),
      async (req: FastifyRequest<{ Querystring: z.output<typeof tokenQuery> }>, reply) => {
        if (await refused(req, reply)) return reply;
        if (!readUnsubscribeToken(deps, req.query.t)) return invalid(reply);
        return reply.status(200).type(HTML).send(confirmPage(req.query.t!));
      },
    );

    scope.post(
      "/email/unsubscribe",
      options(
        "One-click unsubscribe (RFC 8058): switches the weekly digest off",
        "Mail clients post `List-Unsubscribe=One-Click` to the List-Unsubscribe address; the confirmation page's " +
          "button does the same. The signed token in the query names the member; the body is not needed.",
      ),
      async (req: FastifyRequest<{ Querystring: z.output<typeof tokenQuery> }>, reply) => {
        if (await refused(req, reply)) return reply;
        const target = readUnsubscribeToken(deps, req.query.t);
        if (!target) return invalid(reply);
        await unsubscribe(deps, target);
        req.log.info({ team_id: target.teamId }, "weekly digest switched off by unsubscribe link");
        return reply.status(200).type(HTML).send(donePage(deps.config.appUrl));
      },
    );
  });
}
