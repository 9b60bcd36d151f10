import { type FormEvent, useId, useState } from "react";
import { ConfirmDialog } from "../components/confirm-dialog.tsx";
import { CopyButton } from "../components/copy-button.tsx";
import { PageHeader } from "../components/layout.tsx";
import { Empty, FormError, Notice, QueryView } from "../components/states.tsx";
import { formatInstant } from "../lib/format.ts";
import { useCreateMcpKey, useRevokeMcpKey } from "../lib/mutations.ts";
import { useMcpConfig, useMcpKeys } from "../lib/queries.ts";
import type { CreatedMcpKey, McpClientConfig, McpConfigs, McpKey } from "../lib/types.ts";

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

function CreateKey({ onCreated }: { onCreated: (key: CreatedMcpKey) => void }) {
  const [name, setName] = useState("");
  const create = useCreateMcpKey();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(name.trim(), {
      onSuccess: (created) => {
        onCreated(created);
        setName("");
      },
    });
  };
  return (
    <form className="card" onSubmit={submit} noValidate>
      <h2>Create an API key</h2>
      <div className="field">
        <label htmlFor="key-name">Name (optional)</label>
        <div className="input-group">
          <input
            id="key-name"
            className="input"
            value={name}
            maxLength={100}
            onChange={(e) => setName(e.target.value)}
            placeholder="e.g. Dana's Claude Desktop"
            autoComplete="off"
          />
          <button type="submit" className="button button-primary" disabled={create.isPending}>
            {create.isPending ? "Creating…" : "Create key"}
          </button>
        </div>
        <p className="field-help">
          A key lets an AI assistant read this workspace's standups, blockers, participation and moods. It cannot change
          anything.
        </p>
        <FormError error={create.error} />
      </div>
    </form>
  );
}

function NewKey({ created, onDone }: { created: CreatedMcpKey; onDone: () => void }) {
  return (
    <section className="card secret" aria-labelledby="new-key-title">
      <h2 id="new-key-title">Your new key{created.name ? `: ${created.name}` : ""}</h2>
      <p>
        <strong>Copy it now.</strong> It is shown only once; Upbeat keeps only a fingerprint of it.
      </p>
      <div className="secret-row">
        <code className="secret-value">{created.key}</code>
        <CopyButton text={created.key} label="Copy key" className="button button-primary" />
      </div>
      <p className="field-help">The configuration snippets below include this key until you close this box.</p>
      <button type="button" className="button" onClick={onDone}>
        I have copied it
      </button>
    </section>
  );
}

function KeyList({ keys, onRevoke }: { keys: McpKey[]; onRevoke: (key: McpKey) => void }) {
  if (keys.length === 0) {
    return (
      <Empty title="No API keys yet">
        <p>Create one above to connect an AI assistant.</p>
      </Empty>
    );
  }
  return (
    <div className="table-wrap">
      <table className="table">
        <caption className="sr-only">API keys</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Key</th>
            <th scope="col" className="hide-narrow">
              Created
            </th>
            <th scope="col" className="hide-narrow">
              Last used
            </th>
            <th scope="col">
              <span className="sr-only">Status and actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {keys.map((k) => (
            <tr key={k.id} className={k.active ? undefined : "row-inactive"}>
              <th scope="row">{k.name || <span className="muted">Unnamed</span>}</th>
              <td>
                <code>{k.key_prefix}…</code>
              </td>
              <td className="hide-narrow">{formatInstant(k.created_at)}</td>
              <td className="hide-narrow">{formatInstant(k.last_used_at)}</td>
              <td className="actions-cell">
                {k.active ? (
                  <button
                    type="button"
                    className="button button-small button-danger-outline"
                    onClick={() => onRevoke(k)}
                  >
                    Revoke<span className="sr-only"> key {k.name || k.key_prefix}</span>
                  </button>
                ) : (
                  <span className="badge badge-paused">Revoked</span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
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

export function AiAccessPage() {
  const keys = useMcpKeys();
  const configs = useMcpConfig();
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
      <PageHeader
        title="AI access"
        lead="Let AI assistants (Claude, Cursor, VS Code and other MCP clients) read standup data with an API key."
      />
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
          <h2 id="keys-title">Keys</h2>
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
