import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, describe, expect, it } from "vitest";
import { useTestApp } from "../../test/support/app.ts";
import { setWorkspaceTimezone } from "../../test/support/factories.ts";
import { kudos } from "../db/schema.ts";
import { createKey } from "../features/mcp-keys/index.ts";
import { KUDOS_LIMIT } from "./kudos-tools.ts";

const A = "T0MKUDA";
const B = "T0MKUDB";

describe("the get_kudos MCP tool", async () => {
  const t = await useTestApp();
  t.clock.set("2026-03-10T02:00:00Z"); // 15:00 on 10 March in Auckland
  await t.installTeam(A);
  await t.installTeam(B);
  await setWorkspaceTimezone(t.deps.db, A, "Pacific/Auckland");
  await t.addMember(A, "U0ANA", { realName: "Ana" });
  await t.addMember(A, "U0BEN", { realName: "Ben" });
  let seq = 0;
  const give = (teamId: string, from: string, to: string, at: string) =>
    t.deps.db.insert(kudos).values({
      teamId,
      fromUser: from,
      toUser: to,
      message: `thanks ${++seq}`,
      channelId: "C0K",
      source: "command",
      sourceKey: `cmd:${seq}`,
      givenOn: at.slice(0, 10),
      createdAt: new Date(at),
    });
  await give(A, "U0ANA", "U0BEN", "2026-03-09T10:59:00Z"); // 23:59 on 9 March, local
  await give(A, "U0BEN", "U0ANA", "2026-03-09T11:01:00Z"); // 00:01 on 10 March, local
  await give(A, "U0ANA", "U0BEN", "2026-03-09T12:00:00Z");
  await give(B, "U0ZED", "U0ZOE", "2026-03-09T12:00:00Z");
  const key = (await createKey(t.deps, A, "U0AADMIN", { name: "A" })).key;

  await t.app.server.listen({ port: 0, host: "127.0.0.1" });
  const address = t.app.server.server.address();
  const base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  const client = new Client({ name: "upbeat-kudos-test", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${key}` } },
    }),
  );
  afterAll(() => client.close());

  const call = async (args: Record<string, unknown>) => {
    const res = (await client.callTool({ name: "get_kudos", arguments: args })) as {
      content: { text: string }[];
      isError?: boolean;
    };
    return { isError: res.isError === true, text: res.content[0]!.text };
  };

  it("is listed as read-only", async () => {
    const { tools } = await client.listTools();
    const tool = tools.find((x) => x.name === "get_kudos");
    expect(tool?.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
  });

  it("gives the leaderboard and the kudos of the last days in the workspace timezone, only its own workspace's", async () => {
    const today = await call({ days: 1 });
    expect(today.isError).toBe(false);
    const json = JSON.parse(today.text);
    expect(json).toMatchObject({ from: "2026-03-10", to: "2026-03-10", days: 1, count: 2, truncated: false });
    expect(json.leaderboard).toEqual([
      { user_id: "U0ANA", real_name: "Ana", kudos_received: 1 },
      { user_id: "U0BEN", real_name: "Ben", kudos_received: 1 },
    ]);
    expect(json.kudos.map((k: { message: string }) => k.message)).toEqual(["thanks 3", "thanks 2"]);
    expect(json.kudos[0]).toMatchObject({ from_user: "U0ANA", from_name: "Ana", to_user: "U0BEN", to_name: "Ben" });
    const month = JSON.parse((await call({})).text);
    expect(month).toMatchObject({ from: "2026-02-09", to: "2026-03-10", days: 30, count: 3 });
    expect(month.leaderboard[0]).toEqual({ user_id: "U0BEN", real_name: "Ben", kudos_received: 2 });
  });

  it(`lists at most ${KUDOS_LIMIT} kudos and says when there were more`, async () => {
    for (let i = 0; i < KUDOS_LIMIT; i++) await give(A, "U0BEN", "U0ANA", "2026-03-08T00:00:00Z");
    const json = JSON.parse((await call({ days: 7 })).text);
    expect(json).toMatchObject({ count: KUDOS_LIMIT, truncated: true });
    expect(json.leaderboard[0]).toEqual({ user_id: "U0ANA", real_name: "Ana", kudos_received: KUDOS_LIMIT + 1 });
  });

  it.each([{ days: 0 }, { days: 366 }, { days: 2.5 }, { days: "7" }])(
    "bad arguments are a tool error: %j",
    async (args) => {
      expect((await call(args)).isError).toBe(true);
    },
  );
});
