import type { FastifyInstance } from "fastify";
import type { Deps } from "../../deps.ts";
import { requireSession } from "../../http/auth.ts";
import { parseBody } from "../../http/validate.ts";
import { mcpClientConfigs } from "./mcp-config.ts";
import { createKey, createKeyInput, listKeys, revokeKey } from "./mcp-keys.service.ts";

export function mcpKeyRoutes(app: FastifyInstance, deps: Deps): void {
  app.get("/dashboard/api/mcp/keys", { config: { admin: true } }, async (req) => {
    return listKeys(deps, requireSession(req).teamId);
  });

  app.post("/dashboard/api/mcp/keys", { config: { admin: true } }, async (req, reply) => {
    const s = requireSession(req);
    const input = parseBody(createKeyInput, req.body);
    const created = await createKey(deps, s.teamId, s.userId, input);
    // The whole key is in this body and nowhere else: no cache may keep it.
    return reply.status(201).header("cache-control", "no-store").send(created);
  });

  app.delete<{ Params: { key_id: string } }>(
    "/dashboard/api/mcp/keys/:key_id",
    { config: { admin: true } },
    async (req) => revokeKey(deps, requireSession(req).teamId, req.params.key_id),
  );

  app.get("/dashboard/api/mcp-config", async (req) => {
    requireSession(req);
    return mcpClientConfigs(deps.config.appUrl);
  });
}
