import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll } from "vitest";
import type { TestApp } from "./app.ts";

/** A tool call's outcome as a client sees it: the error text, or the result's JSON. */
export interface ToolOutcome {
  isError: boolean;
  text: string;
  json: Record<string, unknown>;
}

export interface McpClients {
  connect(key: string): Promise<Client>;
  call(client: Client, name: string, args?: Record<string, unknown>): Promise<ToolOutcome>;
}

/** The test app served on 127.0.0.1 and MCP SDK clients connected to its /mcp with a key (closed after the file). */
export async function useMcpClients(t: TestApp): Promise<McpClients> {
  await t.app.server.listen({ port: 0, host: "127.0.0.1" });
  const address = t.app.server.server.address();
  const base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  const clients: Client[] = [];
  afterAll(async () => {
    for (const c of clients) await c.close().catch(() => {});
  });
  return {
    async connect(key) {
      const client = new Client({ name: "upbeat-write-test", version: "1.0.0" });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
          requestInit: { headers: { Authorization: `Bearer ${key}` } },
        }),
      );
      clients.push(client);
      return client;
    },
    async call(client, name, args = {}) {
      const res = (await client.callTool({ name, arguments: args })) as {
        content: { type: string; text: string }[];
        isError?: boolean;
      };
      const text = res.content[0]?.text ?? "";
      if (res.isError) return { isError: true, text, json: {} };
      return { isError: false, text, json: JSON.parse(text) as Record<string, unknown> };
    },
  };
}
