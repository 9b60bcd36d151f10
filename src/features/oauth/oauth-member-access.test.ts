import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import { useMcpClients } from "../../../test/support/mcp-client.ts";
import { oauthTokens, tokenRequest } from "../../../test/support/mcp-oauth.ts";
import { rows } from "../../db/client.ts";
import { createKey } from "../mcp-keys/index.ts";

const TEAM = "T0OMA";
const ADMIN = "U0OMAADMIN";
const MAYA = "U0OMAMAYA";
const LEO = "U0OMALEO";

/**
 * What an OAuth token reaches follows its member, as a dashboard session does: a member reads people as the
 * dashboard shows members (no e-mails, no roles), and a member who was deactivated is shut out at once.
 */
describe("OAuth access follows the member", async () => {
  const t = await useTestApp();
  await t.installTeam(TEAM, { installer: ADMIN, name: "Members" });
  await t.addMember(TEAM, MAYA, { realName: "Maya", email: "maya@example.com" });
  await t.addMember(TEAM, LEO, { realName: "Leo", email: "leo@example.com" });
  const admin = await t.signIn(TEAM, ADMIN);
  const maya = await t.signIn(TEAM, MAYA);
  const leo = await t.signIn(TEAM, LEO);
  const mcp = await useMcpClients(t);

  const setActive = (userId: string, active: boolean) =>
    t.deps.db.execute(sql`update members set active = ${active} where team_id = ${TEAM} and user_id = ${userId}`);
  const setRole = (userId: string, role: "admin" | "member") =>
    t.deps.db.execute(sql`update members set role = ${role} where team_id = ${TEAM} and user_id = ${userId}`);
  const getMembers = async (token: string) => {
    const out = await mcp.call(await mcp.connect(token), "get_members");
    expect(out.isError, out.text).toBe(false);
    return out;
  };
  const refresh = (token: { clientId: string; refresh_token: string }, extra: Record<string, string> = {}) =>
    tokenRequest(t, {
      grant_type: "refresh_token",
      refresh_token: token.refresh_token,
      client_id: token.clientId,
      ...extra,
    });

  it("get_members over a member's token shows what /dashboard/api/people shows: no e-mail, no role", async () => {
    const { access_token } = await oauthTokens(t, maya);
    const out = await getMembers(access_token);
    expect(out.text).not.toContain("@example.com");
    const people = await t.inject({ method: "GET", url: "/dashboard/api/people", headers: { cookie: maya } });
    expect(people.statusCode).toBe(200);
    const listed = out.json.members as Record<string, unknown>[];
    expect(listed).toEqual(people.json());
    for (const m of listed) expect(Object.keys(m).sort()).toEqual(Object.keys(people.json()[0]).sort());
    expect(listed.some((m) => "role" in m || "email" in m)).toBe(false);
    expect(out.json).toMatchObject({ count: 3, active: 3 });
  });

  it("an admin's token and an API key still read e-mails and roles; the role is read per request", async () => {
    const { access_token } = await oauthTokens(t, admin);
    const viaAdmin = (await getMembers(access_token)).json.members as {
      user_id: string;
      email: string;
      role: string;
    }[];
    expect(viaAdmin.find((m) => m.user_id === MAYA)).toMatchObject({ email: "maya@example.com", role: "member" });
    const key = await createKey(t.deps, TEAM, ADMIN, { name: "ci" });
    expect((await getMembers(key.key)).text).toContain("maya@example.com");

    // Maya's token made while she was a member reads as an admin once she is one, and back.
    const mine = await oauthTokens(t, maya);
    await setRole(MAYA, "admin");
    expect((await getMembers(mine.access_token)).text).toContain("leo@example.com");
    await setRole(MAYA, "member");
    expect((await getMembers(mine.access_token)).text).not.toContain("leo@example.com");
  });

  it("a deactivated member's access token is refused and their refresh token refreshes nothing", async () => {
    const token = await oauthTokens(t, leo);
    expect((await getMembers(token.access_token)).isError).toBe(false);
    await setActive(LEO, false);
    const refused = await t.inject({
      method: "POST",
      url: "/mcp",
      headers: {
        authorization: `Bearer ${token.access_token}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      payload: { jsonrpc: "2.0", id: 1, method: "ping" },
    });
    expect(refused.statusCode).toBe(401);
    const res = await refresh(token);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe("invalid_grant");
    // Back in the workspace, the same grant works again: deactivation refused it, it did not burn it.
    await setActive(LEO, true);
    expect((await refresh(token)).statusCode).toBe(200);
  });

  it("a refresh that fails validation leaves the token usable; only a true replay revokes the grant", async () => {
    const token = await oauthTokens(t, maya, { scope: "standups:read" });
    const widen = await refresh(token, { scope: "standups:read standups:write" });
    expect(widen.statusCode).toBe(400);
    expect(widen.json().error).toBe("invalid_scope");
    const otherResource = await refresh(token, { resource: "https://elsewhere.example/mcp" });
    expect(otherResource.json().error).toBe("invalid_target");

    const ok = await refresh(token);
    expect(ok.statusCode, ok.body).toBe(200);
    const replay = await refresh(token);
    expect(replay.statusCode).toBe(400);
    expect(replay.json().error).toBe("invalid_grant");
    const [grant] = await rows<{ revoked_at: unknown }>(
      t.deps.db,
      sql`select revoked_at from oauth_grants where client_id = ${token.clientId}`,
    );
    expect(grant?.revoked_at).not.toBeNull();
    expect((await refresh({ clientId: token.clientId, refresh_token: ok.json().refresh_token })).statusCode).toBe(400);
  });
});
