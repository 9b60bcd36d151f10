import { useState } from "react";
import { ConfirmDialog } from "../components/confirm-dialog.tsx";
import { CopyButton } from "../components/copy-button.tsx";
import { PageHeader } from "../components/layout.tsx";
import { Notice } from "../components/states.tsx";
import { api, errorMessage } from "../lib/api.ts";

type Pending = "regenerate" | "revoke" | undefined;

export function FeedPage() {
  const [url, setUrl] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [pending, setPending] = useState<Pending>();
  const [error, setError] = useState<string | undefined>();
  const [notice, setNotice] = useState<{ kind: "success" | "error"; text: string } | undefined>();

  const issue = async (regenerated: boolean) => {
    setBusy(true);
    setError(undefined);
    try {
      const { token } = await api.post<{ token: string }>("/feed-token", {});
      setUrl(`${window.location.origin}/feed/${encodeURIComponent(token)}`);
      setNotice({
        kind: "success",
        text: regenerated
          ? "New link created. The old link no longer works."
          : "Link created. Anyone with it can read the feed.",
      });
      setPending(undefined);
    } catch (err) {
      if (pending) setError(errorMessage(err));
      else setNotice({ kind: "error", text: errorMessage(err) });
    } finally {
      setBusy(false);
    }
  };

  const revoke = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await api.delete("/feed-token", {});
      setUrl(undefined);
      setNotice({
        kind: "success",
        text: "The public link is revoked. Nobody can open the feed until you create a new link.",
      });
      setPending(undefined);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <PageHeader
        title="Public feed"
        lead="A read-only web page with the most recent standup answers, for people outside Slack (a wall screen, a stakeholder). Anyone with the link can read it."
      />
      {notice ? (
        <Notice kind={notice.kind} onDismiss={() => setNotice(undefined)}>
          {notice.text}
        </Notice>
      ) : null}
      <section className="card" aria-labelledby="feed-link-title">
        <h2 id="feed-link-title">Feed link</h2>
        {url ? (
          <>
            <div className="field">
              <label htmlFor="feed-url">Link</label>
              <div className="input-group">
                <input
                  id="feed-url"
                  className="input input-mono"
                  value={url}
                  readOnly
                  onFocus={(e) => e.target.select()}
                />
                <CopyButton text={url} label="Copy link" className="button button-primary" />
              </div>
              <p className="field-help">
                Shown only now: Upbeat does not display an existing link again. Copy it, or make a new one later.{" "}
                <a href={url} target="_blank" rel="noreferrer noopener">
                  Open the feed<span className="sr-only"> (new tab)</span>
                </a>
              </p>
            </div>
            <div className="form-actions">
              <button type="button" className="button" onClick={() => setPending("regenerate")} disabled={busy}>
                Regenerate link
              </button>
              <button
                type="button"
                className="button button-danger-outline"
                onClick={() => setPending("revoke")}
                disabled={busy}
              >
                Revoke link
              </button>
            </div>
          </>
        ) : (
          <>
            <p>
              For safety the link is shown only when it is created. If a link exists already, creating one replaces it
              and the old one stops working.
            </p>
            <div className="form-actions">
              <button type="button" className="button button-primary" onClick={() => issue(false)} disabled={busy}>
                {busy ? "Working…" : "Create link"}
              </button>
              <button
                type="button"
                className="button button-danger-outline"
                onClick={() => setPending("revoke")}
                disabled={busy}
              >
                Revoke existing link
              </button>
            </div>
          </>
        )}
      </section>
      <ConfirmDialog
        open={pending === "regenerate"}
        title="Regenerate the link?"
        confirmLabel="Regenerate"
        busy={busy}
        error={error}
        onConfirm={() => issue(true)}
        onCancel={() => setPending(undefined)}
      >
        <p>The current link stops working at once. Anyone using it needs the new one.</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={pending === "revoke"}
        title="Revoke the public link?"
        confirmLabel="Revoke link"
        danger
        busy={busy}
        error={error}
        onConfirm={revoke}
        onCancel={() => setPending(undefined)}
      >
        <p>The feed page stops working for everyone who has the link. You can create a new link later.</p>
      </ConfirmDialog>
    </>
  );
}
