import { escapeHtml, htmlPage } from "../../lib/html.ts";

/** The pages of the unsubscribe link: a confirmation with a button (a link checker's GET changes nothing), the result, the refusal. */

export function confirmPage(token: string): string {
  return htmlPage(
    "Unsubscribe from the Upbeat digest",
    `<h1>Stop the weekly Upbeat digest?</h1>
<p>You will no longer get the Monday e-mail with last week's standups. You can switch it back on in the Upbeat dashboard, under E-mail.</p>
<form method="post" action="/email/unsubscribe?t=${encodeURIComponent(token)}">
<input type="hidden" name="List-Unsubscribe" value="One-Click">
<button type="submit">Unsubscribe</button>
</form>`,
  );
}

export function donePage(appUrl: string): string {
  return htmlPage(
    "Unsubscribed",
    `<h1>You are unsubscribed</h1>
<p>Upbeat will not send you the weekly digest any more. To get it again, switch it on in the
<a href="${escapeHtml(`${appUrl}/dashboard/email`)}">Upbeat dashboard</a>.</p>`,
  );
}

export function messagePage(title: string, message: string): string {
  return htmlPage(title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>`);
}
