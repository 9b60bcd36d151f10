import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { useTestApp } from "../../test/support/app.ts";
import { createKey } from "../features/mcp-keys/index.ts";
import { TOOL_NAMES } from "./mcp-server.ts";

const run = promisify(execFile);
const INSPECTOR = "node_modules/@modelcontextprotocol/inspector/package.json";
const installed = existsSync(INSPECTOR);

if (!installed) {
  console.warn(
    "Skipping the MCP Inspector CLI test: add the devDependency @modelcontextprotocol/inspector (2.12.0) and run npm install.",
  );
}

/** The official Inspector CLI, run the way a developer would, against a real listening server. */
describe.skipIf(!installed)("the MCP Inspector CLI", async () => {
  const t = await useTestApp();
  await t.installTeam("T0INSPECT", { name: "Inspected" });
  const key = (await createKey(t.deps, "T0INSPECT", "U0INSPECTADMIN", { name: "inspector" })).key;
  await t.app.server.listen({ port: 0, host: "127.0.0.1" });
  const address = t.app.server.server.address();
  const url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/mcp`;
  // The Inspector keeps a catalog and secrets under HOME: give it a throwaway one.
  const home = mkdtempSync(join(tmpdir(), "upbeat-inspector-"));
  afterAll(() => rmSync(home, { recursive: true, force: true }));

  const inspector = (...args: string[]) =>
    run("npx", ["--no-install", "@modelcontextprotocol/inspector", "--cli", url, "--transport", "http", ...args], {
      env: { ...process.env, HOME: home, MCP_CATALOG_PATH: join(home, "mcp.json"), NO_COLOR: "1" },
      timeout: 90_000,
    });

  it("lists the 9 tools", { timeout: 120_000 }, async () => {
    const { stdout } = await inspector("--method", "tools/list", "--header", `Authorization: Bearer ${key}`);
    const listed = (JSON.parse(stdout) as { tools: { name: string }[] }).tools.map((tool) => tool.name);
    expect(listed).toEqual([...TOOL_NAMES]);
    expect(TOOL_NAMES).toHaveLength(9);
  });

  it("calls a tool with an argument", { timeout: 120_000 }, async () => {
    const { stdout } = await inspector(
      "--method",
      "tools/call",
      "--tool-name",
      "get_blockers",
      "--tool-arg",
      "days=3",
      "--header",
      `Authorization: Bearer ${key}`,
      "--format",
      "json",
    );
    const out = JSON.parse(stdout) as { result: { isError?: boolean; structuredContent: Record<string, unknown> } };
    expect(out.result.isError).toBeFalsy();
    expect(out.result.structuredContent).toMatchObject({ days: 3, count: 0, blockers: [] });
  });
});
