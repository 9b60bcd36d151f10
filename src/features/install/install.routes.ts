import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Deps } from "../../deps.ts";
import { enforceRateLimit } from "../../http/rate-limit.ts";
import { escapeHtml, htmlPage } from "../../lib/html.ts";
import { completeInstall, InstallError, installUrl } from "./install.service.ts";

const INSTALL_PER_MINUTE = 30;

function errorPage(message: string): string {
  return htmlPage(
    "Upbeat install",
    `<h1>Upbeat could not be installed</h1><p>${escapeHtml(message)}</p><p><a href="/install">Start the install again</a></p>`,
  );
}

export function installRoutes(app: FastifyInstance, deps: Deps): void {
  app.get("/install", async (req, reply) => {
    await enforceRateLimit(deps, reply, `install:${req.ip}`, INSTALL_PER_MINUTE);
    return reply.redirect(installUrl(deps), 302);
  });

  const callback = async (
    req: FastifyRequest<{ Querystring: { code?: string; state?: string; error?: string } }>,
    reply: FastifyReply,
  ) => {
    await enforceRateLimit(deps, reply, `install:${req.ip}`, INSTALL_PER_MINUTE);
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
