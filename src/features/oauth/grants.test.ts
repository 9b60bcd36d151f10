import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { type TestApp, useTestApp } from "../../../test/support/app.ts";
import { seedGrant, seedOAuthClient } from "../../../test/support/oauth-grants.ts";
import { oauthGrants } from "../../db/schema.ts";

const TEAM = "T0GRANTS";
const OTHER = "T0GRANTSOTHER";
const ADMIN = "U0GRADMIN";
const MAYA = "U0GRMAYA";
const LEO = "U0GRLEO";
const STRANGER = "U0GROTHERADMIN";

interface GrantJson {
  id: number;
  client_id: string;
  client_name: string;
  client_uri: string | null;
  redirect_host: string;
  kind: string;
  scopes: string[];
  user_id: string;
  user_name: string;
  mine: boolean;
  created_at: string;
  last_used_at: string | null;
}

describe("connected AI clients (OAuth grants)", async () => {
  const t: TestApp = await useTestApp();
  await t.installTeam(TEAM, { installer: ADMIN });
  await t.addMember(TEAM, ADMIN, { role: "admin", realName: "Ada Admin" });
  await t.addMember(TEAM, MAYA, { realName: "Maya Okafor" });
  await t.addMember(TEAM, LEO, { realName: "Leo Fernández" });
  await t.installTeam(OTHER, { installer: STRANGER });
  const admin = await t.signIn(TEAM, ADMIN);
  const maya = await t.signIn(TEAM, MAYA);
  const leo = await t.signIn(TEAM, LEO);
  const stranger = await t.signIn(OTHER, STRANGER);

  const at = (minutesAgo: number) => new Date(t.clock.now().getTime() - minutesAgo * 60_000);
  await seedOAuthClient(
    t.deps.db,
    {
      clientId: "mcpc_claude0000000000000",
      name: "Claude",
      redirectUris: ["https://claude.ai/api/mcp/auth_callback", "https://claude.com/api/mcp/auth_callback"],
      clientUri: "https://claude.ai",
    },
    at(100),
  );
  await seedOAuthClient(
    t.deps.db,
    {
      clientId: "https://chatgpt.example/oauth/client.json",
      name: "ChatGPT",
      redirectUris: ["https://chatgpt.example/connector/oauth/callback"],
    },
    at(100),
  );

  const list = async (cookie: string): Promise<GrantJson[]> => {
    const res = await t.inject({ method: "GET", url: "/dashboard/api/oauth/grants", headers: { cookie } });
    expect(res.statusCode).toBe(200);
    return res.json() as GrantJson[];
  };
  const revoke = (cookie: string, id: number | string) =>
    t.inject({ method: "DELETE", url: `/dashboard/api/oauth/grants/${id}`, headers: { cookie } });
  const revokedAt = async (id: number) =>
    (await t.deps.db.select().from(oauthGrants).where(eq(oauthGrants.id, id)))[0]?.revokedAt ?? null;

  it("lists a member's own grants only, with the client, its redirect host and the person; an admin sees all", async () => {
    const mayaClaude = await seedGrant(t.deps.db, {
      teamId: TEAM,
      userId: MAYA,
      clientId: "mcpc_claude0000000000000",
      scopes: ["standups:read", "standups:write"],
      createdAt: at(30),
      lastUsedAt: at(5),
    });
    const leoGpt = await seedGrant(t.deps.db, {
      teamId: TEAM,
      userId: LEO,
      clientId: "https://chatgpt.example/oauth/client.json",
      createdAt: at(20),
    });
    const adminClaude = await seedGrant(t.deps.db, {
      teamId: TEAM,
      userId: ADMIN,
      clientId: "mcpc_claude0000000000000",
      createdAt: at(10),
    });
    // Not listed anywhere here: revoked, and another workspace's.
    await seedGrant(t.deps.db, {
      teamId: TEAM,
      userId: MAYA,
      clientId: "mcpc_claude0000000000000",
      createdAt: at(40),
      revokedAt: at(35),
    });
    const strangers = await seedGrant(t.deps.db, {
      teamId: OTHER,
      userId: STRANGER,
      clientId: "mcpc_claude0000000000000",
      createdAt: at(1),
    });

    const mine = await list(maya);
    expect(mine).toEqual([
      {
        id: mayaClaude,
        client_id: "mcpc_claude0000000000000",
        client_name: "Claude",
        client_uri: "https://claude.ai",
        redirect_host: "claude.ai",
        kind: "dynamic",
        scopes: ["standups:read", "standups:write"],
        user_id: MAYA,
        user_name: "Maya Okafor",
        mine: true,
        created_at: at(30).toISOString(),
        last_used_at: at(5).toISOString(),
      },
    ]);

    // Newest first; every person of the workspace, named, and only the admin's own marked mine.
    const all = await list(admin);
    expect(all.map((g) => [g.id, g.user_name, g.mine])).toEqual([
      [adminClaude, "Ada Admin", true],
      [leoGpt, "Leo Fernández", false],
      [mayaClaude, "Maya Okafor", false],
    ]);
    const gpt = all.find((g) => g.id === leoGpt)!;
    expect(gpt).toMatchObject({
      client_name: "ChatGPT",
      kind: "metadata_document",
      client_uri: null,
      redirect_host: "chatgpt.example",
      scopes: ["standups:read"],
      last_used_at: null,
    });

    expect((await list(stranger)).map((g) => g.id)).toEqual([strangers]);
    expect(await list(leo)).toHaveLength(1);
  });

  it("a member revokes their own grant (gone from the list); not another person's, nor an unknown one", async () => {
    const own = await seedGrant(t.deps.db, {
      teamId: TEAM,
      userId: LEO,
      clientId: "mcpc_claude0000000000000",
      createdAt: at(2),
    });
    const mayas = await seedGrant(t.deps.db, {
      teamId: TEAM,
      userId: MAYA,
      clientId: "mcpc_claude0000000000000",
      createdAt: at(2),
    });

    const refused = await revoke(leo, mayas);
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toEqual({ error: "Connected client not found" });
    expect(await revokedAt(mayas)).toBeNull();

    for (const bad of ["999999999", "0", "-1", "abc", "1e3", "12345678901234567890"]) {
      expect((await revoke(leo, bad)).statusCode, bad).toBe(404);
    }

    const res = await revoke(leo, own);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    expect(await revokedAt(own)).toEqual(t.clock.now());
    expect((await list(leo)).map((g) => g.id)).not.toContain(own);
    expect((await list(admin)).map((g) => g.id)).not.toContain(own);
    // Revoked already: no live grant to revoke, and the first revocation time stays.
    expect((await revoke(leo, own)).statusCode).toBe(404);
  });

  it("an admin revokes anyone's grant in the workspace, never another workspace's", async () => {
    const mayas = await seedGrant(t.deps.db, {
      teamId: TEAM,
      userId: MAYA,
      clientId: "https://chatgpt.example/oauth/client.json",
      createdAt: at(3),
    });
    const strangers = await seedGrant(t.deps.db, {
      teamId: OTHER,
      userId: STRANGER,
      clientId: "mcpc_claude0000000000000",
      createdAt: at(3),
    });

    expect((await revoke(admin, strangers)).statusCode).toBe(404);
    expect(await revokedAt(strangers)).toBeNull();
    expect((await list(stranger)).map((g) => g.id)).toContain(strangers);

    expect((await revoke(admin, mayas)).json()).toEqual({ ok: true });
    expect(await revokedAt(mayas)).not.toBeNull();
    expect((await list(maya)).map((g) => g.id)).not.toContain(mayas);

    // The other workspace's admin cannot reach this one's grants either.
    const leos = await seedGrant(t.deps.db, {
      teamId: TEAM,
      userId: LEO,
      clientId: "mcpc_claude0000000000000",
      createdAt: at(1),
    });
    expect((await revoke(stranger, leos)).statusCode).toBe(404);
    expect(await revokedAt(leos)).toBeNull();
  });

  it("needs a session, refuses cross-site revocations, and is in the OpenAPI document", async () => {
    expect((await t.inject({ method: "GET", url: "/dashboard/api/oauth/grants" })).statusCode).toBe(401);
    expect((await t.inject({ method: "DELETE", url: "/dashboard/api/oauth/grants/1" })).statusCode).toBe(401);
    const id = await seedGrant(t.deps.db, {
      teamId: TEAM,
      userId: MAYA,
      clientId: "mcpc_claude0000000000000",
      createdAt: at(1),
    });
    const cross = await t.inject({
      method: "DELETE",
      url: `/dashboard/api/oauth/grants/${id}`,
      headers: { cookie: maya, origin: "https://evil.example" },
    });
    expect(cross.statusCode).toBe(403);
    expect(await revokedAt(id)).toBeNull();

    const doc = (await t.inject({ method: "GET", url: "/openapi.json" })).json() as {
      paths: Record<string, Record<string, unknown>>;
      components: { schemas: Record<string, unknown> };
    };
    expect(Object.keys(doc.paths["/dashboard/api/oauth/grants"] ?? {})).toContain("get");
    expect(Object.keys(doc.paths["/dashboard/api/oauth/grants/{grant_id}"] ?? {})).toContain("delete");
    expect(doc.components.schemas.OAuthGrant).toBeDefined();
  });
});
