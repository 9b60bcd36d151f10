/** Stands in for the real key; the dashboard tells the admin to paste theirs over it. */
export const API_KEY_PLACEHOLDER = "<API_KEY>";
export const MCP_SERVER_NAME = "upbeat";

export interface StdioServer {
  command: string;
  args: string[];
  env: Record<string, string>;
}

export interface ClientConfig {
  mcpServers: Record<string, StdioServer>;
  /** VS Code's `.vscode/mcp.json` names the map `servers` and wants a `type`. */
  servers?: Record<string, StdioServer & { type: "stdio" }>;
}

export type McpClientConfigs = Record<"claude_desktop" | "cursor" | "vscode", ClientConfig>;

/**
 * Every client launches `mcp-remote`, which bridges stdio to our Streamable HTTP endpoint for keys (`/mcp/key`:
 * it advertises no OAuth, so a client holding a key never starts an OAuth flow instead of sending it).
 * The header value comes from an environment variable and the argument carries no space:
 * mcp-remote's documented workaround for Claude Desktop and Cursor on Windows, which split
 * arguments on spaces.
 */
function remoteBridge(appUrl: string): StdioServer {
  return {
    command: "npx",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal ${VAR} that mcp-remote expands from env
    args: ["-y", "mcp-remote", `${appUrl}/mcp/key`, "--header", "Authorization:${AUTH_HEADER}"],
    env: { AUTH_HEADER: `Bearer ${API_KEY_PLACEHOLDER}` },
  };
}

/** Ready-to-paste snippets, keyed by client kind. */
export function mcpClientConfigs(appUrl: string): McpClientConfigs {
  const snippet = (): ClientConfig => ({ mcpServers: { [MCP_SERVER_NAME]: remoteBridge(appUrl) } });
  return {
    claude_desktop: snippet(),
    cursor: snippet(),
    vscode: { ...snippet(), servers: { [MCP_SERVER_NAME]: { type: "stdio", ...remoteBridge(appUrl) } } },
  };
}
