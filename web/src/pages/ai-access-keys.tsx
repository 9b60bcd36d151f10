import { type FormEvent, useState } from "react";
import { CopyButton } from "../components/copy-button.tsx";
import { Empty, FormError } from "../components/states.tsx";
import { relativeTime, SCOPE_WORDS, scopesInWords } from "../lib/ai-clients.ts";
import { formatInstant } from "../lib/format.ts";
import { useCreateMcpKey } from "../lib/mutations.ts";
import type { CreatedMcpKey, McpKey } from "../lib/types.ts";

/** Admins only: API keys for automation and clients without OAuth sign-in (they send a header to /mcp/key). */
export function CreateKey({ onCreated }: { onCreated: (key: CreatedMcpKey) => void }) {
  const [name, setName] = useState("");
  const [write, setWrite] = useState(false);
  const create = useCreateMcpKey();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      { name: name.trim(), write },
      {
        onSuccess: (created) => {
          onCreated(created);
          setName("");
          setWrite(false);
        },
      },
    );
  };
  return (
    <form className="card" onSubmit={submit} noValidate>
      <h2>Create an API key</h2>
      <div className="field">
        <label htmlFor="key-name">Name (optional)</label>
        <input
          id="key-name"
          className="input"
          value={name}
          maxLength={100}
          onChange={(e) => setName(e.target.value)}
          placeholder="e.g. Dana's Cursor"
          autoComplete="off"
        />
      </div>
      <fieldset className="field">
        <legend>What the key may do</legend>
        <div className="field-check">
          <input
            id="key-scope-read"
            type="radio"
            name="key-scope"
            checked={!write}
            onChange={() => setWrite(false)}
            aria-describedby="key-scope-read-help"
          />
          <label htmlFor="key-scope-read">Read only</label>
        </div>
        <p id="key-scope-read-help" className="field-help">
          {SCOPE_WORDS["standups:read"]}, with participation and moods. It cannot change anything.
        </p>
        <div className="field-check">
          <input
            id="key-scope-write"
            type="radio"
            name="key-scope"
            checked={write}
            onChange={() => setWrite(true)}
            aria-describedby="key-scope-write-help"
          />
          <label htmlFor="key-scope-write">Read and write (acts as you)</label>
        </div>
        <p id="key-scope-write-help" className="field-help">
          Also: {SCOPE_WORDS["standups:write"].charAt(0).toLowerCase()}
          {SCOPE_WORDS["standups:write"].slice(1)}. Whatever the assistant writes is recorded as yours, via MCP.
        </p>
      </fieldset>
      <button type="submit" className="button button-primary" disabled={create.isPending}>
        {create.isPending ? "Creating…" : "Create key"}
      </button>
      <FormError error={create.error} />
    </form>
  );
}

export function NewKey({ created, onDone }: { created: CreatedMcpKey; onDone: () => void }) {
  return (
    <section className="card secret" aria-labelledby="new-key-title">
      <h2 id="new-key-title">Your new key{created.name ? `: ${created.name}` : ""}</h2>
      <p>
        <strong>Copy it now.</strong> It is shown only once; Upbeat keeps only a fingerprint of it.{" "}
        {scopesInWords(created.scopes)}.
      </p>
      <div className="secret-row">
        <code className="secret-value">{created.key}</code>
        <CopyButton text={created.key} label="Copy key" className="button button-primary" />
      </div>
      <p className="field-help">
        The Cursor, Claude Code and Claude Desktop snippets below include this key until you close this box; the VS Code
        one never does (VS Code asks for the key).
      </p>
      <button type="button" className="button" onClick={onDone}>
        I have copied it
      </button>
    </section>
  );
}

/** "Read and write · created 3 days ago · last used never". */
function narrowKeyFacts(k: McpKey): string {
  return `${scopesInWords(k.scopes)} · created ${relativeTime(k.created_at)} · last used ${relativeTime(k.last_used_at)}`;
}

export function KeyList({ keys, onRevoke }: { keys: McpKey[]; onRevoke: (key: McpKey) => void }) {
  if (keys.length === 0) {
    return (
      <Empty title="No API keys yet">
        <p>Create one above to connect an assistant that sends a key.</p>
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
            <th scope="col" className="hide-narrow">
              Key
            </th>
            <th scope="col" className="hide-narrow">
              Access
            </th>
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
              <th scope="row">
                {k.name || <span className="muted">Unnamed</span>}
                {/* A phone has no room for the columns: the same facts under the name, as for connected clients. */}
                <div className="grant-meta muted show-narrow">
                  <code>{k.key_prefix}…</code> · {narrowKeyFacts(k)}
                </div>
              </th>
              <td className="hide-narrow">
                <code>{k.key_prefix}…</code>
              </td>
              <td className="hide-narrow">{scopesInWords(k.scopes)}</td>
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
