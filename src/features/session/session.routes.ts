import type { FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { html, me, okBody, sessionErrors } from "../../contract/index.ts";
import type { Deps } from "../../deps.ts";
import { requireSession, SESSION_COOKIE, SESSION_TTL_MS } from "../../http/auth.ts";
import { addressKey, hitRateLimit, peekRateLimit } from "../../http/rate-limit.ts";
import type { App } from "../../http/server.ts";
import { randomToken, sha256Hex } from "../../lib/crypto.ts";
import { escapeHtml, htmlPage } from "../../lib/html.ts";
import { ensureMember, SIGN_IN_LOOKUP_MS } from "../members/index.ts";
import { sendDashboardIndex } from "../web/index.ts";
import { AFTER_LOGIN_COOKIE, afterLoginCookieOptions, afterLoginTarget } from "./after-login.ts";
import { issueLoginToken, redeemLoginToken } from "./login-token.ts";
import { deleteSession, insertSession } from "./sessions.repo.ts";

/**
 * Failed sign-ins (bad, expired or used links) per client address and minute; past it every sign-in from that
 * address waits for the next minute. Successful sign-ins are not counted: a whole office behind one address
 * opening the dashboard from the morning DM is never refused.
 */
export const LOGIN_PER_MINUTE = 30;

const REASONS: Record<string, string> = {
  malformed: "This sign-in link is not valid.",
  forged: "This sign-in link is not valid.",
  expired: "This sign-in link has expired. Links work for 5 minutes.",
  used: "This sign-in link was already used. Each link works once.",
  revoked: "This sign-in link was made before Upbeat was removed from the workspace, so it no longer works.",
  member: "Your Slack account is not an active member of this workspace in Upbeat.",
  limited: "Too many sign-in attempts from your address. Wait a minute and try again.",
};

const FRESH_LINK =
  "<p>Type <code>/upbeat</code> in Slack and press <strong>Open dashboard</strong>, or open the Upbeat app's Home tab, to get a fresh link.</p>";

/** The demo has no Slack to give a link: its pages offer the demo sign-in instead. */
function freshLink(deps: Pick<Deps, "config">): string {
  const demo = deps.config.demoSignIn;
  if (!demo) return FRESH_LINK;
  const member = demo.member
    ? ` or <a href="${DEMO_SIGN_IN_PATH}?as=member">as a member (${escapeHtml(demo.member.name)})</a>`
    : "";
  return `<p>This is the demo: <a href="${DEMO_SIGN_IN_PATH}">sign in as ${escapeHtml(demo.name)}</a>${member}.</p>`;
}

/** Demo only: a fresh sign-in link for the demo's admin (or, `?as=member`, its member) on every visit. */
export const DEMO_SIGN_IN_PATH = "/demo/sign-in";

function signInHelp(reason: string, help = FRESH_LINK): string {
  return htmlPage("Sign in to Upbeat", `<h1>Sign in from Slack</h1><p>${escapeHtml(reason)}</p>\n${help}`);
}

/** Nothing in Slack can give a fresh link until an admin adds the app again. */
const notInstalledPage = () =>
  signInHelp(
    "Upbeat is not installed in this Slack workspace any more.",
    '<p>An admin of the workspace can add it again at <a href="/install">/install</a>; then sign in from Slack.</p>',
  );

/** Slack refused the workspace's token (revoked, expired, deactivated): only a reinstall brings it back. */
const tokenRefusedPage = (teamName: string) =>
  signInHelp(
    `Slack no longer accepts Upbeat's token for ${teamName}: reinstall it.`,
    '<p>An admin of the workspace can reinstall it at <a href="/install">/install</a>; then sign in from Slack. Standups, answers and settings are kept.</p>',
  );

type LoginRequest = FastifyRequest<{ Querystring: z.output<typeof loginQuery> }>;

const GONE = new Set(["expired", "used", "revoked"]);

async function exchange(deps: Deps, req: LoginRequest, reply: FastifyReply) {
  // Checked before the token is looked at; over the limit peekRateLimit has set Retry-After.
  const bucket = `login:${addressKey(req.ip)}`;
  if (!(await peekRateLimit(deps, reply, bucket, LOGIN_PER_MINUTE)).allowed) {
    return reply
      .status(429)
      .type("text/html; charset=utf-8")
      .send(signInHelp(REASONS.limited!, freshLink(deps)));
  }
  const result = await redeemLoginToken(deps, req.query.t);
  if (!result.ok) {
    await hitRateLimit(deps.db, bucket, LOGIN_PER_MINUTE, deps.clock.now());
    // The demo's workspace was deleted or uninstalled: its /install (the fake Slack approves at once) adds it again
    // and signs in, instead of a page that can only say so.
    if ((result.reason === "uninstalled" || result.reason === "token_refused") && deps.config.demoSignIn)
      return reply.redirect("/install", 302);
    if (result.reason === "token_refused")
      return reply.status(403).type("text/html; charset=utf-8").send(tokenRefusedPage(result.teamName));
    if (result.reason === "uninstalled")
      return reply.status(403).type("text/html; charset=utf-8").send(notInstalledPage());
    const status = GONE.has(result.reason) ? 410 : 400;
    return reply
      .status(status)
      .type("text/html; charset=utf-8")
      .send(signInHelp(REASONS[result.reason]!, freshLink(deps)));
  }
  // Someone the member sync has not reached yet (or marked inactive before they came back) is asked about in Slack
  // and added when they are an active person of the workspace.
  const active = await ensureMember(deps, result.teamId, result.userId, { deadlineMs: SIGN_IN_LOOKUP_MS });
  if (!active)
    return reply
      .status(403)
      .type("text/html; charset=utf-8")
      .send(signInHelp(REASONS.member!, freshLink(deps)));
  const now = deps.clock.now();
  const raw = randomToken(32);
  await insertSession(deps.db, {
    idHash: sha256Hex(raw),
    teamId: result.teamId,
    userId: result.userId,
    createdAt: now,
    expiresAt: new Date(now.getTime() + SESSION_TTL_MS),
  });
  reply.setCookie(SESSION_COOKIE, raw, {
    httpOnly: true,
    sameSite: "lax",
    secure: true,
    path: "/",
    maxAge: SESSION_TTL_MS / 1000,
  });
  // An MCP client's authorization request sent the browser here to sign in first: back to its consent page.
  const after = afterLoginTarget(req.cookies[AFTER_LOGIN_COOKIE]);
  if (req.cookies[AFTER_LOGIN_COOKIE] !== undefined) reply.clearCookie(AFTER_LOGIN_COOKIE, afterLoginCookieOptions);
  return reply.redirect(after ?? "/dashboard", 302);
}

/**
 * The dashboard is a single-page app: every visitor gets its index.html, which reads /dashboard/api/me and
 * shows "sign in from Slack" itself on a 401 (as it does on any later 401).
 */
async function placeholder(deps: Deps, _req: FastifyRequest, reply: FastifyReply) {
  return sendDashboardIndex(reply, {
    demoSignIn: deps.config.demoSignIn,
    loopbackImages: deps.outbound.allowPlainHttp,
  });
}

/** A repeated or odd `t` is just not a valid link (""): the page says so, as for any other bad link. */
const loginQuery = z.object({
  t: z.string().optional().catch("").describe("A login token from Slack, valid 5 minutes, used once"),
});

const signInPages = {
  302: z
    .undefined()
    .describe(
      "Signed in: the session cookie is set, on to /dashboard, or to the consent page an MCP client's authorization request was waiting on (the demo: on to /install when its workspace is gone)",
    ),
  400: html("The link is not valid"),
  403: html("The Slack account is not an active member here, or Upbeat is no longer installed in the workspace"),
  410: html("The link expired, was already used, or was made before Upbeat was uninstalled"),
  429: html(
    `More than ${LOGIN_PER_MINUTE} failed sign-ins a minute from this address (Retry-After says when to retry)`,
  ),
};

export function sessionRoutes(app: App, deps: Deps): void {
  const demo = deps.config.demoSignIn;
  if (demo) {
    app.get(
      DEMO_SIGN_IN_PATH,
      {
        schema: {
          summary: "Demo only: sign in as the demo workspace's admin, or (as=member) as one of its members",
          querystring: z.object({
            as: z.enum(["admin", "member"]).optional().catch("admin").describe("Whom to sign in as (admin)"),
          }),
          response: { 302: z.undefined().describe("On to /dashboard/login with a fresh login token") },
        },
      },
      // Relative: the demo is reached as localhost or 127.0.0.1 alike.
      (req, reply) => {
        const userId = req.query.as === "member" && demo.member ? demo.member.userId : demo.userId;
        return reply.redirect(
          `/dashboard/login?t=${encodeURIComponent(issueLoginToken(deps, demo.teamId, userId))}`,
          302,
        );
      },
    );
  }
  app.get(
    "/dashboard/login",
    {
      schema: {
        summary: "Exchange a login token for a session cookie",
        querystring: loginQuery,
        response: signInPages,
      },
    },
    (req, reply) => exchange(deps, req, reply),
  );
  app.get(
    "/dashboard",
    {
      schema: {
        summary: "The dashboard (a single-page app); with ?t= it signs in first",
        querystring: loginQuery,
        response: { 200: html("The dashboard app"), ...signInPages, 503: html("The dashboard is not built yet") },
      },
    },
    (req, reply) => (req.query.t !== undefined ? exchange(deps, req, reply) : placeholder(deps, req, reply)),
  );

  app.post(
    "/dashboard/api/logout",
    { schema: { summary: "End this session", response: { 200: okBody, ...sessionErrors } } },
    async (req, reply) => {
      requireSession(req);
      const raw = req.cookies[SESSION_COOKIE];
      if (raw) await deleteSession(deps.db, sha256Hex(raw));
      reply.clearCookie(SESSION_COOKIE, { path: "/", httpOnly: true, sameSite: "lax", secure: true });
      return { ok: true as const };
    },
  );

  app.get(
    "/dashboard/api/me",
    { schema: { summary: "Who is signed in", response: { 200: me, ...sessionErrors } } },
    async (req) => {
      const s = requireSession(req);
      return {
        user_id: s.userId,
        team_id: s.teamId,
        team_name: s.teamName,
        role: s.role,
        ai_summaries_available: deps.config.llm !== undefined,
      };
    },
  );
}
