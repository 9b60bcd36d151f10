import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { issueLoginToken } from "../../src/features/session/index.ts";
import { ManualClock } from "../../src/lib/clock.ts";
import { createTestApp, type TestApp, type TestAppOptions } from "./app.ts";

/**
 * Debian's headless shell of Chromium (package chromium-headless-shell): the same Chromium build as the `chromium`
 * package, without the desktop browser's layers, and what Playwright itself drives for headless runs. It takes about
 * 45 % less CPU than the full browser for the same test (issue 27: 10.5 against 19 s of Chromium CPU for the
 * navigation test), and the browser tests are half the suite.
 */
const HEADLESS_SHELL = "/usr/bin/chromium-headless-shell";
/** The Chromium the browser tests drive: CHROMIUM_PATH, else Debian's headless shell, else Debian's chromium. */
export const CHROMIUM =
  process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : "/usr/bin/chromium");
/** For `describe.runIf(hasChromium)`: without a Chromium the browser tests are skipped. */
export const hasChromium = existsSync(CHROMIUM);
/** Where the browser tests leave their screenshots. */
export const OUTPUT = join(process.cwd(), "test-output");

/**
 * The shared browser's arguments: the usual ones and those some files used to ask for (sync and component updates
 * off). A file asking for others gets a browser of its own.
 */
const ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--no-first-run",
  "--disable-sync",
  "--disable-component-update",
];

let shared: Promise<Browser> | undefined;

/**
 * The worker's Chromium, launched once and shared by the browser test files the worker runs (vitest keeps the
 * worker's modules between files, `isolate: false`): a launch per file cost ~0.3 s of CPU and ~1 s of wall. Each
 * file gets a fresh context of it (its own cookies, storage and cache), so files do not see each other. Playwright
 * kills the browser when the worker exits.
 */
export function sharedBrowser(): Promise<Browser> {
  shared ??= chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS }).then(
    (browser) => {
      // A browser that crashed or was closed is launched again for the next file, not handed out dead.
      browser.on("disconnected", () => {
        shared = undefined;
      });
      return browser;
    },
    (err: unknown) => {
      shared = undefined;
      throw err;
    },
  );
  return shared;
}

/** Whether this worker has checked the dashboard build already (it does not change during a run). */
let webBuilt = false;

/** An app serving on a local port. */
export interface Served {
  t: TestApp;
  base: string;
}

/** What on a page counts as a problem (a page error always does). */
export interface WatchOptions {
  /** Console errors; a function says which ones (by their text) count. */
  console?: boolean | ((text: string) => boolean);
  /** Dialogs (alert, confirm) count, and are dismissed. */
  dialogs?: boolean;
  /** Responses with status 404. */
  notFound?: boolean;
  /** Requests to any host but the app's (data: URLs aside). */
  otherHosts?: boolean;
}

export interface BrowserOptions {
  /** Options for the test app; its clock is a ManualClock at the real time unless given. */
  app?: TestAppOptions | (() => TestAppOptions);
  /** Runs before the app is created (to start what its options need). */
  before?: () => Promise<void>;
  /** Seeds the app, before it listens. */
  seed?: (t: TestApp) => Promise<void>;
  /** Runs once the app listens and the browser is up. */
  ready?: (web: BrowserHarness) => Promise<void>;
  /** Runs after the browser and the app are closed (to close what `before` or `seed` started). */
  cleanup?: () => Promise<void>;
  /** Chromium arguments beyond the usual ones. */
  args?: string[];
  acceptDownloads?: boolean;
  /** The browser's locale and IANA zone (the machine's when absent), for pages that speak in the viewer's zone. */
  locale?: string;
  timezoneId?: string;
  watch?: WatchOptions;
  /** Watch every page of the context (popups, pages a test opens itself), not only those from newPage/signIn. */
  watchEveryPage?: boolean;
  /** The beforeAll time limit; default 120 s. */
  timeout?: number;
}

export interface BrowserHarness {
  /** The test app (set in beforeAll). */
  readonly t: TestApp;
  /** The app's address, http://127.0.0.1:<port> (set in beforeAll). */
  readonly base: string;
  /** The file's browser context (fresh, on the worker's shared Chromium; set in beforeAll). */
  readonly context: BrowserContext;
  /** Page errors and what `watch` asks for, from the watched pages. */
  readonly problems: string[];
  /** A new, watched page. */
  newPage(): Promise<Page>;
  /**
   * Signs the user in by login link (on `on.page`, else on a new watched page) and waits for /dashboard; then goes
   * to `path` (from the app's root) if given. `on.app` signs in to another app than the harness's own.
   */
  signIn(teamId: string, userId: string, path?: string, on?: { page?: Page; app?: Served }): Promise<Page>;
}

/** Listens on a free local port; returns the base address. */
export async function listen(t: TestApp): Promise<string> {
  await t.app.server.listen({ port: 0, host: "127.0.0.1" });
  const address = t.app.server.server.address();
  return `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
}

/**
 * The setup of a browser test file: builds the dashboard if needed, creates and seeds a test app, serves it and
 * starts Chromium (beforeAll); closes all again (afterAll). Call inside `describe.runIf(hasChromium)`.
 */
export function useBrowser(opts: BrowserOptions = {}): BrowserHarness {
  let t: TestApp | undefined;
  let base = "";
  let context: BrowserContext | undefined;
  /** A browser of the file's own, when it asks for arguments the shared one was not started with. */
  let own: Browser | undefined;
  const problems: string[] = [];
  const watch = opts.watch ?? {};

  function watchPage(page: Page): void {
    if (watch.console) {
      const counts = typeof watch.console === "function" ? watch.console : () => true;
      page.on("console", (m) => {
        if (m.type() === "error" && counts(m.text())) problems.push(`console: ${m.text()}`);
      });
    }
    page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
    if (watch.dialogs) {
      page.on("dialog", (d) => {
        problems.push(`dialog: ${d.message()}`);
        void d.dismiss();
      });
    }
    if (watch.notFound) {
      page.on("response", (r) => {
        if (r.status() === 404) problems.push(`404: ${r.url()}`);
      });
    }
    if (watch.otherHosts) {
      page.on("request", (r) => {
        if (!r.url().startsWith(base) && !r.url().startsWith("data:"))
          problems.push(`request to another host: ${r.url()}`);
      });
    }
  }

  const web: BrowserHarness = {
    get t() {
      if (!t) throw new Error("the test app is not up (useBrowser sets it in beforeAll)");
      return t;
    },
    get base() {
      return base;
    },
    get context() {
      if (!context) throw new Error("the browser is not up (useBrowser starts it in beforeAll)");
      return context;
    },
    problems,
    async newPage() {
      const page = await web.context.newPage();
      if (!opts.watchEveryPage) watchPage(page);
      return page;
    },
    async signIn(teamId, userId, path, on = {}) {
      const page = on.page ?? (await web.newPage());
      const app = on.app ?? { t: web.t, base };
      await page.goto(
        `${app.base}/dashboard/login?t=${encodeURIComponent(issueLoginToken(app.t.deps, teamId, userId))}`,
      );
      await page.waitForURL(`${app.base}/dashboard`);
      if (path !== undefined) await page.goto(`${app.base}${path}`);
      return page;
    },
  };

  beforeAll(async () => {
    if (!webBuilt) {
      const build = spawnSync(process.execPath, ["scripts/ensure-web-build.mjs"], { encoding: "utf8" });
      if (build.status !== 0) throw new Error(`dashboard build failed: ${build.stderr}`);
      webBuilt = true;
    }
    await opts.before?.();
    const appOptions = typeof opts.app === "function" ? opts.app() : (opts.app ?? {});
    t = await createTestApp({ clock: new ManualClock(new Date()), ...appOptions });
    await opts.seed?.(t);
    base = await listen(t);
    const extra = (opts.args ?? []).filter((a) => !ARGS.includes(a));
    if (extra.length > 0) {
      own = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: [...ARGS, ...extra] });
    }
    context = await (own ?? (await sharedBrowser())).newContext({
      // Charts honour reduced motion: screenshots show the drawn figures, not a frame of their animation.
      reducedMotion: "reduce",
      ...(opts.acceptDownloads ? { acceptDownloads: true } : {}),
      ...(opts.locale ? { locale: opts.locale } : {}),
      ...(opts.timezoneId ? { timezoneId: opts.timezoneId } : {}),
    });
    if (opts.watchEveryPage) context.on("page", (page) => watchPage(page));
    await opts.ready?.(web);
  }, opts.timeout ?? 120_000);

  afterAll(async () => {
    await context?.close();
    await own?.close();
    await t?.close();
    await opts.cleanup?.();
  });

  return web;
}
