import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Deps } from "../deps.ts";
import { sha256Hex } from "../lib/crypto.ts";
import { AppError, forbidden, unauthorized } from "./errors.ts";
import { enforceRateLimit } from "./rate-limit.ts";

export const SESSION_COOKIE = "svc_session";
export const SESSION_TTL_MS = 30 * 24 * 3600 * 1000;
/** Sliding expiry is written at most once an hour per session, not on every request. */
const EXTEND_AFTER_MS = 3600 * 1000;
const DASHBOARD_API_PER_MINUTE = 600;

/** The signed-in member behind a session, with the role read fresh on every request. */
export interface SessionUser {
  teamId: string;
  userId: string;
  teamName: string;
  role: "admin" | "member";
  expiresAt: Date;
}

/** How auth reads and extends sessions; the session feature supplies it, so this layer never touches its tables. */
export interface SessionLookup {
  findSession(idHash: string, now: Date): Promise<SessionUser | undefined>;
  extendSession(idHash: string, expiresAt: Date): Promise<void>;
}

declare module "fastify" {
  interface FastifyRequest {
    session: SessionUser | null;
  }
  interface FastifyContextConfig {
    /** Route needs role admin. */
    admin?: boolean;
    /** Route needs a workspace admin or a Celebrations admin (its own hook checks; listed for the auth matrix). */
    celebrationsAdmin?: boolean;
    /** Route under /dashboard/api that works without a session. */
    public?: boolean;
  }
}

const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

function sameSiteOrigin(origin: string, req: FastifyRequest, appUrl: string): boolean {
  let o: URL;
  try {
    o = new URL(origin);
  } catch {
    return false;
  }
  if (o.origin === new URL(appUrl).origin) return true;
  // Behind a proxy or on a dev port the request's own host is the site.
  return o.host === req.headers.host;
}

export function requireSession(req: FastifyRequest): SessionUser {
  if (!req.session) throw unauthorized();
  return req.session;
}

/**
 * Every /dashboard/api route needs a session (401), admin routes need the admin role (403), checked
 * before the body is even parsed. Mutations must be same-site and JSON.
 */
export function registerAuth(app: FastifyInstance, deps: Deps, sessions: SessionLookup): void {
  app.decorateRequest("session", null);
  app.addHook("onRequest", async (req: FastifyRequest, reply: FastifyReply) => {
    const url = req.routeOptions.url;
    if (!url?.startsWith("/dashboard/api/")) return;
    if (MUTATING.has(req.method)) {
      const origin = req.headers.origin;
      if (origin && !sameSiteOrigin(origin, req, deps.config.appUrl))
        throw new AppError(403, "cross_site", "Cross-site request refused");
      const type = req.headers["content-type"];
      const hasBody = Number(req.headers["content-length"] ?? 0) > 0 || req.headers["transfer-encoding"] !== undefined;
      if (hasBody && !(type ?? "").toLowerCase().startsWith("application/json")) {
        throw new AppError(415, "unsupported_media_type", "Request body must be application/json");
      }
    }
    if (req.routeOptions.config.public) return;
    const raw = req.cookies[SESSION_COOKIE];
    if (!raw || raw.length > 200) throw unauthorized();
    const idHash = sha256Hex(raw);
    const now = deps.clock.now();
    const user = await sessions.findSession(idHash, now);
    if (!user) throw unauthorized();
    req.session = user;
    if (user.expiresAt.getTime() - now.getTime() < SESSION_TTL_MS - EXTEND_AFTER_MS) {
      await sessions.extendSession(idHash, new Date(now.getTime() + SESSION_TTL_MS));
    }
    await enforceRateLimit(deps, reply, `session:${idHash.slice(0, 32)}`, DASHBOARD_API_PER_MINUTE, now);
    if (req.routeOptions.config.admin && user.role !== "admin") throw forbidden();
  });
}
