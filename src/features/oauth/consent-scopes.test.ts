import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import {
  nextAddress,
  pkce,
  registerTestClient,
  startAuthorization,
  TEST_REDIRECT,
  tokenRequest,
} from "../../../test/support/mcp-oauth.ts";
import { oauthGrants } from "../../db/schema.ts";

const TEAM = "T0OANARROW";
const ADMIN = "U0OANADMIN";
const MAYA = "U0OANMAYA";
const BOTH = "standups:read standups:write";

/** The consent page's choice: a person may allow less than the client asked for, never more. */
describe("approving a consent request with a choice of scopes", async () => {
  const t = await useTestApp();
  await t.installTeam(TEAM, { installer: ADMIN, name: "Narrow" });
  await t.addMember(TEAM, MAYA, { realName: "Maya Okafor" });
  const cookie = await t.signIn(TEAM, MAYA);
  const clientId = await registerTestClient(t);

  const approve = (id: string, payload: unknown) =>
    t.inject({
      method: "POST",
      url: `/dashboard/api/oauth/requests/${id}/approve`,
      headers: { cookie, "content-type": "application/json" },
      payload: JSON.stringify(payload),
    });

  /** Approves with the body given, exchanges the code and lists the tools the access token sees. */
  async function approveAndUse(scope: string, payload: unknown) {
    const { verifier, challenge } = pkce();
    const id = await startAuthorization(t, { clientId, challenge, cookie, scope });
    const approved = await approve(id, payload);
    expect(approved.statusCode, approved.body).toBe(200);
    const code = new URL(approved.json().redirect_to).searchParams.get("code") ?? "";
    const token = await tokenRequest(t, {
      grant_type: "authorization_code",
      code,
      code_verifier: verifier,
      client_id: clientId,
      redirect_uri: TEST_REDIRECT,
    });
    expect(token.statusCode, token.body).toBe(200);
    const listed = await t.inject({
      method: "POST",
      url: "/mcp",
      remoteAddress: nextAddress(),
      headers: {
        authorization: `Bearer ${token.json().access_token}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      payload: { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} },
    });
    expect(listed.statusCode, listed.body).toBe(200);
    const tools = (listed.json().result.tools as { name: string }[]).map((tool) => tool.name);
    const grants = await t.deps.db.select().from(oauthGrants).where(eq(oauthGrants.userId, MAYA));
    return { scope: token.json().scope as string, tools, grant: grants.at(-1) };
  }

  it("read only, chosen for a client that asked for write: the grant, the token and the tools are read only", async () => {
    const used = await approveAndUse(BOTH, { scopes: ["standups:read"] });
    expect(used.grant?.scopes).toEqual(["standups:read"]);
    expect(used.scope).toBe("standups:read");
    expect(used.tools).toContain("get_blockers");
    expect(used.tools).not.toContain("submit_standup");
  });

  it("without a choice, or choosing both, the client gets what it asked for", async () => {
    for (const payload of [{}, { scopes: ["standups:write", "standups:read"] }]) {
      const used = await approveAndUse(BOTH, payload);
      expect(used.grant?.scopes).toEqual(["standups:read", "standups:write"]);
      expect(used.scope).toBe(BOTH);
      expect(used.tools).toContain("submit_standup");
    }
  });

  it("refuses with 400 a choice that widens, drops read or is not a scope; the request stays open", async () => {
    const { challenge } = pkce();
    const readOnly = await startAuthorization(t, { clientId, challenge, cookie, scope: "standups:read" });
    const widen = await approve(readOnly, { scopes: ["standups:read", "standups:write"] });
    expect(widen.statusCode).toBe(400);
    expect(widen.json().error).toContain("did not ask for standups:write");

    const asksBoth = await startAuthorization(t, { clientId, challenge, cookie, scope: BOTH });
    for (const scopes of [["standups:write"], [], ["standups:admin"], "standups:read"]) {
      const refused = await approve(asksBoth, { scopes });
      expect(refused.statusCode, JSON.stringify(scopes)).toBe(400);
    }
    const before = (await t.deps.db.select().from(oauthGrants).where(eq(oauthGrants.userId, MAYA))).length;
    // Nothing was granted or claimed: both requests can still be answered.
    expect((await approve(readOnly, { scopes: ["standups:read"] })).statusCode).toBe(200);
    expect((await approve(asksBoth, { scopes: ["standups:read"] })).statusCode).toBe(200);
    const after = await t.deps.db.select().from(oauthGrants).where(eq(oauthGrants.userId, MAYA));
    expect(after.length).toBe(before + 2);
    expect(after.at(-1)?.scopes).toEqual(["standups:read"]);
  });
});
