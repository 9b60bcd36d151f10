import { escapeHtml } from "../../lib/html.ts";

/** The frame every e-mail shares: an HTML document with inline styles, and the plain-text twin's footer. */

export interface Rendered {
  subject: string;
  html: string;
  text: string;
}

/** `body` must be escaped HTML already; `title` and the links are escaped here. */
export function emailHtml(opts: { title: string; body: string; dashboardUrl: string; unsubscribeUrl: string }): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(opts.title)}</title></head>
<body style="margin:0;padding:24px;background:#f6f8fa;font:15px/1.5 -apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;color:#1f2328">
<div style="max-width:600px;margin:0 auto;background:#ffffff;border:1px solid #d0d7de;border-radius:8px;padding:24px">
${opts.body}
<p style="margin-top:24px"><a href="${escapeHtml(opts.dashboardUrl)}" style="color:#0b57d0">Open the Upbeat dashboard</a></p>
</div>
<p style="max-width:600px;margin:16px auto 0;font-size:12px;color:#59636e">You get this because you are an admin of Upbeat in your Slack workspace.
<a href="${escapeHtml(opts.unsubscribeUrl)}" style="color:#59636e">Unsubscribe from the weekly digest</a>, or switch it in the dashboard under E-mail.</p>
</body></html>`;
}

export function textFooter(dashboardUrl: string, unsubscribeUrl: string): string {
  return [
    `Open the Upbeat dashboard: ${dashboardUrl}`,
    "",
    "You get this because you are an admin of Upbeat in your Slack workspace.",
    `Unsubscribe from the weekly digest: ${unsubscribeUrl}`,
  ].join("\n");
}
