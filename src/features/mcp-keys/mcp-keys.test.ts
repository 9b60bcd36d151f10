import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { APP_URL, type TestApp, useTestApp } from "../../../test/support/app.ts";
import { rows } from "../../db/client.ts";
import { sha256Hex } from "../../lib/crypto.ts";

const TEAM = "T0KEYS";
const OTHER = "T0OTHER";
const ADMIN = "U0KEYSADMIN";
const MEMBER = "U0KEYSMEMBER";

interface CreatedJson {
  id: number;
  name: string;
  key: string;
  key_prefix: string;
  created_at: string;
}

interface KeyJson {
  id: number;
  name: string;
  key_prefix: string;
  created_at: string;
  last_used_at: string | null;
  active: boolean;
  scopes: string[];
}

function expectError(res: { statusCode: number; json(): unknown }, status: number): string {
  expect(res.statusCode).toBe(status);
  const body = res.json() as Record<string, unknown>;
  expect(Object.keys(body)).toEqual(["error"]);
  return String(body.error);
}

describe("MCP API keys", async () => {
  const t: TestApp = await useTestApp();
  await t.installTeam(TEAM, { installer: ADMIN });
  await t.addMember(TEAM, MEMBER);
  await t.installTeam(OTHER, { installer: "U0OTHERADMIN" });
  const admin = await t.signIn(TEAM, ADMIN);
  const member = await t.signIn(TEAM, MEMBER);
  const otherAdmin = await t.signIn(OTHER, "U0OTHERADMIN");

  const create = (cookie: string, payload?: unknown) =>
    t.inject({
      method: "POST",
      url: "/dashboard/api/mcp/keys",
      headers: { cookie, ...(payload === undefined ? {} : { "content-type": "application/json" }) },
      ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
    });
  const list = async (cookie: string): Promise<KeyJson[]> => {
    const res = await t.inject({ method: "GET", url: "/dashboard/api/mcp/keys", headers: { cookie } });
    expect(res.statusCode).toBe(200);
    return res.json() as KeyJson[];
  };
  const revoke = (cookie: string, id: string | number) =>
    t.inject({ method: "DELETE", url: `/dashboard/api/mcp/keys/${id}`, headers: { cookie } });

  it("creates a key: 201 with the whole key once, svc_ and 43 base62 characters, only its hash stored", async () => {
    const res = await create(admin, { name: "  Claude on my laptop  " });
    expect(res.statusCode).toBe(201);
    expect(res.headers["cache-control"]).toBe("no-store");
    const body = res.json() as CreatedJson;
    expect(Object.keys(body).sort()).toEqual(["created_at", "id", "key", "key_prefix", "name", "scopes"]);
    expect(body.key).toMatch(/^svc_[0-9A-Za-z]{43}$/);
    expect(body.key.length).toBeGreaterThanOrEqual(36);
    expect(body.key_prefix).toBe(body.key.slice(0, 12));
    expect(body.key_prefix.startsWith("svc_")).toBe(true);
    expect(body.name).toBe("Claude on my laptop");
    expect(body.created_at).toBe(t.clock.now().toISOString());
    expect(Number.isInteger(body.id)).toBe(true);
    const [stored] = await rows<{ key_hash: string; key_prefix: string; created_by: string; team_id: string }>(
      t.deps.db,
      sql`select key_hash, key_prefix, created_by, team_id from mcp_keys where id = ${body.id}`,
    );
    expect(stored).toEqual({
      key_hash: sha256Hex(body.key),
      key_prefix: body.key_prefix,
      created_by: ADMIN,
      team_id: TEAM,
    });
    const everything = JSON.stringify(await rows(t.deps.db, sql`select * from mcp_keys`));
    expect(everything).not.toContain(body.key);
  });

  it("two keys never collide, and the name is optional (no body, empty object, null)", async () => {
    const a = (await create(admin)).json() as CreatedJson;
    const b = (await create(admin, {})).json() as CreatedJson;
    const c = (await create(admin, { name: null })).json() as CreatedJson;
    expect(new Set([a.key, b.key, c.key]).size).toBe(3);
    expect([a.name, b.name, c.name]).toEqual(["", "", ""]);
  });

  it("rejects a name that is not a string or longer than 100 characters, and a body that is not an object", async () => {
    expect(expectError(await create(admin, { name: 42 }), 400)).toContain("name");
    expect(expectError(await create(admin, { name: "x".repeat(101) }), 400)).toContain("name");
    expect((await create(admin, { name: ` ${"x".repeat(100)} ` })).statusCode).toBe(201);
    expect(expectError(await create(admin, ["name"]), 400)).toContain("object");
    expect(expectError(await create(admin, "name"), 400)).toContain("object");
  });

  it("lists keys newest first with prefix, dates and active flag, never the key or its hash", async () => {
    t.clock.advance(60_000);
    const newest = (await create(admin, { name: "newest" })).json() as CreatedJson;
    const keys = await list(admin);
    expect(keys[0]!.id).toBe(newest.id);
    for (const k of keys) {
      expect(Object.keys(k).sort()).toEqual([
        "active",
        "created_at",
        "id",
        "key_prefix",
        "last_used_at",
        "name",
        "scopes",
      ]);
      expect(k.scopes).toEqual(["standups:read"]);
      expect(k.active).toBe(true);
      expect(k.last_used_at).toBeNull();
      expect(k.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    }
    const dates = keys.map((k) => k.created_at);
    expect([...dates].sort().reverse()).toEqual(dates);
    const text = JSON.stringify(keys);
    expect(text).not.toContain(newest.key);
    expect(text).not.toContain(sha256Hex(newest.key));
    expect(text).not.toContain("key_hash");
  });

  it("revokes a key: {ok: true}, listed as inactive, and revoking again is still ok", async () => {
    const key = (await create(admin, { name: "to revoke" })).json() as CreatedJson;
    const res = await revoke(admin, key.id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    expect((await list(admin)).find((k) => k.id === key.id)?.active).toBe(false);
    const [row] = await rows<{ revoked_at: Date }>(
      t.deps.db,
      sql`select revoked_at from mcp_keys where id = ${key.id}`,
    );
    const first = new Date(row!.revoked_at).getTime();
    t.clock.advance(5_000);
    expect((await revoke(admin, key.id)).json()).toEqual({ ok: true });
    const [again] = await rows<{ revoked_at: Date }>(
      t.deps.db,
      sql`select revoked_at from mcp_keys where id = ${key.id}`,
    );
    expect(new Date(again!.revoked_at).getTime()).toBe(first);
  });

  it("revoking an unknown, malformed or other workspace's key id is 404 and changes nothing", async () => {
    const theirs = (await create(otherAdmin, { name: "theirs" })).json() as CreatedJson;
    for (const id of [String(theirs.id), "999999", "abc", "1.5", "-1", "0", "99999999999", "1e3"]) {
      expectError(await revoke(admin, id), 404);
    }
    expect((await list(otherAdmin)).find((k) => k.id === theirs.id)?.active).toBe(true);
    expect((await list(admin)).some((k) => k.id === theirs.id)).toBe(false);
  });

  it("members get 403 on every key endpoint; no session gets 401", async () => {
    const key = (await create(admin)).json() as CreatedJson;
    expect(
      expectError(await t.inject({ method: "GET", url: "/dashboard/api/mcp/keys", headers: { cookie: member } }), 403),
    ).toBe("Admin required");
    expectError(await create(member, { name: "mine" }), 403);
    expectError(await revoke(member, key.id), 403);
    expect((await list(admin)).find((k) => k.id === key.id)?.active).toBe(true);
    expectError(await t.inject({ method: "GET", url: "/dashboard/api/mcp/keys" }), 401);
    expectError(await t.inject({ method: "GET", url: "/dashboard/api/mcp-config" }), 401);
  });

  it("mcp-config gives any member ready snippets for Claude Desktop, Cursor and VS Code with the placeholder key", async () => {
    const res = await t.inject({ method: "GET", url: "/dashboard/api/mcp-config", headers: { cookie: member } });
    expect(res.statusCode).toBe(200);
    const body = res.json() as Record<
      string,
      { mcpServers: Record<string, { command: string; args: string[]; env: Record<string, string> }> }
    >;
    expect(Object.keys(body)).toEqual(expect.arrayContaining(["claude_desktop", "cursor", "vscode"]));
    for (const [kind, config] of Object.entries(body)) {
      const server = config.mcpServers.upbeat!;
      expect(server.command, kind).toBe("npx");
      expect(server.args).toEqual([
        "-y",
        "mcp-remote",
        `${APP_URL}/mcp/key`,
        "--header",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the snippet holds a literal ${AUTH_HEADER}
        "Authorization:${AUTH_HEADER}",
      ]);
      expect(server.env).toEqual({ AUTH_HEADER: "Bearer <API_KEY>" });
    }
    const vscode = body.vscode as unknown as { servers: Record<string, { type: string; args: string[] }> };
    expect(vscode.servers.upbeat).toMatchObject({ type: "stdio", command: "npx" });
    expect(res.body).not.toMatch(/svc_[0-9A-Za-z]{10}/);
  });
});
