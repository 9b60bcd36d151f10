import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { APP_URL, useTestApp } from "../../test/support/app.ts";
import { rows } from "../db/client.ts";
import { createKey } from "../features/mcp-keys/index.ts";
import { PACKAGE_VERSION } from "../http/server.ts";

const TEAM = "T0MCP";
const ADMIN = "U0MCPADMIN";
const TOOL_NAMES = [
  "get_standups",
  "get_today_standups",
  "get_blockers",
  "get_participation",
  "get_members",
  "search_standups",
  "get_workspace_summary",
  "get_mood_summary",
  "get_kudos",
  "get_question_stats",
  "get_summary",
];
/** Listed only to credentials with standups:write (write-tools.test.ts); GET /mcp names every tool. */
const WRITE_TOOL_NAMES = ["submit_standup", "skip_standup", "set_time_off", "give_kudos", "resolve_blocker"];
const ACCEPT = "application/json, text/event-stream";

interface RpcBody {
  jsonrpc: string;
  id: string | number | null;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}

describe("the MCP endpoint", async () => {
  const t = await useTestApp();
  await t.installTeam(TEAM, { installer: ADMIN, name: "Acme" });
  const admin = await t.signIn(TEAM, ADMIN);
  const newKey = async (name = "test") => (await createKey(t.deps, TEAM, ADMIN, { name })).key;
  const key = await newKey();

  await t.app.server.listen({ port: 0, host: "127.0.0.1" });
  const address = t.app.server.server.address();
  const url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/mcp`;

  const clients: Client[] = [];
  afterAll(async () => {
    for (const c of clients) await c.close().catch(() => {});
  });
  const connect = async (bearer: string) => {
    const client = new Client({ name: "upbeat-test", version: "1.0.0" });
    const transport = new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { Authorization: `Bearer ${bearer}` } },
    });
    await client.connect(transport);
    clients.push(client);
    return client;
  };
  const post = async (body: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: ACCEPT, ...headers },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, text, json: (text ? JSON.parse(text) : undefined) as RpcBody };
  };
  const bearer = (k: string) => ({ authorization: `Bearer ${k}` });
  const lastUsed = async (k: string) => {
    const [row] = await rows<{ last_used_at: Date | null }>(
      t.deps.db,
      sql`select last_used_at from mcp_keys where key_prefix = ${k.slice(0, 12)}`,
    );
    return row!.last_used_at === null ? null : new Date(row!.last_used_at).toISOString();
  };

  it("GET /mcp describes the server without authentication", async () => {
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      name: "upbeat",
      version: PACKAGE_VERSION,
      transport: "http",
      endpoint: `${APP_URL}/mcp`,
      auth: expect.stringContaining("Bearer"),
      docs: `${APP_URL}/dashboard`,
      tools: [...TOOL_NAMES, ...WRITE_TOOL_NAMES],
    });
  });

  it("GET /mcp asking for an event stream is 405: a stateless server has no SSE stream", async () => {
    const res = await fetch(url, { headers: { accept: "text/event-stream", ...bearer(key) } });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST, GET");
    const body = (await res.json()) as RpcBody;
    expect(body).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: expect.any(Number) } });
    expect((await fetch(url, { method: "DELETE", headers: bearer(key) })).status).toBe(405);
  });

  it("the SDK client initializes, lists the 10 read-only tools with input schemas, and pings", async () => {
    const client = await connect(key);
    expect(client.getServerVersion()).toMatchObject({ name: "upbeat", version: PACKAGE_VERSION });
    expect(client.getServerCapabilities()?.tools).toBeDefined();
    expect(client.getInstructions()).toContain("get_workspace_summary");
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(TOOL_NAMES);
    for (const tool of tools) {
      expect(tool.inputSchema.type, tool.name).toBe("object");
      expect(tool.description!.length, tool.name).toBeGreaterThan(80);
      expect(tool.annotations, tool.name).toMatchObject({
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      });
    }
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool.inputSchema]));
    expect(Object.keys(byName.get_standups!.properties ?? {}).sort()).toEqual([
      "from_date",
      "schedule_id",
      "to_date",
      "user_id",
    ]);
    expect(byName.search_standups!.required).toEqual(["query"]);
    expect(byName.get_blockers!.properties?.days).toMatchObject({
      type: "integer",
      minimum: 1,
      maximum: 365,
      default: 7,
    });
    expect(byName.get_mood_summary!.properties?.days).toMatchObject({ default: 14 });
    expect(byName.get_kudos!.properties?.days).toMatchObject({
      type: "integer",
      minimum: 1,
      maximum: 365,
      default: 30,
    });
    expect(await client.ping()).toEqual({});
  });

  it("a tool call echoes the request id and carries the result as JSON text", async () => {
    const init = await post(
      {
        jsonrpc: "2.0",
        id: "call-1",
        method: "tools/call",
        params: { name: "get_workspace_summary", arguments: {} },
      },
      { ...bearer(key), "mcp-protocol-version": "2025-06-18" },
    );
    expect(init.status).toBe(200);
    expect(init.json.id).toBe("call-1");
    const content = init.json.result!.content as { type: string; text: string }[];
    expect(JSON.parse(content[0]!.text)).toMatchObject({ team_name: "Acme", total_members: 1 });
  });

  it("an unknown method is -32601 with the request id", async () => {
    const res = await post({ jsonrpc: "2.0", id: 7, method: "nope/nope" }, bearer(key));
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ jsonrpc: "2.0", id: 7, error: { code: -32601 } });
  });

  it("an unknown tool is a tool error, not a crash", async () => {
    const res = await post(
      { jsonrpc: "2.0", id: 8, method: "tools/call", params: { name: "drop_tables", arguments: {} } },
      bearer(key),
    );
    expect(res.status).toBe(200);
    expect(res.json.id).toBe(8);
    expect(res.json.result?.isError ?? res.json.error).toBeTruthy();
  });

  it("no key, a wrong key or a malformed header is HTTP 401 with -32001 and the request's id", async () => {
    const request = { jsonrpc: "2.0", id: 7, method: "tools/list", params: {} };
    for (const headers of [
      {},
      bearer(`svc_${"x".repeat(43)}`),
      bearer("not-a-key"),
      { authorization: key },
      { authorization: `Basic ${key}` },
    ]) {
      const res = await post(request, headers);
      expect(res.status, JSON.stringify(headers)).toBe(401);
      expect(res.headers.get("www-authenticate")).toMatch(/^Bearer /);
      expect(Object.keys(res.json)).toEqual(["jsonrpc", "error", "id"]);
      expect(res.json).toEqual({
        jsonrpc: "2.0",
        error: { code: -32001, message: expect.stringMatching(/^Unauthorized: /) },
        id: 7,
      });
    }
    expect((await post({ ...request, id: "abc" })).json.id).toBe("abc");
    expect((await post([request, { ...request, id: 8 }])).json).toMatchObject({ id: null, error: { code: -32001 } });
    expect((await post("{not json")).json).toMatchObject({ id: null, error: { code: -32001 } });
    // Authentication comes before any check of the body's content type.
    const plain = await fetch(url, { method: "POST", headers: { "content-type": "text/plain" }, body: "hello" });
    expect(plain.status).toBe(401);
  });

  it("the SDK client with a wrong key fails to connect with 401", async () => {
    await expect(connect(`svc_${"y".repeat(43)}`)).rejects.toThrow(/401|-32001|Unauthorized/);
  });

  it("a revoked key stops working at once", async () => {
    const doomed = await newKey("doomed");
    const client = await connect(doomed);
    expect(await client.ping()).toEqual({});
    const [row] = await rows<{ id: number }>(
      t.deps.db,
      sql`select id from mcp_keys where key_prefix = ${doomed.slice(0, 12)}`,
    );
    const res = await t.inject({
      method: "DELETE",
      url: `/dashboard/api/mcp/keys/${row!.id}`,
      headers: { cookie: admin },
    });
    expect(res.json()).toEqual({ ok: true });
    await expect(client.ping()).rejects.toThrow(/401|-32001|Unauthorized/);
    const raw = await post({ jsonrpc: "2.0", id: 3, method: "ping" }, bearer(doomed));
    expect(raw.status).toBe(401);
    expect(raw.json).toMatchObject({ id: 3, error: { code: -32001 } });
  });

  it("a key of an uninstalled workspace does not work", async () => {
    await t.installTeam("T0GONE", { name: "Gone" });
    const gone = (await createKey(t.deps, "T0GONE", "U0GONEADMIN", {})).key;
    expect((await post({ jsonrpc: "2.0", id: 1, method: "ping" }, bearer(gone))).status).toBe(200);
    await t.deps.db.execute(sql`update installations set uninstalled_at = now() where team_id = 'T0GONE'`);
    expect((await post({ jsonrpc: "2.0", id: 1, method: "ping" }, bearer(gone))).status).toBe(401);
  });

  it("malformed JSON with a valid key is a JSON-RPC parse error; a wrong content type is refused by the SDK", async () => {
    const bad = await post("{not json", bearer(key));
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32700 } });
    const empty = await post("", bearer(key));
    expect(empty.json.error?.code).toBe(-32700);
    const plain = await post(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }), {
      ...bearer(key),
      "content-type": "text/plain",
    });
    expect(plain.status).toBe(415);
    expect(plain.json.error).toBeDefined();
  });

  it("a notification alone is accepted with 202", async () => {
    const res = await post({ jsonrpc: "2.0", method: "notifications/initialized" }, bearer(key));
    expect(res.status).toBe(202);
  });

  it("last_used_at is set on first use and rewritten at most once a minute", async () => {
    const fresh = await newKey("fresh");
    expect(await lastUsed(fresh)).toBeNull();
    const first = t.clock.now().toISOString();
    await post({ jsonrpc: "2.0", id: 1, method: "ping" }, bearer(fresh));
    expect(await lastUsed(fresh)).toBe(first);
    t.clock.advance(30_000);
    await post({ jsonrpc: "2.0", id: 2, method: "ping" }, bearer(fresh));
    expect(await lastUsed(fresh)).toBe(first);
    t.clock.advance(31_000);
    await post({ jsonrpc: "2.0", id: 3, method: "ping" }, bearer(fresh));
    expect(await lastUsed(fresh)).toBe(t.clock.now().toISOString());
    const listed = await t.inject({ method: "GET", url: "/dashboard/api/mcp/keys", headers: { cookie: admin } });
    const mine = (listed.json() as { key_prefix: string; last_used_at: string }[]).find(
      (k) => k.key_prefix === fresh.slice(0, 12),
    );
    expect(mine?.last_used_at).toBe(t.clock.now().toISOString());
  });

  it("allows 120 requests a minute per key; the 121st is 429 with Retry-After", async () => {
    const busy = await newKey("busy");
    const other = await newKey("other");
    t.clock.set("2026-03-02T15:00:15Z");
    for (let i = 1; i <= 120; i++) {
      const res = await post({ jsonrpc: "2.0", id: i, method: "ping" }, bearer(busy));
      expect(res.status, `request ${i}`).toBe(200);
    }
    const limited = await post({ jsonrpc: "2.0", id: 121, method: "ping" }, bearer(busy));
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("45");
    expect(limited.json).toMatchObject({ jsonrpc: "2.0", id: 121, error: { code: expect.any(Number) } });
    expect(limited.json.error!.message).toMatch(/120 requests a minute/);
    // Another key of the same workspace has its own budget; the next minute starts afresh.
    expect((await post({ jsonrpc: "2.0", id: 1, method: "ping" }, bearer(other))).status).toBe(200);
    t.clock.advance(45_000);
    expect((await post({ jsonrpc: "2.0", id: 122, method: "ping" }, bearer(busy))).status).toBe(200);
  });
});
