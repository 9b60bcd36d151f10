import type { FastifyError, FastifyReply, FastifyRequest, onSendHookHandler } from "fastify";
import { z } from "zod";
import { adminErrors, feedToken, html, okBody } from "../../contract/index.ts";
import type { Deps } from "../../deps.ts";
import { requireSession } from "../../http/auth.ts";
import { addressKey, checkRateLimit } from "../../http/rate-limit.ts";
import type { App } from "../../http/server.ts";
import { feedMessagePage, feedNotFoundPage, feedPage } from "./feed.page.ts";
import { issueFeedToken, loadFeed, revokeFeedToken } from "./feed.service.ts";

const FEED_PER_MINUTE = 60;
const HTML = "text/html; charset=utf-8";

/**
 * The page carries a secret in its URL and shows team data: never indexed, cached or leaked via Referer.
 * Framing stays allowed (a team may embed its feed on a wiki or a TV board); the page has no actions to hijack.
 */
const FEED_HEADERS: Record<string, string> = {
  "x-robots-tag": "noindex",
  "referrer-policy": "no-referrer",
  "cache-control": "no-store",
  "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'",
};

const feedHeaders: onSendHookHandler = async (_req, reply, payload) => {
  reply.headers(FEED_HEADERS);
  return payload;
};

/** Failures on /feed stay HTML with the same headers; the generic handler would answer JSON. */
function feedErrorHandler(err: FastifyError, req: FastifyRequest, reply: FastifyReply): void {
  const status =
    typeof err.statusCode === "number" && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
  if (status === 500) req.log.error({ err }, "feed page failed");
  const message = status === 500 ? "The feed could not be shown. Try again later." : "The request could not be served.";
  reply
    .status(status)
    .type(HTML)
    .send(feedMessagePage(status === 500 ? "Something went wrong" : "Bad request", message));
}

const feedPages = {
  200: html("The read-only feed page"),
  404: html("No feed behind this address"),
  429: html(`More than ${FEED_PER_MINUTE} requests a minute from this address`),
};

const feedRoute = {
  // The token is in the URL: keep the per-request info lines (which log the URL) out of the logs.
  logLevel: "warn" as const,
  onSend: feedHeaders,
  errorHandler: feedErrorHandler,
};

export function feedRoutes(app: App, deps: Deps): void {
  app.post(
    "/dashboard/api/feed-token",
    {
      config: { admin: true },
      schema: {
        summary: "Create the public feed token, replacing any earlier one",
        response: { 200: feedToken, ...adminErrors },
      },
    },
    async (req, reply) => {
      const s = requireSession(req);
      // Nothing is read from the body: an empty body and {} are both fine.
      const token = await issueFeedToken(deps, s.teamId, s.userId);
      return reply.header("cache-control", "no-store").send({ token });
    },
  );

  app.delete(
    "/dashboard/api/feed-token",
    {
      config: { admin: true },
      schema: { summary: "Revoke the public feed token", response: { 200: okBody, ...adminErrors } },
    },
    async (req) => {
      await revokeFeedToken(deps, requireSession(req).teamId);
      return { ok: true as const };
    },
  );

  /** Counted per IP before the token is even looked at, so guessing tokens is throttled too. */
  const limited = async (req: FastifyRequest, reply: FastifyReply): Promise<boolean> => {
    const rate = await checkRateLimit(deps, reply, `feed:${addressKey(req.ip)}`, FEED_PER_MINUTE);
    if (rate.allowed) return false;
    reply
      .status(429)
      .type(HTML)
      .send(feedMessagePage("Too many requests", "Too many requests from your address. Wait a minute and reload."));
    return true;
  };
  const notFound = (reply: FastifyReply) => reply.status(404).type(HTML).send(feedNotFoundPage());

  app.get(
    "/feed/:token",
    {
      ...feedRoute,
      schema: {
        summary: "The public feed: recent standup answers, read-only",
        params: z.object({ token: z.string().describe("The feed token; it grants access") }),
        response: feedPages,
      },
    },
    async (req, reply) => {
      if (await limited(req, reply)) return reply;
      const view = await loadFeed(deps, req.params.token);
      if (!view) return notFound(reply);
      return reply.status(200).type(HTML).send(feedPage(view));
    },
  );

  // Any other shape under /feed gets the same 404 page and headers, never the JSON not-found.
  const otherFeedPath = async (req: FastifyRequest, reply: FastifyReply) => {
    if (await limited(req, reply)) return reply;
    return notFound(reply);
  };
  const otherSchema = { summary: "Not a feed address", response: { 404: feedPages[404], 429: feedPages[429] } };
  app.get("/feed", { ...feedRoute, schema: otherSchema }, otherFeedPath);
  app.get("/feed/*", { ...feedRoute, schema: otherSchema }, otherFeedPath);
}
