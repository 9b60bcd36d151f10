import { emojify } from "../../contract/index.ts";
import { escapeHtml } from "../../lib/html.ts";
import { FEED_DAYS, FEED_MAX_RESPONSES, type FeedDay, type FeedEntry, type FeedView } from "./feed.service.ts";

/**
 * Self-contained on purpose: the page is served with `default-src 'none'; style-src 'unsafe-inline'`,
 * so only inline CSS works, and nothing on it reaches another origin. Every value is escaped here.
 */
const STYLE = `
:root{color-scheme:light dark;--fg:#1f2328;--muted:#59636e;--bg:#fff;--card:#f6f8fa;--line:#d1d9e0;--bad:#b42318;--bad-bg:#fee4e2}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--muted:#9198a1;--bg:#0d1117;--card:#151b23;--line:#3d444d;--bad:#ffa198;--bad-bg:#4a1b19}}
*{box-sizing:border-box}
body{font:16px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0 auto;max-width:46rem;padding:1.5rem 1rem 3rem;color:var(--fg);background:var(--bg)}
header{margin-bottom:1.5rem}
h1{font-size:1.4rem;margin:0 0 .25rem;overflow-wrap:anywhere}
h2{font-size:1.05rem;margin:2rem 0 .75rem;padding-bottom:.25rem;border-bottom:1px solid var(--line)}
.meta,.note{color:var(--muted);font-size:.875rem;margin:0}
.response{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:.75rem 1rem;margin:0 0 .75rem}
.response.blocked{border-left:4px solid var(--bad)}
.who{display:flex;flex-wrap:wrap;align-items:center;gap:.25rem .5rem;margin:0 0 .5rem}
.name{font-weight:600;overflow-wrap:anywhere}
.mood{font-size:1.1rem}
.badge{font-size:.75rem;font-weight:700;text-transform:uppercase;letter-spacing:.03em;color:var(--bad);background:var(--bad-bg);border-radius:999px;padding:.05rem .55rem}
dl{margin:0}
dt{font-size:.875rem;color:var(--muted);margin-top:.5rem;overflow-wrap:anywhere}
dd{margin:0;white-space:pre-wrap;overflow-wrap:anywhere}
footer{margin-top:2.5rem}
`;

function document(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow"><meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head><body>${body}</body></html>`;
}

/** What people typed: escaped first, then Slack's :shortcodes: become emoji (only emoji are inserted). */
function text(value: string): string {
  return emojify(escapeHtml(value));
}

function renderEntry(e: FeedEntry): string {
  const mood = e.mood ? `<span class="mood" title="Mood">${escapeHtml(e.mood)}</span>` : "";
  const badge = e.hasBlocker ? `<span class="badge">Blocker</span>` : "";
  const edited = e.edited ? " · edited" : "";
  const answers = e.answers.map((a) => `<dt>${text(a.question)}</dt><dd>${text(a.answer)}</dd>`).join("");
  return `<article class="response${e.hasBlocker ? " blocked" : ""}">
<p class="who"><span class="name">${escapeHtml(e.name)}</span>${mood}${badge}<span class="meta">${escapeHtml(e.standup)} · ${escapeHtml(e.time)}${edited}</span></p>
<dl>${answers}</dl>
</article>`;
}

function renderDay(d: FeedDay): string {
  return `<section><h2><time datetime="${escapeHtml(d.date)}">${escapeHtml(d.heading)}</time></h2>
${d.entries.map(renderEntry).join("\n")}
</section>`;
}

export function feedPage(view: FeedView): string {
  const days =
    view.days.length === 0
      ? `<p class="note">No standup responses in the last ${FEED_DAYS} days.</p>`
      : view.days.map(renderDay).join("\n");
  const truncated = view.truncated
    ? `<p class="note">Showing the ${FEED_MAX_RESPONSES} most recent responses.</p>`
    : "";
  return document(
    `${view.teamName} standups`,
    `<header><h1>${escapeHtml(view.teamName)} standups</h1>
<p class="meta">The last ${FEED_DAYS} days, newest first. Times in ${escapeHtml(view.timezone)}.</p></header>
<main>${days}${truncated}</main>
<footer><p class="note">A read-only feed from Upbeat.</p></footer>`,
  );
}

export function feedNotFoundPage(): string {
  return document(
    "Feed not found",
    `<main><h1>Feed not found</h1><p>This feed link is not valid. It may have been replaced or revoked; ask a workspace admin for the current link.</p></main>`,
  );
}

export function feedMessagePage(title: string, message: string): string {
  return document(title, `<main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p></main>`);
}
