import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { FastifyReply } from "fastify";
import { AVATAR_HOSTS } from "../../lib/avatars.ts";
import { BUILD_DIR } from "../../lib/build-paths.ts";
import { escapeHtml, htmlPage } from "../../lib/html.ts";

/**
 * Where the dashboard's Vite build is: dist/web (vite.config.ts) under tsx, the compiled server's own web/ once
 * `npm run build` has put it there.
 */
export const WEB_DIST_DIR = fileURLToPath(new URL("web/", BUILD_DIR));

/**
 * The dashboard loads only its own scripts, styles and API; no other site may frame it. Images may also come from
 * Slack's picture hosts (people's avatars), and, in tests and the demo only, from the local fake Slack on 127.0.0.1.
 */
export function dashboardCsp(loopbackImages = false): string {
  const images = ["'self'", "data:", ...AVATAR_HOSTS.map((h) => `https://${h}`)];
  if (loopbackImages) images.push("http://127.0.0.1:*");
  return (
    `default-src 'self'; img-src ${images.join(" ")}; style-src 'self' 'unsafe-inline'; connect-src 'self'; ` +
    "frame-ancestors 'none'"
  );
}

/** The policy a production instance sends. */
export const DASHBOARD_CSP = dashboardCsp();

const pageHeaders = (loopbackImages: boolean | undefined) => ({
  "content-security-policy": dashboardCsp(loopbackImages),
  "referrer-policy": "same-origin",
  "x-frame-options": "DENY",
});

const MISSING_BUILD = htmlPage(
  "Upbeat dashboard not built",
  `<h1>The dashboard is not built yet</h1>
<p>Run <code>npm run build</code> (or <code>npm start</code>, which builds it once when it is missing), then reload this page.</p>`,
);

export interface DashboardIndexOptions {
  /** 404 for an address that is no dashboard page: the app still loads and says so. */
  status?: 200 | 404;
  distDir?: string;
  /** Tests and the demo: pictures from the fake Slack on 127.0.0.1 may load (outbound.allowPlainHttp). */
  loopbackImages?: boolean | undefined;
  /** The demo's "Sign in as …" offer for the signed-out page (config.demoSignIn). */
  demoSignIn?: { name: string; member?: { name: string } | undefined } | undefined;
}

/** The signed-out page reads this tag to offer the demo's sign-in link (web/src/components/signed-out.tsx). */
export const DEMO_SIGN_IN_META = "upbeat-demo-sign-in";
/** The demo's member to sign in as, when it offers one. */
export const DEMO_MEMBER_SIGN_IN_META = "upbeat-demo-sign-in-member";

function demoMeta(demo: NonNullable<DashboardIndexOptions["demoSignIn"]>): string {
  const member = demo.member
    ? `<meta name="${DEMO_MEMBER_SIGN_IN_META}" content="${escapeHtml(demo.member.name)}">`
    : "";
  return `<meta name="${DEMO_SIGN_IN_META}" content="${escapeHtml(demo.name)}">${member}`;
}

/**
 * Answers index.html, the shell of the single-page app. It names the hashed asset files, so it must be
 * revalidated on every load (`no-cache`) while the assets themselves are cached for a year.
 */
export async function sendDashboardIndex(reply: FastifyReply, opts: DashboardIndexOptions = {}): Promise<FastifyReply> {
  let html: string;
  try {
    html = await readFile(join(opts.distDir ?? WEB_DIST_DIR, "index.html"), "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
    return reply
      .status(503)
      .headers({ ...pageHeaders(opts.loopbackImages), "cache-control": "no-store", "retry-after": "30" })
      .type("text/html; charset=utf-8")
      .send(MISSING_BUILD);
  }
  return reply
    .status(opts.status ?? 200)
    .headers({ ...pageHeaders(opts.loopbackImages), "cache-control": "no-cache" })
    .type("text/html; charset=utf-8")
    .send(opts.demoSignIn ? html.replace("</head>", `${demoMeta(opts.demoSignIn)}</head>`) : html);
}
