import { escapeHtml } from "../../lib/html.ts";
import { emailHtml, type Rendered, textFooter } from "./email.layout.ts";

/** The welcome to the person who installed Upbeat: what it does and where to start. */
export function renderWelcome(w: {
  recipientName: string;
  teamName: string;
  dashboardUrl: string;
  unsubscribeUrl: string;
}): Rendered {
  const subject = `Welcome to Upbeat, ${w.teamName}`;
  const steps = [
    "Create a standup in the dashboard: pick a channel, a time and the days it runs.",
    "At that time Upbeat asks everyone in the channel in a DM and posts the answers in a thread.",
    "Every Monday at 09:00 (your workspace's timezone) admins get a digest of the week before by e-mail.",
  ];
  const body = [
    `<h1 style="font-size:20px;margin:0 0 8px">Welcome to Upbeat</h1>`,
    `<p>Hi ${escapeHtml(w.recipientName)}, Upbeat is now installed in ${escapeHtml(w.teamName)}. You are its first admin.</p>`,
    `<ol style="padding-left:18px">${steps.map((s) => `<li>${escapeHtml(s)}</li>`).join("")}</ol>`,
    "<p>In Slack, type <code>/upbeat</code> for help and a link to the dashboard.</p>",
  ].join("\n");
  const text = [
    "Welcome to Upbeat",
    "",
    `Hi ${w.recipientName}, Upbeat is now installed in ${w.teamName}. You are its first admin.`,
    "",
    ...steps.map((s, i) => `${i + 1}. ${s}`),
    "",
    "In Slack, type /upbeat for help and a link to the dashboard.",
    "",
    textFooter(w.dashboardUrl, w.unsubscribeUrl),
  ].join("\n");
  return { subject, html: emailHtml({ title: subject, body, ...w }), text };
}
