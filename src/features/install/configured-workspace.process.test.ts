import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { startFakeSlack } from "../../../dev/fake-slack/index.ts";
import { testEnv } from "../../../test/support/app.ts";
import { startAppProcess } from "../../../test/support/app-process.ts";
import { freshDatabase, onPostgres } from "../../../test/support/database.ts";
import { findInstallation } from "../../chat/installations.repo.ts";
import { type Database, openDatabase } from "../../db/client.ts";
import { decryptSecret, deriveKey } from "../../lib/crypto.ts";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const TEAM = "T0PROC";
const TOKEN = "xoxb-proc-token";

/**
 * src/main.ts as production starts it; resolves with its exit code, what it wrote to stderr, and how long after the
 * signal it exited. `signalOn`: SIGTERM once a stdout line matches (the process has reached that point however slow
 * the machine is), not after a fixed time that a loaded machine may not reach in.
 */
function runMain(
  env: Record<string, string>,
  opts: { signalOn?: RegExp } = {},
): Promise<{ code: number | null; stderr: string; msAfterSignal: number | undefined }> {
  const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", HOST: "127.0.0.1", PORT: "0", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr!.on("data", (chunk) => {
    stderr += String(chunk);
  });
  let signalledAt: number | undefined;
  let stdout = "";
  child.stdout!.on("data", (chunk) => {
    stdout += String(chunk);
    if (opts.signalOn && signalledAt === undefined && opts.signalOn.test(stdout)) {
      signalledAt = Date.now();
      child.kill("SIGTERM");
    }
  });
  const timer = setTimeout(() => child.kill("SIGKILL"), 100_000);
  return new Promise((resolve) =>
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stderr, msAfterSignal: signalledAt === undefined ? undefined : Date.now() - signalledAt });
    }),
  );
}

/** Each test starts one or two app processes: under a loaded machine that alone can take tens of seconds. */
const PROCESS_TEST_MS = 240_000;

describe("src/main.ts with CHAT_BOT_TOKEN", async () => {
  const fake = await startFakeSlack();
  fake.addTeam({ id: TEAM, name: "Proc & Co", botToken: TOKEN, botUserId: "U0PROCBOT" });
  // PGlite belongs to one process: each child opens the directory in turn, the test after the last exit.
  let database: Database | undefined;
  let dir: string | undefined;
  let url: string;
  if (onPostgres) {
    database = await freshDatabase();
    url = database.url;
  } else {
    dir = mkdtempSync(join(tmpdir(), "upbeat-one-workspace-"));
    url = `pglite://${dir}`;
  }
  // Only the bot token: no OAuth client.
  const { CHAT_CLIENT_ID: _id, CHAT_CLIENT_SECRET: _secret, ...base } = testEnv(url, fake.url);
  const env: Record<string, string> = { ...base, LOG_LEVEL: "INFO" };
  afterAll(async () => {
    await database?.close();
    await fake.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it(
    "a start installs the workspace and /install names it; a second start writes nothing",
    async () => {
      const first = await startAppProcess("one-workspace-1", { ...env, CHAT_BOT_TOKEN: TOKEN }, 100_000);
      try {
        const page = await fetch(`${first.address}/install`, { redirect: "manual" });
        expect(page.status).toBe(200);
        expect(await page.text()).toContain("Proc &amp; Co");
      } finally {
        await first.stop();
      }
      const second = await startAppProcess("one-workspace-2", { ...env, CHAT_BOT_TOKEN: TOKEN }, 100_000);
      await second.stop();
      expect(second.lines.join("\n")).not.toContain("workspace of CHAT_BOT_TOKEN installed");
      expect(first.lines.join("\n")).toContain("workspace of CHAT_BOT_TOKEN installed");
      expect(fake.callsTo("oauth.v2.access")).toEqual([]);
      const db = database ?? (await openDatabase(url));
      try {
        const row = await findInstallation(db.db, TEAM);
        expect(row).toMatchObject({ teamName: "Proc & Co", botUserId: "U0PROCBOT", installerUserId: "" });
        const key = deriveKey(env.SESSION_SECRET_KEY!, "token-encryption");
        expect(decryptSecret(key, row!.botTokenEnc)).toBe(TOKEN);
      } finally {
        if (!database) await db.close();
      }
    },
    PROCESS_TEST_MS,
  );

  it(
    "a token Slack refuses stops the start: exit 1, a config error naming CHAT_BOT_TOKEN",
    async () => {
      const res = await runMain({ ...env, CHAT_BOT_TOKEN: "xoxb-proc-wrong" });
      expect(res.code).toBe(1);
      expect(res.stderr).toMatch(/^config error: CHAT_BOT_TOKEN was refused by Slack \(invalid_auth\): /m);
      expect(res.stderr).not.toContain("xoxb-proc-wrong");
      expect(res.stderr).not.toContain("fatal");
    },
    PROCESS_TEST_MS,
  );

  it(
    "SIGTERM while the first start waits for Slack ends the process at once (exit 0), not at an orchestrator's kill",
    async () => {
      // Nothing listens on port 9: auth.test fails, and a token never installed has nothing to start on, so the first
      // start keeps retrying for about two minutes. SIGTERM goes once it says it is trying again.
      const res = await runMain(
        { ...env, CHAT_API_URL: "http://127.0.0.1:9/api/", CHAT_BOT_TOKEN: "xoxb-proc-never-installed" },
        { signalOn: /start-up check of CHAT_BOT_TOKEN: trying again/ },
      );
      expect(res.stderr).toContain("SIGTERM while starting: exiting");
      expect(res.code).toBe(0);
      // At once: not after the retries (two minutes), nor at an orchestrator's kill (10 s and more).
      expect(res.msAfterSignal).toBeLessThan(5_000);
    },
    PROCESS_TEST_MS,
  );
});
