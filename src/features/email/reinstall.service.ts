import { sql } from "drizzle-orm";
import { rows, type Tx } from "../../db/client.ts";
import type { Deps } from "../../deps.ts";
import { escapeHtml } from "../../lib/html.ts";
import { emailHtml, type Rendered, textFooter } from "./email.layout.ts";

/**
 * Called in the transaction that marks the workspace as needing reinstall (a refused token): claims one e-mail per
 * active admin with an address and queues it, so each admin hears once per mark. Nothing without EMAIL_API_KEY.
 * Returns how many were claimed.
 */
export async function queueReinstallEmails(
  deps: Pick<Deps, "config" | "queue">,
  tx: Tx,
  teamId: string,
  markedAt: Date,
): Promise<number> {
  if (!deps.config.emailApiKey) return 0;
  const at = markedAt.toISOString();
  // Every admin's e-mail of one mark carries the mark's time in its key: a later mark (after a reinstall) is new.
  const prefix = `reinstall:${markedAt.getTime()}:`;
  const claimed = await rows<{ key: string }>(
    tx,
    sql`insert into email_sends (team_id, key, kind, user_id, state, created_at, updated_at)
        select m.team_id, ${prefix} || m.user_id, 'reinstall', m.user_id, 'queued', ${at}::timestamptz, ${at}::timestamptz
        from members m
        where m.team_id = ${teamId} and m.active and m.role = 'admin' and m.email <> ''
        order by m.user_id
        on conflict do nothing
        returning key`,
  );
  if (claimed.length > 0) {
    await deps.queue.enqueueMany(
      "email.send",
      claimed.map((c) => ({ teamId, key: c.key })),
      { tx },
    );
  }
  return claimed.length;
}

/** The admin's notice that Slack no longer accepts Upbeat's token: the same words as the sign-in page. */
export function renderReinstall(r: {
  recipientName: string;
  teamName: string;
  installUrl: string;
  dashboardUrl: string;
  unsubscribeUrl: string;
}): Rendered {
  const subject = `Upbeat stopped working in ${r.teamName}: reinstall it`;
  const what = `Slack no longer accepts Upbeat's token for ${r.teamName}: reinstall it.`;
  const why =
    "Until then no standup is asked or posted, and dashboard sign-ins, MCP keys and the public feed do not work. " +
    "Your standups, answers and settings are kept.";
  const body = [
    `<h1 style="font-size:20px;margin:0 0 8px">Reinstall Upbeat</h1>`,
    `<p>Hi ${escapeHtml(r.recipientName)}, ${escapeHtml(what)}</p>`,
    `<p>${escapeHtml(why)}</p>`,
    `<p><a href="${escapeHtml(r.installUrl)}" style="color:#0b57d0">Reinstall Upbeat</a></p>`,
  ].join("\n");
  const text = [
    "Reinstall Upbeat",
    "",
    `Hi ${r.recipientName}, ${what}`,
    "",
    why,
    "",
    `Reinstall Upbeat: ${r.installUrl}`,
    "",
    textFooter(r.dashboardUrl, r.unsubscribeUrl),
  ].join("\n");
  return { subject, html: emailHtml({ title: subject, body, ...r }), text };
}
