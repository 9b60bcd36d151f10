import { useState } from "react";
import { ConfirmDialog } from "../components/confirm-dialog.tsx";
import { CopyButton } from "../components/copy-button.tsx";
import { PageHeader } from "../components/layout.tsx";
import { Notice, QueryView } from "../components/states.tsx";
import { appUrlOf } from "../lib/ai-clients.ts";
import { useRevokeMcpKey } from "../lib/mutations.ts";
import { useMcpConfig, useMcpKeys } from "../lib/queries.ts";
import type { CreatedMcpKey, McpKey, Me } from "../lib/types.ts";
import { KeyClients, OAuthClients } from "./ai-access-clients.tsx";
import { CreateKey, KeyList, NewKey } from "./ai-access-keys.tsx";
import { ConnectedClients } from "./connected-clients.tsx";

/** Where assistants connect: every client signs in with OAuth at /mcp; keys at /mcp/key are the admins' alternative. */
function ConnectBox({ appUrl, isAdmin }: { appUrl: string; isAdmin: boolean }) {
  const oauthUrl = `${appUrl}/mcp`;
  const keyUrl = `${appUrl}/mcp/key`;
  return (
    <section className="card" aria-labelledby="connect-title">
      <h2 id="connect-title">Connect an assistant</h2>
      <p>
        Every assistant connects to this address and signs in as you: Upbeat shows an approval page where you choose{" "}
        <strong>Read only</strong> or <strong>Read and write</strong>. Whatever it writes is recorded as yours, via MCP.
      </p>
      <div className="secret-row">
        <code className="secret-value">{oauthUrl}</code>
        <CopyButton text={oauthUrl} label="Copy MCP address" className="button button-primary" />
      </div>
      <OAuthClients oauthUrl={oauthUrl} />
      <p className="field-help">
        API keys are the other way, for automation and clients without sign-in: they use <code>{keyUrl}</code> with the
        header <code>Authorization: Bearer &lt;key&gt;</code>.{" "}
        {isAdmin
          ? "You create them below; a read-and-write key acts as you, the admin who made it."
          : "Only an admin creates them, and a read-and-write key acts as that admin: signing in is the way to act as yourself."}
      </p>
    </section>
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
      <ConnectBox appUrl={appUrlOf(configs.data)} isAdmin={isAdmin} />
      <ConnectedClients isAdmin={isAdmin} />
      {isAdmin ? <ApiKeys configs={configs} /> : null}
    </>
  );
}

/** Admins only: keys, and how clients send one. */
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
          <h2 id="config-title">Client configuration with a key</h2>
        </div>
        <QueryView query={configs} loading="Loading configuration…">
          {(data) => <KeyClients configs={data} keyUrl={`${appUrlOf(data)}/mcp/key`} newKey={created?.key} />}
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
