const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(value: unknown): string {
  return String(value ?? "").replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/**
 * A small self-contained page (no external fonts, scripts or images). Every value passed in must be escaped.
 * `headHtml` (a page's own styles) goes after the shared ones, so it can override them.
 */
export function htmlPage(title: string, bodyHtml: string, headHtml = ""): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem;color:#1f2328}
h1{font-size:1.4rem}a{color:#0b57d0}@media (prefers-color-scheme:dark){body{background:#0d1117;color:#e6edf3}a{color:#79c0ff}}</style>${headHtml}
</head><body>${bodyHtml}</body></html>`;
}
