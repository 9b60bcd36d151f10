import type { ReactNode } from "react";

/** Set by the server on the demo only (`npm run demo`): whom its sign-in links sign in as (the admin, a member). */
function demoMeta(name: string): string | undefined {
  return document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content || undefined;
}

/** Without a session: the only way in is a fresh link from Slack (or, in the demo, the demo's own link). */
export function SignedOut({ reason, children }: { reason?: string; children?: ReactNode }) {
  const demo = demoMeta("upbeat-demo-sign-in");
  const member = demoMeta("upbeat-demo-sign-in-member");
  return (
    <main id="main" className="signin" tabIndex={-1}>
      <div className="signin-card">
        <span className="brand-mark brand-mark-large" aria-hidden="true" />
        <h1>{demo ? "Sign in to the demo" : "Sign in from Slack"}</h1>
        <p>{reason ?? "You are not signed in, or your session has ended."}</p>
        {children}
        {demo && member ? (
          <>
            <p className="signin-demo">
              <a className="button button-primary" href="/demo/sign-in">
                Sign in as the admin
              </a>{" "}
              <a className="button" href="/demo/sign-in?as=member">
                Sign in as a member
              </a>
            </p>
            <p className="muted">
              The admin is {demo}, who can change everything; the member is {member}, who sees what any team member
              sees.
            </p>
          </>
        ) : demo ? (
          <p>
            <a className="button button-primary" href="/demo/sign-in">
              Sign in as {demo}
            </a>
          </p>
        ) : null}
        {demo ? <p className="muted">In a real workspace, people sign in from Slack:</p> : null}
        <ol className="signin-steps">
          <li>
            In Slack, type <code>/upbeat</code> and press <strong>Open dashboard</strong>,
          </li>
          <li>
            or open the <strong>Upbeat</strong> app and use the button on its <strong>Home</strong> tab.
          </li>
        </ol>
        <p className="muted">Each sign-in link works once, for 5 minutes.</p>
      </div>
    </main>
  );
}
