import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { PACKAGE_VERSION } from "../http/server.ts";
import { getKudos } from "./kudos-tools.ts";
import { getQuestionStats } from "./question-tools.ts";
import { getBlockers, getStandups, getTodayStandups, searchStandups } from "./standup-tools.ts";
import { getSummary } from "./summary-tools.ts";
import type { Tool, ToolContext } from "./tool-kit.ts";
import { getMembers, getMoodSummary, getParticipation, getWorkspaceSummary } from "./workspace-tools.ts";
import { WRITE_TOOLS } from "./write-tools.ts";

export const SERVER_NAME = "upbeat";

export const TOOLS: readonly Tool[] = [
  getStandups,
  getTodayStandups,
  getBlockers,
  getParticipation,
  getMembers,
  searchStandups,
  getWorkspaceSummary,
  getMoodSummary,
  getKudos,
  getQuestionStats,
  getSummary,
  ...WRITE_TOOLS,
];

export const TOOL_NAMES: readonly string[] = TOOLS.map((t) => t.name);

const INSTRUCTIONS =
  "Upbeat runs daily standups in one Slack workspace: each member answers what they did yesterday, what they " +
  "plan today, any blockers, and picks a mood; members also give each other kudos. The read tools (get_…, " +
  "search_standups) are always available and never change anything. With the standups:write scope the write tools " +
  "(submit_standup, skip_standup, set_time_off, give_kudos, resolve_blocker) act as the credential's member only, " +
  "as if they did it in Slack. " +
  "Dates are YYYY-MM-DD in the workspace timezone. Start with get_workspace_summary; use get_members to map " +
  "names to user ids.";

/** The tools a credential with these scopes sees (and may call): the others are neither listed nor callable. */
export function toolsFor(scopes: readonly string[]): readonly Tool[] {
  return TOOLS.filter((t) => scopes.includes(t.scope));
}

/** A fresh server per HTTP request, bound to the workspace and member of the credential that authenticated it. */
export function createMcpServer(ctx: ToolContext): McpServer {
  const server = new McpServer(
    { name: SERVER_NAME, title: "Upbeat", version: PACKAGE_VERSION },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS },
  );
  for (const tool of toolsFor(ctx.scopes)) tool.register(server, ctx);
  return server;
}
