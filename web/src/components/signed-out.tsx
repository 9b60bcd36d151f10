/** Without a session: the only way in is a fresh link from Slack. */
export function SignedOut({ reason }: { reason?: string }) {
  return (
    <main id="main" className="signin" tabIndex={-1}>
      <div className="signin-card">
        <span className="brand-mark brand-mark-large" aria-hidden="true" />
        <h1>Sign in from Slack</h1>
        <p>{reason ?? "You are not signed in, or your session has ended."}</p>
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
