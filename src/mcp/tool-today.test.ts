import { describe, expect, it } from "vitest";
import { useTestApp } from "../../test/support/app.ts";
import { setWorkspaceTimezone } from "../../test/support/factories.ts";
import { useMcpClients } from "../../test/support/mcp-client.ts";
import { oauthTokens } from "../../test/support/mcp-oauth.ts";
import { createKey } from "../features/mcp-keys/index.ts";

const TEAM = "T0MTODAY";

/**
 * The tools' "today" comes from the timezone read in the credential's own query (no query of its own): the workspace
 * calendar's zone, UTC without one or with an invalid one, and a change applies to the very next call (not cached),
 * for API keys and OAuth access tokens alike.
 */
describe("MCP tools date 'today' in the workspace timezone read with the credential", async () => {
  const t = await useTestApp();
  t.clock.set("2026-03-10T11:30:00Z"); // 00:30 on 11 March in Auckland; 10 March in UTC and Los Angeles
  await t.installTeam(TEAM);
  await t.addMember(TEAM, "U0TANA", { realName: "Ana" });
  const mcp = await useMcpClients(t);
  const key = await mcp.connect((await createKey(t.deps, TEAM, "U0TADMIN", { name: "today" })).key);
  const member = await t.signIn(TEAM, "U0TANA");
  const oauth = await mcp.connect((await oauthTokens(t, member)).access_token);

  const today = async (client: typeof key) => {
    const res = await mcp.call(client, "get_today_standups");
    expect(res.isError).toBe(false);
    return res.json.date;
  };
  const window = async (client: typeof key) => {
    const res = await mcp.call(client, "get_participation", { days: 2 });
    expect(res.isError).toBe(false);
    return [res.json.from, res.json.to];
  };

  it("without a calendar: UTC", async () => {
    expect(await today(key)).toBe("2026-03-10");
    expect(await today(oauth)).toBe("2026-03-10");
    expect(await window(key)).toEqual(["2026-03-09", "2026-03-10"]);
  });

  it("a saved zone applies at the next call, with a key and with an OAuth token", async () => {
    await setWorkspaceTimezone(t.deps.db, TEAM, "Pacific/Auckland");
    expect(await today(key)).toBe("2026-03-11");
    expect(await today(oauth)).toBe("2026-03-11");
    expect(await window(oauth)).toEqual(["2026-03-10", "2026-03-11"]);
    await setWorkspaceTimezone(t.deps.db, TEAM, "America/Los_Angeles");
    expect(await today(key)).toBe("2026-03-10");
    expect(await today(oauth)).toBe("2026-03-10");
  });

  it("an invalid saved zone reads as UTC, as workspaceToday does", async () => {
    await setWorkspaceTimezone(t.deps.db, TEAM, "Pacific/Auckland");
    expect(await today(key)).toBe("2026-03-11");
    await setWorkspaceTimezone(t.deps.db, TEAM, "Mars/Olympus_Mons");
    expect(await today(key)).toBe("2026-03-10");
    expect(await today(oauth)).toBe("2026-03-10");
  });
});
