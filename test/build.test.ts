import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { type AppProcess, startAppProcess } from "./support/app-process.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
/** Inside the repository (the compiled server resolves its packages from its node_modules), ignored by git. */
const OUT = join(ROOT, ".build-test", randomBytes(4).toString("hex"));

/** Runs `npm run build`'s script into OUT; resolves with its output, rejects with it on failure. */
function build(): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, "scripts", "build.mjs"), "--out-dir", OUT], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? "" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d) => {
      output += d;
    });
    child.stderr.on("data", (d) => {
      output += d;
    });
    child.once("exit", (code) =>
      code === 0 ? resolve(output) : reject(new Error(`build failed (${code}):\n${output}`)),
    );
  });
}

/** Every file under `dir`, relative to it. */
function files(dir: string, prefix = ""): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name), `${prefix}${e.name}/`) : [`${prefix}${e.name}`],
  );
}

/**
 * `npm run build` then `node dist/main.js` (what `npm run start:prod` runs), with NODE_ENV=production: the build
 * holds everything the server reads at run time, and the compiled server serves the API, the OpenAPI document and
 * the dashboard without tsx or the sources.
 */
describe("the production build", () => {
  let proc: AppProcess | undefined;
  afterAll(async () => {
    await proc?.stop(5_000);
    rmSync(OUT, { recursive: true, force: true });
  });

  it("builds into one directory and starts from it with node", async () => {
    await build();
    const built = files(OUT);
    expect(built).toContain("main.js");
    expect(built).toContain("package.json");
    expect(built).toContain("db/migrations/meta/_journal.json");
    expect(built).toContain("db/migrations/0000_foundation.sql");
    expect(built).toContain("web/index.html");
    expect(built.filter((f) => f.endsWith(".test.js"))).toEqual([]);
    expect(built.filter((f) => f.endsWith(".ts"))).toEqual([]);
    expect(existsSync(join(OUT, "web", "src"))).toBe(false);
    // The embedded database, migrated: the first start on a new data directory begins from it (no initdb).
    expect(built.filter((f) => /^db\/pglite-template-\d+\.\d+\.\d+\.tar\.gz$/.test(f))).toHaveLength(1);

    proc = await startAppProcess(
      "built",
      {
        NODE_ENV: "production",
        APP_URL: "https://upbeat.example.test",
        DATABASE_URL: `pglite://${join(OUT, "data", "pglite")}`,
        CHAT_CLIENT_ID: "build-test-client-id",
        CHAT_CLIENT_SECRET: "build-test-client-secret",
        CHAT_SIGNING_SECRET: "build-test-signing-secret",
        SESSION_SECRET_KEY: randomBytes(32).toString("hex"),
        CHAT_API_URL: "http://127.0.0.1:9/api/",
        LOG_LEVEL: "INFO",
      },
      60_000,
      { entry: join(OUT, "main.js") },
    );
    const base = proc.address;
    const health = await fetch(`${base}/healthz`);
    expect(health.status, proc.tail()).toBe(200);
    expect(await health.json()).toEqual({ status: "ok", db: "connected", socket: "off" });
    const root = await fetch(base, { headers: { accept: "application/json" } });
    expect(await root.json()).toMatchObject({ name: "upbeat", status: "ok", version: expect.stringMatching(/^\d+\./) });
    const openapi = await fetch(`${base}/openapi.json`);
    expect(openapi.status).toBe(200);
    expect(Object.keys(((await openapi.json()) as { paths: object }).paths)).toContain("/healthz");
    const dashboard = await fetch(`${base}/dashboard`);
    expect(dashboard.status).toBe(200);
    const html = await dashboard.text();
    const script = /src="(\/dashboard\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script, html).toBeDefined();
    expect((await fetch(`${base}${script}`)).status).toBe(200);

    const exitCode = new Promise<number | null>((resolve) => proc?.child.once("exit", (code) => resolve(code)));
    proc.child.kill("SIGTERM");
    expect(await exitCode).toBe(0);
  }, 180_000);
});
