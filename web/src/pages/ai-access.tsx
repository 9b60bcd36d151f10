import { useId, useState } from "react";
import { ConfirmDialog } from "../components/confirm-dialog.tsx";
import { CopyButton } from "../components/copy-button.tsx";
import { PageHeader } from "../components/layout.tsx";
import { Empty, Notice, QueryView } from "../components/states.tsx";
import { appUrlOf } from "../lib/ai-clients.ts";
import { useRevokeMcpKey } from "../lib/mutations.ts";
import { useMcpConfig, useMcpKeys } from "../lib/queries.ts";
import type { CreatedMcpKey, McpClientConfig, McpConfigs, McpKey, Me } from "../lib/types.ts";
import { CreateKey, KeyList, NewKey } from "./ai-access-keys.tsx";
import { ConnectBox, ConnectedClients } from "./connected-clients.tsx";

const API_KEY_PLACEHOLDER = "<API_KEY>";

const CLIENTS: Record<string, { label: string; where: string }> = {
  claude_desktop: {
    label: "Claude Desktop",
    where: "Settings → Developer → Edit Config, in claude_desktop_config.json",
  },
  cursor: { label: "Cursor", where: "~/.cursor/mcp.json, or .cursor/mcp.json in a project" },
  vscode: { label: "VS Code", where: ".vscode/mcp.json in your project" },
};

function clientLabel(kind: string): string {
  return CLIENTS[kind]?.label ?? kind.replace(/[_-]+/g, " ").replace(/^\w/, (c) => c.toUpperCase());
}

/** VS Code reads a `servers` map; the others read `mcpServers`. */
function snippetFor(kind: string, config: McpClientConfig, key: string | undefined): string {
  const body = kind === "vscode" && config.servers ? { servers: config.servers } : { mcpServers: config.mcpServers };
  const text = JSON.stringify(body, null, 2);
  return key ? text.split(API_KEY_PLACEHOLDER).join(key) : text;
}

function ClientConfigs({ configs, newKey }: { configs: McpConfigs; newKey: string | undefined }) {
  const kinds = Object.keys(configs) as (keyof McpConfigs)[];
  const [kind, setKind] = useState<keyof McpConfigs>(kinds[0] ?? "claude_desktop");
  const group = useId();
  const config = configs[kind];
  if (kinds.length === 0 || !config) return <Empty title="No client configurations available" />;
  const snippet = snippetFor(kind, config, newKey);
  return (
    <>
      <fieldset className="segmented">
        <legend className="sr-only">Client</legend>
        {kinds.map((k) => (
          <label key={k} className="segment">
            <input type="radio" name={group} value={k} checked={k === kind} onChange={() => setKind(k)} />
            <span className="segment-label">{clientLabel(k)}</span>
          </label>
        ))}
      </fieldset>
      <p className="field-help">
        {CLIENTS[kind]?.where ? `Add this to ${CLIENTS[kind]?.where}. ` : ""}
        {newKey ? "It contains your new key." : `Replace ${API_KEY_PLACEHOLDER} with your key.`} The client runs{" "}
        <code>npx mcp-remote</code>, so it needs Node.js.
      </p>
      <div className="snippet">
        <pre>
          <code>{snippet}</code>
        </pre>
        <CopyButton text={snippet} label="Copy configuration" />
      </div>
    </>
  );
}

export function AiAccessPage({ me }: { me: Me }) {
  const isAdmin = me.role === "admin";
  const configs = useMcpConfig();
  return (
    <>
      <PageHeader
        title="AI access"
        lead="Let AI assistants (Claude, ChatGPT, Cursor, VS Code and other MCP clients) read standup data and, when you allow it, act for you."
      />
      <ConnectBox appUrl={appUrlOf(configs.data)} />
      <ConnectedClients isAdmin={isAdmin} />
      {isAdmin ? <ApiKeys configs={configs} /> : null}
    </>
  );
}

/** Admins only: keys, and the snippets for clients that send one. */
function ApiKeys({ configs }: { configs: ReturnType<typeof useMcpConfig> }) {
  const keys = useMcpKeys();
  const revokeKey = useRevokeMcpKey();
  const [created, setCreated] = useState<CreatedMcpKey | undefined>();
  const [revoking, setRevoking] = useState<McpKey | undefined>();
  const [notice, setNotice] = useState<string | undefined>();

  const revoke = () => {
    if (!revoking) return;
    revokeKey.mutate(revoking.id, {
      onSuccess: () => {
        setNotice(`Revoked ${revoking.name || revoking.key_prefix}. Assistants using it lose access now.`);
        if (created?.id === revoking.id) setCreated(undefined);
        setRevoking(undefined);
      },
    });
  };

  return (
    <>
      {created ? (
        <NewKey created={created} onDone={() => setCreated(undefined)} />
      ) : (
        <CreateKey
          onCreated={(key) => {
            setNotice(undefined);
            setCreated(key);
          }}
        />
      )}
      {notice ? (
        <Notice kind="success" onDismiss={() => setNotice(undefined)}>
          {notice}
        </Notice>
      ) : null}
      <section className="panel" aria-labelledby="keys-title">
        <div className="panel-head">
          <h2 id="keys-title">API keys</h2>
        </div>
        <QueryView query={keys} loading="Loading keys…">
          {(list) => (
            <KeyList
              keys={list}
              onRevoke={(k) => {
                revokeKey.reset();
                setRevoking(k);
              }}
            />
          )}
        </QueryView>
      </section>
      <section className="panel" aria-labelledby="config-title">
        <div className="panel-head">
          <h2 id="config-title">Client configuration</h2>
        </div>
        <QueryView query={configs} loading="Loading configuration…">
          {(data) => <ClientConfigs configs={data} newKey={created?.key} />}
        </QueryView>
      </section>
      <ConfirmDialog
        open={revoking !== undefined}
        title="Revoke this key?"
        confirmLabel="Revoke key"
        danger
        busy={revokeKey.isPending}
        error={revokeKey.error}
        onConfirm={revoke}
        onCancel={() => setRevoking(undefined)}
      >
        <p>
          Assistants using <strong>{revoking?.name || revoking?.key_prefix}</strong> stop working at once. This cannot
          be undone.
        </p>
      </ConfirmDialog>
    </>
  );
}
