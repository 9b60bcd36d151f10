import { escapeHtml, htmlPage } from "../../lib/html.ts";

/** What `GET /` shows a browser: what this is and where to go next. Same facts as the JSON answer. */
export function frontDoorPage(version: string, opts: { oneWorkspace?: boolean; socketMode?: boolean } = {}): string {
  const links: [string, string, string][] = [
    // With CHAT_BOT_TOKEN the workspace was installed at start: /install only says which one.
    opts.oneWorkspace
      ? ["/install", "Workspace", "this instance serves one workspace, installed with its bot token"]
      : ["/install", "Add to Slack", "install Upbeat in a workspace (or reinstall it)"],
    ["/dashboard", "Dashboard", "reports, analytics, standups and settings; sign in from Slack"],
    // In Socket Mode the HTTP manifest (request URLs, socket mode off) would describe an app this instance is not.
    opts.socketMode
      ? [
          "/chat/manifest?mode=socket",
          "Slack app manifest",
          "Socket Mode; paste it into Create New App → From an app manifest",
        ]
      : ["/chat/manifest", "Slack app manifest", "paste it into Create New App → From an app manifest"],
    ["/openapi.json", "API description", "OpenAPI 3 for every endpoint"],
    ["/healthz", "Health", "the service and its database"],
  ];
  const items = links
    .map(
      ([href, label, what]) => `<li><a href="${escapeHtml(href)}">${escapeHtml(label)}</a>: ${escapeHtml(what)}</li>`,
    )
    .join("\n");
  return htmlPage(
    "Upbeat",
    `<h1>Upbeat</h1>
<p>A self-hosted standup bot for Slack. Version <code>${escapeHtml(version)}</code>, status <strong>ok</strong>.</p>
<ul>
${items}
</ul>
<p>API clients (no <code>Accept</code> header, <code>*/*</code> or <code>application/json</code>) get <code>{"name", "version", "status"}</code> as JSON here.</p>`,
  );
}
