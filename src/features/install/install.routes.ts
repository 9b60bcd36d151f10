import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Deps } from "../../deps.ts";
import { hitRateLimit } from "../../http/rate-limit.ts";
import { escapeHtml, htmlPage } from "../../lib/html.ts";
import { completeInstall, InstallError, installUrl } from "./install.service.ts";

const INSTALL_PER_MINUTE = 30;

function errorPage(message: string): string {
  return htmlPage(
    "Upbeat install",
    `<h1>Upbeat could not be installed</h1><p>${escapeHtml(message)}</p><p><a href="/install">Start the install again</a></p>`,
  );
}

async function limited(deps: Deps, req: FastifyRequest, reply: FastifyReply): Promise<boolean> {
  const rate = await hitRateLimit(deps.db, `install:${req.ip}`, INSTALL_PER_MINUTE, deps.clock.now());
  if (rate.allowed) return false;
  reply.header("retry-after", String(rate.retryAfterSeconds)).status(429).send({ error: "Too many requests" });
  return true;
}

export function installRoutes(app: FastifyInstance, deps: Deps): void {
  app.get("/install", async (req, reply) => {
    if (await limited(deps, req, reply)) return reply;
    return reply.redirect(installUrl(deps), 302);
  });

  const callback = async (
    req: FastifyRequest<{ Querystring: { code?: string; state?: string; error?: string } }>,
    reply: FastifyReply,
  ) => {
    if (await limited(deps, req, reply)) return reply;
    const q = req.query;
    const str = (v: unknown) => (typeof v === "string" ? v : undefined);
    try {
      const done = await completeInstall(deps, { code: str(q.code), state: str(q.state), error: str(q.error) });
      req.log.info({ team_id: done.teamId }, "workspace installed");
      return reply.redirect(`/dashboard?t=${encodeURIComponent(done.loginToken)}`, 302);
    } catch (err) {
      if (!(err instanceof InstallError)) throw err;
      return reply.status(400).type("text/html; charset=utf-8").send(errorPage(err.message));
    }
  };
  app.get("/oauth/callback", callback);
  app.get("/chat/oauth_redirect", callback);
}
