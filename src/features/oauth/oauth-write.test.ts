import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import { createSchedule } from "../../../test/support/factories.ts";
import { connectWithOAuth, SdkOAuthProvider } from "../../../test/support/mcp-oauth-sdk.ts";
import { freePort } from "../../../test/support/tls-document-server.ts";
import { startReceiver } from "../../../test/support/webhook-receiver.ts";
import { rows } from "../../db/client.ts";
import { tick } from "../standups/index.ts";

const TEAM = "T0OWR";
const BOT = `B${TEAM}BOT`;
const ADMIN = "U0OWRADMIN";
const MAYA = "U0OWRMAYA";
const REDIRECT = "http://127.0.0.1:8977/callback";

/**
 * A member connects an AI client with OAuth (the SDK's client) and answers her standup through it: the answer is
 * hers, shows in reports "via MCP", fires the webhook and is replied in the thread, as one from Slack would be.
 */
describe("a write tool over OAuth, end to end", async () => {
  const receiver = await startReceiver();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const t = await useTestApp({
    env: { APP_URL: base, WEBHOOK_ALLOW_PRIVATE: "true" },
    outbound: { allowPlainHttp: true },
  });
  const clients: Client[] = [];
  afterAll(async () => {
    for (const c of clients) await c.close().catch(() => {});
    await receiver.close();
  });
  t.clock.set("2026-03-01T12:00:00Z");
  await t.installTeam(TEAM, { name: "Writers", installer: ADMIN });
  t.fake.addUser(TEAM, { id: MAYA, name: "maya", real_name: "Maya" });
  await t.addMember(TEAM, MAYA, { realName: "Maya" });
  t.fake.addChannel(TEAM, { id: "C0OWR", name: "standup", members: [MAYA, BOT] });
  const daily = await createSchedule(t.deps.db, t.clock, { teamId: TEAM, channelId: "C0OWR", time: "09:00" });
  const admin = await t.signIn(TEAM, ADMIN);
  const hook = await t.inject({
    method: "POST",
    url: "/dashboard/api/webhooks",
    headers: { cookie: admin, "content-type": "application/json" },
    payload: JSON.stringify({ url: `${receiver.origin}/hook`, events: ["standup.submitted"] }),
  });
  expect(hook.statusCode, hook.body).toBe(201);
  t.clock.set("2026-03-02T09:00:10Z");
  await tick(t.deps);
  await t.deps.queue.drain();
  const maya = await t.signIn(TEAM, MAYA);
  await t.app.server.listen({ port, host: "127.0.0.1" });
  const mcpUrl = new URL(`${base}/mcp`);

  it("submit_standup as the member who consented: reports via MCP, the webhook, the thread reply", async () => {
    const provider = new SdkOAuthProvider({ base, cookie: maya, redirect: REDIRECT });
    const client = await connectWithOAuth(mcpUrl, provider);
    clients.push(client);
    expect(provider.saved?.scope).toBe("standups:read standups:write");
    const result = await client.callTool({
      name: "submit_standup",
      arguments: { answers: ["Fixed the flaky export", "Reviews", "none"], mood: "🙂" },
    });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ created: true, schedule_id: daily, standup_date: "2026-03-02" });

    const reports = await t.inject({ method: "GET", url: "/dashboard/api/reports?days=1", headers: { cookie: admin } });
    const standups = (reports.json() as { standups: { user_id: string; via: string | null; yesterday: string }[] })
      .standups;
    expect(standups).toEqual([
      expect.objectContaining({ user_id: MAYA, via: "mcp", yesterday: "Fixed the flaky export" }),
    ]);
    await t.deps.queue.drain();
    await expect.poll(() => receiver.received.length).toBeGreaterThanOrEqual(1);
    expect(receiver.received[0]!.body).toContain("standup.submitted");
    expect(receiver.received[0]!.body).toContain(MAYA);
    const reply = t.fake
      .callsTo("chat.postMessage")
      .find((c) => c.args.thread_ts && JSON.stringify(c.args.blocks ?? []).includes("Fixed the flaky export"));
    expect(reply?.args.channel).toBe("C0OWR");
    expect(JSON.stringify(reply?.args.blocks)).toContain("via MCP");
  });

  it("a read-only grant lists no write tool and cannot call one; nothing is stored", async () => {
    const provider = new SdkOAuthProvider({ base, cookie: admin, redirect: REDIRECT }, { scope: "standups:read" });
    const client = await connectWithOAuth(mcpUrl, provider);
    clients.push(client);
    expect((await client.listTools()).tools.map((tool) => tool.name)).not.toContain("give_kudos");
    const refused = await client
      .callTool({ name: "give_kudos", arguments: { to_user_id: MAYA, message: "thanks" } })
      .catch((err: unknown) => ({ isError: true, content: [{ type: "text", text: String(err) }] }));
    expect(refused.isError).toBe(true);
    const kudos = await rows<{ n: number }>(
      t.deps.db,
      sql`select count(*)::int as n from kudos where team_id = ${TEAM}`,
    );
    expect(kudos[0]!.n).toBe(0);
  });
});
