import { createHash } from "node:crypto";
import type { Config } from "../../config.ts";
import { escapeHtml, htmlPage } from "../../lib/html.ts";
import { buildManifest } from "./manifest.ts";
import { isPublicHttpsUrl, type SlackTransport, suggestedTransport } from "./transport.ts";

/**
 * What `GET /` shows a browser while the instance has no Slack credentials: the manifest for this instance, a link
 * that opens Slack's "create app from manifest" dialog with it filled in, and the variables to set next, in order.
 * It has no form and renders no secret (none exists yet, and the tokens are only ever typed into the environment).
 */

/**
 * Slack's app-creation page takes the manifest in the query string: `https://api.slack.com/apps?new_app=1` is the
 * "Create an app" link in Slack's guide to app manifests (docs.slack.dev/app-manifests/configuring-apps-with-app-
 * manifests), and `&manifest_json=<URL-encoded JSON>` fills in the manifest step; the same form is what open-source
 * Slack integrations link to (coder/blink's createSlackAppUrl, among others).
 */
export function createAppUrl(manifest: unknown): string {
  return `https://api.slack.com/apps?new_app=1&manifest_json=${encodeURIComponent(JSON.stringify(manifest))}`;
}

/** Copies the manifest; the button stays hidden without JavaScript (the manifest can still be selected by hand). */
const COPY_SCRIPT = `(() => {
  const button = document.getElementById("copy");
  const manifest = document.getElementById("manifest");
  const status = document.getElementById("copy-status");
  button.hidden = false;
  button.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(manifest.textContent);
      status.textContent = "Copied.";
    } catch {
      const range = document.createRange();
      range.selectNodeContents(manifest);
      getSelection().removeAllRanges();
      getSelection().addRange(range);
      status.textContent = "Selected: press Ctrl+C (⌘C on a Mac) to copy.";
    }
  });
})();`;

/** The page's Content-Security-Policy: nothing loads, only its own styles and the copy script (by hash) run. */
export const SETUP_PAGE_CSP = `default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-${createHash("sha256")
  .update(COPY_SCRIPT)
  .digest("base64")}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

const STYLE = `<style>
body{max-width:46rem}
.lead{font-size:1.05rem}
.mode{padding:.6rem .8rem;border-left:4px solid #2c2d72;background:#f3f3fa}
ol.steps{padding-left:1.4rem}ol.steps>li{margin:0 0 1.1rem;padding-left:.2rem}
.steps h2{font-size:1.05rem;margin:0 0 .3rem}
a.button,button{display:inline-block;font:inherit;font-weight:600;padding:.55rem 1rem;border-radius:6px;cursor:pointer}
a.button{background:#2c2d72;color:#fff;text-decoration:none}
button{background:transparent;color:inherit;border:1px solid #8c959f}
pre{background:#f6f8fa;border:1px solid #d0d7de;border-radius:6px;padding:.75rem;overflow:auto;max-height:22rem;
font-size:.8rem;line-height:1.4}
code{overflow-wrap:anywhere}pre.cmd{white-space:pre-wrap}
.var{font-weight:600}
.note{color:#59636e;font-size:.92rem}
@media (prefers-color-scheme:dark){.mode{background:#161b22;border-color:#8b8fd8}pre{background:#161b22;border-color:#30363d}
a.button{background:#4f46e5}.note{color:#9198a1}}
</style>`;

function modeReason(config: Pick<Config, "appUrl" | "chatAppToken">, transport: SlackTransport): string {
  const url = `<code>${escapeHtml(config.appUrl)}</code>`;
  if (transport === "http") {
    return `<strong>HTTP mode.</strong> Slack sends events, clicks and the <code>/upbeat</code> command to this instance at ${url}, so that address must be reachable from the internet.`;
  }
  const why =
    config.chatAppToken !== undefined
      ? "an app-level token (<code>CHAT_APP_TOKEN</code>) is already set"
      : `Slack cannot reach ${url} (it is not a public https address)`;
  return `<strong>Socket Mode</strong>, because ${why}: Upbeat opens the connection to Slack itself, so it needs no public address.`;
}

const APP_LEVEL_TOKEN_STEP = `<li><h2>Create an app-level token</h2>
In the new app, open <strong>Basic Information → App-Level Tokens</strong>, press <strong>Generate Token and Scopes</strong>,
add the scope <code>connections:write</code> and generate it. The token (<code>xapp-…</code>) is
<span class="var"><code>CHAT_APP_TOKEN</code></span>.</li>`;

const BOT_TOKEN_STEP = `<li><h2>Install the app in your workspace</h2>
Open <strong>Install App</strong>, press <strong>Install to Workspace</strong> and allow. The <strong>Bot User OAuth
Token</strong> (<code>xoxb-…</code>) is <span class="var"><code>CHAT_BOT_TOKEN</code></span>.</li>`;

function socketSteps(): string {
  return `${APP_LEVEL_TOKEN_STEP}
${BOT_TOKEN_STEP}
<li><h2>Start Upbeat again with both tokens</h2>
<pre class="cmd"><code>CHAT_APP_TOKEN=xapp-… CHAT_BOT_TOKEN=xoxb-… npm start</code></pre>
Then, in Slack, invite the bot to a channel (<code>/invite @Upbeat</code>) and type <code>/upbeat</code>.</li>`;
}

function httpSteps(appUrl: string): string {
  return `<li><h2>Copy the signing secret</h2>
In the new app, open <strong>Basic Information → App Credentials</strong>. The <strong>Signing Secret</strong> is
<span class="var"><code>CHAT_SIGNING_SECRET</code></span> (Upbeat checks every request from Slack with it).</li>
${BOT_TOKEN_STEP.replace("</li>", " That is all for one workspace.</li>")}
<li><h2>Or, for several workspaces, the OAuth client</h2>
Instead of the bot token: the <strong>Client ID</strong> and <strong>Client Secret</strong> under <strong>App
Credentials</strong> are <span class="var"><code>CHAT_CLIENT_ID</code></span> and
<span class="var"><code>CHAT_CLIENT_SECRET</code></span>; after the restart, each workspace installs Upbeat at
<code>${escapeHtml(appUrl)}/install</code>.</li>
<li><h2>Start Upbeat again with them</h2>
<pre class="cmd"><code>CHAT_SIGNING_SECRET=… CHAT_BOT_TOKEN=xoxb-… npm start</code></pre>
Slack checks the events URL when the app is created: if Upbeat was not running then, press <strong>Retry</strong>
under <strong>Event Subscriptions</strong>. Then invite the bot to a channel (<code>/invite @Upbeat</code>) and
type <code>/upbeat</code>.</li>`;
}

export function setupPage(config: Pick<Config, "appUrl" | "chatAppToken">): string {
  const transport = suggestedTransport(config);
  const manifest = buildManifest(config.appUrl, transport);
  const other: SlackTransport = transport === "socket" ? "http" : "socket";
  const otherNote =
    other === "http"
      ? isPublicHttpsUrl(config.appUrl)
        ? ""
        : "Slack can reach this instance at a public https address? Set <code>APP_URL</code> to it and this page offers HTTP mode instead."
      : "";
  return htmlPage(
    "Set up Upbeat",
    `<h1>Connect Upbeat to your Slack</h1>
<p class="lead">Upbeat is running, but it is not connected to a Slack workspace yet. Create a Slack app for it from
the manifest below (it describes the bot, its permissions, the events it listens to and the <code>/upbeat</code>
command), give Upbeat the tokens Slack then shows you, and start it again. This page never asks for a token and
never shows one: tokens go into the environment only.</p>
<p class="mode">${modeReason(config, transport)}</p>
<ol class="steps">
<li><h2>Create the Slack app</h2>
<p><a class="button" id="create-app" href="${escapeHtml(createAppUrl(manifest))}" target="_blank" rel="noopener noreferrer">Create the app in Slack</a></p>
Slack opens with this manifest filled in: pick your workspace, press <strong>Next</strong>, then <strong>Create</strong>.
Or paste it yourself at <strong>api.slack.com/apps → Create New App → From an app manifest</strong>:
<pre id="manifest">${escapeHtml(JSON.stringify(manifest, null, 2))}</pre>
<p><button type="button" id="copy" hidden>Copy the manifest</button> <span id="copy-status" role="status"></span></p>
</li>
${transport === "socket" ? socketSteps() : httpSteps(config.appUrl)}
</ol>
<p class="note">In production (<code>NODE_ENV=production</code>) also set <code>APP_URL</code> (the address your team
opens), <code>SESSION_SECRET_KEY</code> (32 or more random characters; it encrypts the stored tokens) and
<code>DATABASE_URL</code> (<code>postgres://…</code>, or <code>pglite://DIR</code> for the embedded database).
Outside production they default to <code>${escapeHtml(config.appUrl)}</code> and values kept in <code>./data</code>. ${otherNote} The manifest on its own: <a href="/chat/manifest?mode=${transport}">/chat/manifest?mode=${transport}</a>
(<a href="/chat/manifest?mode=${other}">${other === "http" ? "HTTP mode" : "Socket Mode"}</a>).</p>
<script>${COPY_SCRIPT}</script>`,
    STYLE,
  );
}
