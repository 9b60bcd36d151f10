import { createRequire } from "node:module";
import type { Page } from "playwright-core";

const require = createRequire(import.meta.url);
/** axe-core's engine as a script: injected into the page, it runs inside Chromium against the real DOM. */
const AXE_SOURCE: string = (require("axe-core") as { source: string }).source;

/**
 * A raw Slack id as a reader would see it: U/C/W/T/B then 6+ capitals or digits with at least one digit (real ids
 * always have one), so capitalised words ("CONNECT", "BLOCKERS") never match.
 */
export const RAW_SLACK_ID = /\b[UCWTB](?=[A-Z0-9]*\d)[A-Z0-9]{6,}\b/g;

/** The ids in a page's visible text. */
export function rawIds(text: string): string[] {
  return [...text.matchAll(RAW_SLACK_ID)].map((m) => m[0]);
}

/** Serious and critical axe findings on the page as it is now, one line each (rule, impact, targets, help). */
export async function axeFindings(page: Page): Promise<string[]> {
  if (!(await page.evaluate<boolean>("typeof window.axe === 'object'"))) {
    // Evaluated rather than added as a <script>: the dashboard's CSP rightly refuses inline scripts.
    await page.evaluate(AXE_SOURCE);
  }
  const violations = await page.evaluate<
    { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[]
  >(`window.axe.run(document, { resultTypes: ["violations"] }).then((r) => r.violations.map((v) => ({
      id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })),
    })))`);
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}) ${v.nodes.map((n) => JSON.stringify(n.target)).join(", ")}: ${v.help}`);
}

/** What `watchPage` keeps of a page. */
export interface PageWatch {
  /** What went wrong since the last call, so each visited page answers for its own. */
  take(): string[];
  /** Resolves once no request of the page has been in flight for `quietMs`. */
  idle(quietMs?: number): Promise<void>;
}

/**
 * Records what goes wrong on a page (console errors, page errors, responses of 400 or more, failed requests) and
 * counts its requests in flight. Playwright's "networkidle" is reached once per document, so after the dashboard's
 * in-app navigation it would not wait at all; counting requests does.
 */
export function watchPage(page: Page): PageWatch {
  let seen: string[] = [];
  const inFlight = new Set<unknown>();
  let lastChange = Date.now();
  const done = (r: unknown) => {
    inFlight.delete(r);
    lastChange = Date.now();
  };
  page.on("request", (r) => {
    inFlight.add(r);
    lastChange = Date.now();
  });
  page.on("requestfinished", done);
  page.on("console", (m) => {
    if (m.type() === "error") seen.push(`console error: ${m.text()}`);
  });
  page.on("pageerror", (e) => seen.push(`page error: ${e.message}`));
  page.on("response", (r) => {
    if (r.status() >= 400) seen.push(`${r.status()} ${r.request().method()} ${new URL(r.url()).pathname}`);
  });
  // A request the page itself abandoned (a query cancelled as its page unmounts or its key changes, the sign-in
  // page's calls as it moves on to the dashboard) did not fail; any other failure counts.
  page.on("requestfailed", (r) => {
    done(r);
    if (r.failure()?.errorText !== "net::ERR_ABORTED")
      seen.push(`failed ${r.method()} ${r.url()}: ${r.failure()?.errorText ?? ""}`);
  });
  return {
    take() {
      const out = seen;
      seen = [];
      return out;
    },
    async idle(quietMs = 250) {
      const until = Date.now() + 15_000;
      while (inFlight.size > 0 || Date.now() - lastChange < quietMs) {
        if (Date.now() > until) throw new Error(`still ${inFlight.size} request(s) in flight after 15 s`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
  };
}

/**
 * Waits until no loading status shows (a query's QueryView shows one from its first render; lazy pages and charts
 * show theirs while their code loads) and then until the requests that follow (chart code, later queries) are done.
 */
export async function settled(page: Page, watch: PageWatch): Promise<void> {
  // A locator, not waitForFunction: the dashboard's CSP forbids the eval that waitForFunction needs.
  await page.locator(".state-loading").first().waitFor({ state: "detached", timeout: 10_000 });
  await watch.idle();
  await page.locator(".state-loading").first().waitFor({ state: "detached", timeout: 10_000 });
}

/**
 * Before a screenshot kept for review: waits until no loading status shows (a query's or a lazy chart's). Charts do
 * not animate (the test browser asks for reduced motion), so once drawn the picture is final: no fixed pause needed.
 */
export async function shown(page: Page): Promise<void> {
  await page.locator(".state-loading").first().waitFor({ state: "detached", timeout: 10_000 });
}

export const sidewaysScroll = (page: Page) =>
  page.evaluate<number>("document.documentElement.scrollWidth - document.documentElement.clientWidth");
