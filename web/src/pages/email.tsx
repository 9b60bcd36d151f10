import { useState } from "react";
import { PageHeader } from "../components/layout.tsx";
import { Notice, type NoticeMessage, QueryView } from "../components/states.tsx";
import { errorMessage } from "../lib/api.ts";
import { formatClock } from "../lib/format.ts";
import { useSetDigest } from "../lib/mutations.ts";
import { useEmailPreferences } from "../lib/queries.ts";
import type { EmailPreferences } from "../lib/types.ts";

function DigestSwitch({ prefs }: { prefs: EmailPreferences }) {
  const setDigest = useSetDigest();
  const [notice, setNotice] = useState<NoticeMessage | undefined>();
  const change = (digest: boolean) =>
    setDigest.mutate(digest, {
      onSuccess: (saved) =>
        setNotice({
          kind: "success",
          text: saved.digest ? "The weekly digest is on for you." : "The weekly digest is off for you.",
        }),
      onError: (err) => setNotice({ kind: "error", text: errorMessage(err) }),
    });
  // While saving, the switch shows the state asked for.
  const checked = setDigest.isPending && setDigest.variables !== undefined ? setDigest.variables : prefs.digest;
  return (
    <>
      {notice ? (
        <Notice kind={notice.kind} onDismiss={() => setNotice(undefined)}>
          {notice.text}
        </Notice>
      ) : null}
      <div className="field">
        <div className="field-check">
          <input
            id="digest"
            type="checkbox"
            role="switch"
            checked={checked}
            aria-checked={checked}
            disabled={setDigest.isPending}
            onChange={(e) => change(e.target.checked)}
            aria-describedby="digest-help"
          />
          <label htmlFor="digest">Send me the weekly digest</label>
        </div>
        <p id="digest-help" className="field-help">
          Every Monday at {formatClock("09:00")} in the workspace's timezone: last week's participation, mood and open
          blockers per standup. Each digest also has a one-click unsubscribe link.
        </p>
      </div>
      {prefs.has_address ? null : (
        <p className="muted">Slack shows no e-mail address for you, so Upbeat has nowhere to send it.</p>
      )}
    </>
  );
}

export function EmailPage() {
  const prefs = useEmailPreferences();
  return (
    <>
      <PageHeader
        title="E-mail"
        lead="Upbeat e-mails the person who installed it once, and sends admins a weekly digest of the standups."
      />
      <section className="card" aria-labelledby="email-digest-title">
        <h2 id="email-digest-title">Weekly digest</h2>
        <QueryView query={prefs} loading="Loading your e-mail settings…">
          {(p) =>
            p.email_enabled ? (
              <DigestSwitch prefs={p} />
            ) : (
              <p className="state-title">
                E-mail is off on this server: it sends no e-mail until its operator sets EMAIL_API_KEY.
              </p>
            )
          }
        </QueryView>
      </section>
    </>
  );
}
