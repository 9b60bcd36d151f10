import type { FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { html } from "../../contract/index.ts";
import type { Deps } from "../../deps.ts";
import { addressKey, checkRateLimit } from "../../http/rate-limit.ts";
import type { App } from "../../http/server.ts";
import { escapeHtml, htmlPage } from "../../lib/html.ts";
import { configuredWorkspacePage } from "./configured-workspace.page.ts";
import { singleWorkspace } from "./configured-workspace.ts";
import {
  BROWSER_COOKIE,
  CALLBACK_PATHS,
  completeInstall,
  InstallError,
  STATE_TTL_SECONDS,
  startInstall,
} from "./install.service.ts";

/** Per client address and minute, for /install and the OAuth callback each: one install is one of each. */
export const INSTALL_PER_MINUTE = 30;
const HTML = "text/html; charset=utf-8";

function errorPage(message: string): string {
  return htmlPage(
    "Upbeat install",
    `<h1>Upbeat could not be installed</h1><p>${escapeHtml(message)}</p><p><a href="/install">Start the install again</a></p>`,
  );
}

/** Anything but one string (a repeated parameter) counts as absent: the page then explains what is missing. */
const oneString = z.string().optional().catch(undefined);
const callbackQuery = z.object({
  code: oneString.describe("The OAuth code from Slack"),
  state: oneString.describe("The signed state from /install"),
  error: oneString.describe("Present when the user denied the install"),
});
const tooManyInstalls = {
  429: html(`More than ${INSTALL_PER_MINUTE} a minute from this address: a page, with Retry-After`),
};

function browserCookie(deps: Deps, path: string) {
  return {
    httpOnly: true,
    sameSite: "lax" as const,
    secure: deps.config.appUrl.startsWith("https:"),
    path,
    maxAge: STATE_TTL_SECONDS,
  };
}

/** Browser pages, so over the limit the answer is a page too (checkRateLimit has set Retry-After). */
async function limited(deps: Deps, bucket: "install" | "oauth", req: FastifyRequest, reply: FastifyReply) {
  if ((await checkRateLimit(deps, reply, `${bucket}:${addressKey(req.ip)}`, INSTALL_PER_MINUTE)).allowed) return false;
  reply
    .status(429)
    .type(HTML)
    .send(errorPage("Too many install attempts from your address. Wait a minute and try again."));
  return true;
}

export function installRoutes(app: App, deps: Deps): void {
  const single = singleWorkspace(deps.config);
  app.get(
    "/install",
    {
      schema: {
        summary: "Start installing Upbeat into a Slack workspace",
        response: {
          200: html(
            "One workspace (CHAT_BOT_TOKEN): a page naming the workspace this instance serves; nothing to install",
          ),
          302: z
            .undefined()
            .describe(
              "To Slack's OAuth v2 page, with a signed state bound to this browser by a short-lived cookie; or, on " +
                "an instance with no Slack credentials yet, to / (the setup page)",
            ),
          ...tooManyInstalls,
        },
      },
    },
    async (req, reply) => {
      if (await limited(deps, "install", req, reply)) return reply;
      if (single) return reply.type(HTML).send(await configuredWorkspacePage(deps));
      // No OAuth client configured: Slack would refuse the placeholder client id; the setup page says what to do.
      if (!deps.config.slackConfigured) return reply.redirect("/", 302);
      const { url, browserKey } = startInstall(deps);
      // SameSite=Lax: Slack sends the browser back with a top-level GET, which carries a Lax cookie.
      for (const path of CALLBACK_PATHS) reply.setCookie(BROWSER_COOKIE, browserKey, browserCookie(deps, path));
      return reply.redirect(url, 302);
    },
  );

  const callback = async (
    req: FastifyRequest<{ Querystring: z.output<typeof callbackQuery> }>,
    reply: FastifyReply,
  ) => {
    if (await limited(deps, "oauth", req, reply)) return reply;
    // No OAuth in one-workspace mode: nothing is exchanged (the client id and secret are placeholders).
    if (single)
      return reply
        .status(400)
        .type(HTML)
        .send(await configuredWorkspacePage(deps));
    try {
      const done = await completeInstall(deps, req.query, req.cookies[BROWSER_COOKIE]);
      req.log.info({ team_id: done.teamId }, "workspace installed");
      for (const path of CALLBACK_PATHS) reply.clearCookie(BROWSER_COOKIE, browserCookie(deps, path));
      return reply.redirect(`/dashboard?t=${encodeURIComponent(done.loginToken)}`, 302);
    } catch (err) {
      if (!(err instanceof InstallError)) throw err;
      return reply.status(400).type(HTML).send(errorPage(err.message));
    }
  };
  const callbackSchema = (summary: string) => ({
    summary,
    querystring: callbackQuery,
    response: {
      302: z.undefined().describe("Installed: to /dashboard?t=<login token>, which signs the installer in"),
      400: html(
        "The install failed, was denied or was started in another browser: a page that says why (one workspace, " +
          "CHAT_BOT_TOKEN: the page naming the workspace, as no OAuth happens)",
      ),
      ...tooManyInstalls,
    },
  });
  app.get("/oauth/callback", { schema: callbackSchema("OAuth v2 redirect from Slack") }, callback);
  app.get(
    "/chat/oauth_redirect",
    { schema: callbackSchema("The same callback, at the path Slack apps configure") },
    callback,
  );
}
