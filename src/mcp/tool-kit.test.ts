import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { Deps } from "../deps.ts";
import { notFound } from "../http/errors.ts";
import { ManualClock } from "../lib/clock.ts";
import { defineTool, ToolError } from "./tool-kit.ts";

const failing = defineTool({
  name: "always_fails",
  title: "Fails",
  description: "Fails in the way its argument says.",
  input: { how: z.enum(["crash", "argument", "missing"]) },
  async run(_ctx, args) {
    if (args.how === "argument") throw new ToolError("days must be at least 1");
    if (args.how === "missing") throw notFound("No such member");
    throw new Error('relation "responses" does not exist at character 42');
  },
});

async function connected() {
  const logged: unknown[] = [];
  const log = pino({ level: "error" }, { write: (line: string) => logged.push(JSON.parse(line)) });
  const ctx = {
    deps: { db: undefined, clock: new ManualClock(), log } as unknown as Deps,
    teamId: "T0KIT",
    teamName: "Kit",
    userId: "U0KIT",
    scopes: ["standups:read"] as const,
    isAdmin: true,
    credential: { kind: "key", keyId: 1 } as const,
  };
  const server = new McpServer({ name: "kit", version: "0.0.0" });
  failing.register(server, ctx);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "kit-test", version: "0.0.0" });
  await client.connect(clientSide);
  return { client, logged };
}

describe("tool failures", () => {
  it("an unexpected failure is a tool error naming -32603; the cause is logged, never sent", async () => {
    const { client, logged } = await connected();
    const res = (await client.callTool({ name: "always_fails", arguments: { how: "crash" } })) as {
      isError: boolean;
      content: { text: string }[];
    };
    expect(res.isError).toBe(true);
    expect(res.content[0]!.text).toContain("-32603");
    expect(res.content[0]!.text).not.toContain("relation");
    expect(JSON.stringify(logged)).toContain("relation");
    await client.close();
  });

  it("argument problems and 4xx errors from services reach the model as they are", async () => {
    const { client } = await connected();
    for (const [how, text] of [
      ["argument", "days must be at least 1"],
      ["missing", "No such member"],
    ]) {
      const res = (await client.callTool({ name: "always_fails", arguments: { how } })) as {
        isError: boolean;
        content: { text: string }[];
      };
      expect(res).toMatchObject({ isError: true, content: [{ type: "text", text }] });
    }
    const invalid = (await client.callTool({ name: "always_fails", arguments: { how: "sideways" } })) as {
      isError: boolean;
    };
    expect(invalid.isError).toBe(true);
    await client.close();
  });
});
