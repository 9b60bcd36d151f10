/**
 * Whether a request's Accept header asks for an HTML page rather than JSON: `text/html` is listed (q > 0) and
 * ranks at least as high as `application/json`. Wildcards alone (`*∕*`, what curl and most API clients send)
 * keep JSON, so the machine-readable answer stays the default.
 */
export function prefersHtml(accept: string | undefined): boolean {
  if (!accept) return false;
  let html = 0;
  let json = 0;
  for (const part of accept.split(",")) {
    const [type = "", ...params] = part.split(";").map((s) => s.trim().toLowerCase());
    const qParam = params.find((p) => p.startsWith("q="));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    if (!Number.isFinite(q)) continue;
    if (type === "text/html" || type === "application/xhtml+xml") html = Math.max(html, q);
    else if (type === "application/json") json = Math.max(json, q);
  }
  return html > 0 && html >= json;
}
