import { useState } from "react";
import { ConfirmDialog } from "../components/confirm-dialog.tsx";
import { CopyButton } from "../components/copy-button.tsx";
import { PageHeader } from "../components/layout.tsx";
import { Notice, type NoticeMessage } from "../components/states.tsx";
import { errorMessage } from "../lib/api.ts";
import { useIssueFeedToken, useRevokeFeedToken } from "../lib/mutations.ts";

type Pending = "regenerate" | "revoke" | undefined;

export function FeedPage() {
  const [url, setUrl] = useState<string | undefined>();
  const issueToken = useIssueFeedToken();
  const revokeToken = useRevokeFeedToken();
  const busy = issueToken.isPending || revokeToken.isPending;
  const [pending, setPending] = useState<Pending>();
  const [notice, setNotice] = useState<NoticeMessage | undefined>();

  const confirm = (next: Pending) => {
    issueToken.reset();
    revokeToken.reset();
    setPending(next);
  };

  const issue = (regenerated: boolean) =>
    issueToken.mutate(undefined, {
      onSuccess: ({ token }) => {
        setUrl(`${window.location.origin}/feed/${encodeURIComponent(token)}`);
        setNotice({
          kind: "success",
          text: regenerated
            ? "New link created. The old link no longer works."
            : "Link created. Anyone with it can read the feed.",
        });
        setPending(undefined);
      },
      // From the dialog, the dialog shows the error.
      onError: (err) => {
        if (!regenerated) setNotice({ kind: "error", text: errorMessage(err) });
      },
    });

  const revoke = () =>
    revokeToken.mutate(undefined, {
      onSuccess: () => {
        setUrl(undefined);
        setNotice({
          kind: "success",
          text: "The public link is revoked. Nobody can open the feed until you create a new link.",
        });
        setPending(undefined);
      },
    });

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
              <button type="button" className="button" onClick={() => confirm("regenerate")} disabled={busy}>
                Regenerate link
              </button>
              <button
                type="button"
                className="button button-danger-outline"
                onClick={() => confirm("revoke")}
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
                onClick={() => confirm("revoke")}
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
        error={issueToken.error}
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
        error={revokeToken.error}
        onConfirm={revoke}
        onCancel={() => setPending(undefined)}
      >
        <p>The feed page stops working for everyone who has the link. You can create a new link later.</p>
      </ConfirmDialog>
    </>
  );
}
