import { findInstallation } from "../../chat/installations.repo.ts";
import type { Deps } from "../../deps.ts";
import { escapeHtml, htmlPage } from "../../lib/html.ts";
import { configuredTeamId } from "./configured-workspace.ts";

/**
 * What `/install` and the OAuth callback show when the instance serves the one workspace of CHAT_BOT_TOKEN: there is
 * no OAuth here (the client id and secret are placeholders that must never reach Slack), so they say which workspace
 * it is and how people get in. The reinstall e-mail and the sign-in pages link to `/install` too: when Slack refused
 * the token, this page says how to give a new one.
 */
export async function configuredWorkspacePage(deps: Pick<Deps, "db" | "chat">): Promise<string> {
  const teamId = configuredTeamId(deps);
  const inst = teamId ? await findInstallation(deps.db, teamId) : undefined;
  const which = inst ? `<strong>${escapeHtml(inst.teamName)}</strong>` : "the workspace of its bot token";
  const refused = inst?.tokenRefusedAt
    ? `<p>Slack no longer accepts its bot token (${escapeHtml(inst.tokenRefusedError ?? "refused")}). In Slack, open the ` +
      "app's <em>OAuth &amp; Permissions</em> page, press <em>Install to Workspace</em>, set the Bot User OAuth Token " +
      "it shows as <code>CHAT_BOT_TOKEN</code> and restart Upbeat. Standups, answers and settings are kept.</p>"
    : "";
  return htmlPage(
    "Upbeat: one workspace",
    `<h1>Nothing to install</h1>
<p>This Upbeat serves one Slack workspace, ${which}, installed with its bot token (<code>CHAT_BOT_TOKEN</code>): there is nothing to install and no other workspace can be added here.</p>
${refused}<p>To sign in, type <code>/upbeat</code> in Slack and press <strong>Open dashboard</strong>, or open the Upbeat app's Home tab. The workspace's admins and owners are Upbeat admins.</p>`,
  );
}
