import { execFile } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { it } from "vitest";
import { useTestApp } from "../../test/support/app.ts";
import { createKey } from "../features/mcp-keys/index.ts";

it("scratch", async () => {
  const t = await useTestApp();
  await t.installTeam("T0S", {});
  const key = (await createKey(t.deps, "T0S", "U0S", {})).key;
  await t.app.server.listen({ port: 0, host: "127.0.0.1" });
  const a = t.app.server.server.address() as { port: number };
  const url = `http://127.0.0.1:${a.port}/mcp`;
  const home = mkdtempSync(join(tmpdir(), "insp-"));
  const started = Date.now();
  const r = await promisify(execFile)("npx", ["--no-install", "@modelcontextprotocol/inspector", "--cli", url, "--transport", "http", "--method", "tools/list", "--header", `Authorization: Bearer ${key}`], { env: { ...process.env, HOME: home, MCP_CATALOG_PATH: join(home, "mcp.json") }, timeout: 60000 }).catch((e) => e);
  console.log(Date.now() - started, "ms", r.code, String(r.stdout).slice(0, 1500), "STDERR", String(r.stderr).slice(0, 3000));
  const r2 = await promisify(execFile)("npx", ["--no-install", "@modelcontextprotocol/inspector", "--cli", url, "--transport", "http", "--method", "tools/call", "--tool-name", "get_blockers", "--tool-arg", "days=3", "--header", `Authorization: Bearer ${key}`, "--format", "json"], { env: { ...process.env, HOME: home, MCP_CATALOG_PATH: join(home, "mcp.json") }, timeout: 60000 }).catch((e) => e);
  console.log(r2.code, String(r2.stdout).slice(0, 1500), "STDERR", String(r2.stderr).slice(0, 3000));
  console.log(require("node:child_process").execSync(`find ${home} -type f`).toString());
}, 120000);
