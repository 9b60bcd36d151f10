import { z } from "zod";
import {
  adminErrors,
  createdMcpKey,
  errorBody,
  mcpConfigs,
  mcpKey,
  mutationErrors,
  okBody,
  sessionErrors,
} from "../../contract/index.ts";
import type { Deps } from "../../deps.ts";
import { requireSession } from "../../http/auth.ts";
import type { App } from "../../http/server.ts";
import { mcpClientConfigs } from "./mcp-config.ts";
import { createKey, createKeyInput, listKeys, revokeKey } from "./mcp-keys.service.ts";

export function mcpKeyRoutes(app: App, deps: Deps): void {
  app.get(
    "/dashboard/api/mcp/keys",
    {
      config: { admin: true },
      schema: {
        summary: "MCP API keys (never the keys themselves)",
        response: { 200: z.array(mcpKey), ...adminErrors },
      },
    },
    async (req) => listKeys(deps, requireSession(req).teamId),
  );

  app.post(
    "/dashboard/api/mcp/keys",
    {
      config: { admin: true },
      schema: {
        summary: "Create an MCP API key; the whole key is in this answer only",
        // The body is optional (the spec), and JSON null counts as no body.
        body: createKeyInput.nullable(),
        response: { 201: createdMcpKey, ...adminErrors, ...mutationErrors },
      },
    },
    async (req, reply) => {
      const s = requireSession(req);
      const created = await createKey(deps, s.teamId, s.userId, req.body ?? {});
      // The whole key is in this body and nowhere else: no cache may keep it.
      return reply.status(201).header("cache-control", "no-store").send(created);
    },
  );

  app.delete(
    "/dashboard/api/mcp/keys/:key_id",
    {
      config: { admin: true },
      schema: {
        summary: "Revoke an MCP API key",
        params: z.object({ key_id: z.string() }),
        response: { 200: okBody, ...adminErrors, 404: errorBody.describe("No such key in this workspace") },
      },
    },
    async (req) => revokeKey(deps, requireSession(req).teamId, req.params.key_id),
  );

  app.get(
    "/dashboard/api/mcp-config",
    {
      schema: {
        summary: "Ready-to-paste MCP client configurations (Claude Desktop, Cursor, VS Code)",
        response: { 200: mcpConfigs, ...sessionErrors },
      },
    },
    async (req) => {
      requireSession(req);
      return mcpClientConfigs(deps.config.appUrl);
    },
  );
}
