import { type ReactNode, useId, useState } from "react";
import { CopyButton } from "../components/copy-button.tsx";
import type { McpConfigs } from "../lib/types.ts";

/**
 * How each assistant connects, as README.md and docs/ai.md say it: OAuth on `/mcp` for everyone and every client
 * (it acts as the person who approves it), and API keys on `/mcp/key` as the admins' alternative. The snippets are
 * built here rather than taken from /dashboard/api/mcp-config, whose stdio shape is a kept contract but suits only
 * Claude Desktop (the one client that needs the mcp-remote bridge for a key).
 */

export const API_KEY_PLACEHOLDER = "<API_KEY>";
const SERVER = "upbeat";

const json = (value: unknown) => JSON.stringify(value, null, 2);

interface ClientTab {
  id: string;
  label: string;
  body: ReactNode;
}

/** A segmented choice of clients and the chosen one's steps. */
function ClientTabs({ tabs, legend }: { tabs: ClientTab[]; legend: string }) {
  const [chosen, setChosen] = useState(tabs[0]?.id ?? "");
  const group = useId();
  const tab = tabs.find((t) => t.id === chosen) ?? tabs[0];
  return (
    <>
      <fieldset className="segmented">
        <legend className="sr-only">{legend}</legend>
        {tabs.map((t) => (
          <label key={t.id} className="segment">
            <input type="radio" name={group} value={t.id} checked={t.id === tab?.id} onChange={() => setChosen(t.id)} />
            <span className="segment-label">{t.label}</span>
          </label>
        ))}
      </fieldset>
      <div className="client-steps">{tab?.body}</div>
    </>
  );
}

function Snippet({ text, label }: { text: string; label: string }) {
  return (
    <div className="snippet">
      <pre>
        <code>{text}</code>
      </pre>
      <CopyButton text={text} label={label} />
    </div>
  );
}

/** Everyone: sign in with OAuth at `/mcp`, per client. */
export function OAuthClients({ oauthUrl }: { oauthUrl: string }) {
  const approve = "approve it here, choosing Read only or Read and write";
  const tabs: ClientTab[] = [
    {
      id: "claude",
      label: "Claude",
      body: (
        <p>
          On claude.ai or in Claude Desktop: <strong>Settings → Connectors → Add custom connector</strong>, paste the
          address, <strong>Add</strong>, then <strong>Connect</strong> and {approve}. On Team and Enterprise plans an
          Owner adds the connector first.
        </p>
      ),
    },
    {
      id: "chatgpt",
      label: "ChatGPT",
      body: (
        <p>
          <strong>Settings → Apps → Advanced settings → Developer mode</strong> on, then <strong>Create app</strong>:
          the address, authentication <strong>OAuth</strong>; then {approve}.
        </p>
      ),
    },
    {
      id: "claude-code",
      label: "Claude Code",
      body: (
        <>
          <p>Run this in a terminal:</p>
          <Snippet text={`claude mcp add --transport http ${SERVER} ${oauthUrl}`} label="Copy command" />
          <p>
            Then type <code>/mcp</code> in Claude Code, pick <code>{SERVER}</code> and <strong>Authenticate</strong>: a
            browser opens, and you {approve}.
          </p>
        </>
      ),
    },
    {
      id: "cursor",
      label: "Cursor",
      body: (
        <>
          <p>
            Add this to <code>~/.cursor/mcp.json</code>:
          </p>
          <Snippet text={json({ mcpServers: { [SERVER]: { url: oauthUrl } } })} label="Copy configuration" />
          <p>
            Then in Cursor's MCP settings press <strong>Connect</strong> (or <strong>Login</strong>) beside{" "}
            <code>{SERVER}</code>: a browser opens, and you {approve}.
          </p>
        </>
      ),
    },
    {
      id: "vscode",
      label: "VS Code",
      body: (
        <>
          <p>
            Add this to <code>.vscode/mcp.json</code> in your project (it holds no secret):
          </p>
          <Snippet text={json({ servers: { [SERVER]: { type: "http", url: oauthUrl } } })} label="Copy configuration" />
          <p>
            When the server starts, VS Code offers to sign in: allow it, and {approve}. Then pick the tools in Copilot
            Chat's agent mode.
          </p>
        </>
      ),
    },
  ];
  return <ClientTabs tabs={tabs} legend="Your assistant" />;
}

/** Claude Desktop sends a key only through the mcp-remote bridge: the API's snippet, pointed at the key path. */
function claudeDesktopSnippet(configs: McpConfigs, keyUrl: string, key: string): string {
  const oauthUrl = keyUrl.replace(/\/key$/, "");
  const servers = configs.claude_desktop?.mcpServers ?? {};
  const onKeyPath = Object.fromEntries(
    Object.entries(servers).map(([name, server]) => [
      name,
      { ...server, args: server.args.map((arg) => (arg === oauthUrl ? keyUrl : arg)) },
    ]),
  );
  return json({ mcpServers: onKeyPath }).split(API_KEY_PLACEHOLDER).join(key);
}

/** Admins: the same clients with a key on `/mcp/key`. The key never goes into a file meant to be committed. */
export function KeyClients({ configs, keyUrl, newKey }: { configs: McpConfigs; keyUrl: string; newKey?: string }) {
  const key = newKey ?? API_KEY_PLACEHOLDER;
  const fill = newKey ? "It contains your new key." : `Replace ${API_KEY_PLACEHOLDER} with your key.`;
  const tabs: ClientTab[] = [
    {
      id: "cursor",
      label: "Cursor",
      body: (
        <>
          <p className="field-help">
            Add this to <code>~/.cursor/mcp.json</code>, your own file in your home folder (not a project's{" "}
            <code>.cursor/mcp.json</code>, which may be committed: this holds the key). {fill}
          </p>
          <Snippet
            text={json({ mcpServers: { [SERVER]: { url: keyUrl, headers: { Authorization: `Bearer ${key}` } } } })}
            label="Copy configuration"
          />
        </>
      ),
    },
    {
      id: "vscode",
      label: "VS Code",
      body: (
        <>
          <p className="field-help">
            Add this to <code>.vscode/mcp.json</code> in your project. It holds no key: VS Code asks for it once, in a
            password prompt, and keeps it securely, so the file is safe to commit.
          </p>
          <Snippet
            text={json({
              inputs: [{ type: "promptString", id: "upbeat-key", description: "Upbeat API key", password: true }],
              servers: {
                [SERVER]: {
                  type: "http",
                  url: keyUrl,
                  // biome-ignore lint/suspicious/noTemplateCurlyInString: VS Code's own ${input:…} placeholder
                  headers: { Authorization: "Bearer ${input:upbeat-key}" },
                },
              },
            })}
            label="Copy configuration"
          />
        </>
      ),
    },
    {
      id: "claude-code",
      label: "Claude Code",
      body: (
        <>
          <p className="field-help">
            Run this in a terminal; add <code>--scope user</code> to have it in every project (never{" "}
            <code>--scope project</code>: it would write the key into <code>.mcp.json</code>). {fill}
          </p>
          <Snippet
            text={`claude mcp add --transport http ${SERVER} ${keyUrl} --header "Authorization: Bearer ${key}"`}
            label="Copy command"
          />
        </>
      ),
    },
    {
      id: "claude-desktop",
      label: "Claude Desktop",
      body: (
        <>
          <p className="field-help">
            <strong>Settings → Developer → Edit Config</strong>, in <code>claude_desktop_config.json</code>. With a key
            it runs the <code>npx mcp-remote</code> bridge, so it needs Node.js (or connect it by signing in, above).{" "}
            {fill}
          </p>
          <Snippet text={claudeDesktopSnippet(configs, keyUrl, key)} label="Copy configuration" />
        </>
      ),
    },
  ];
  return <ClientTabs tabs={tabs} legend="Client" />;
}
