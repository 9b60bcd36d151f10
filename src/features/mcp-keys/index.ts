/** The MCP keys feature's public face: other features (and src/mcp) import from here only. */
export { API_KEY_PLACEHOLDER, type McpClientConfigs, mcpClientConfigs } from "./mcp-config.ts";
export { revokeTeamKeys } from "./mcp-keys.repo.ts";
export { mcpKeyRoutes } from "./mcp-keys.routes.ts";
export {
  authenticateKey,
  type CreatedKey,
  createKey,
  KEY_PREFIX,
  KEY_PREFIX_LENGTH,
  type KeyOwner,
  type KeyView,
  listKeys,
  MCP_SCOPES,
  recordKeyUse,
  revokeKey,
  TOUCH_INTERVAL_MS,
} from "./mcp-keys.service.ts";
export { mcpKeysPersonalData } from "./personal-data.ts";
