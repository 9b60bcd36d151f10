import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { rows } from "../src/db/client.ts";
import { createKey } from "../src/features/mcp-keys/index.ts";
import { tick } from "../src/features/standups/index.ts";
import { useTestApp } from "./support/app.ts";
import { createSchedule } from "./support/factories.ts";
import { submitStandup } from "./support/standup-answers.ts";

const TEAM = "T0NUL";
const ADMIN = "U0NULADMIN";
const ANA = "U0NULANA";
const CHANNEL = "C0NULSTANDUP";

/** NUL bytes never reach the database: refused at the edge naming the field, or stripped where Slack sends them. */
describe("NUL bytes", async () => {
  const t = await useTestApp();
  await t.installTeam(TEAM, { installer: ADMIN });
  t.fake.addUser(TEAM, { id: ANA, name: "ana", real_name: "Ana" });
  await t.addMember(TEAM, ANA, { realName: "Ana" });
  const admin = await t.signIn(TEAM, ADMIN);
  const json = (method: "GET" | "PUT" | "POST", url: string, payload?: string) =>
    t.inject({
      method,
      url,
      headers: { cookie: admin, ...(payload === undefined ? {} : { "content-type": "application/json" }) },
      ...(payload === undefined ? {} : { payload }),
    });

  it("in a path parameter is a 400 naming it (was a 500)", async () => {
    const res = await json("PUT", "/dashboard/api/profiles/x%00y", JSON.stringify({ role: "Engineer" }));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: "user_id must not contain NUL bytes" });
  });

  it("in a query parameter, a JSON field, a JSON array item or a JSON key is a 400 naming it", async () => {
    const cases: [string, string, string | undefined, string][] = [
      ["GET", "/dashboard/api/reports?from=2026-03-01%00", undefined, "from must not contain NUL bytes"],
      ["PUT", "/dashboard/api/profile", JSON.stringify({ role: "Eng\u0000ineer" }), "role must not contain NUL bytes"],
      [
        "POST",
        "/dashboard/api/schedules",
        JSON.stringify({ channel_id: CHANNEL, questions: ["Done?", "Next\u0000?"] }),
        "questions[1] must not contain NUL bytes",
      ],
      [
        "PUT",
        "/dashboard/api/profile",
        JSON.stringify({ "role\u0000": "x" }),
        "a field name must not contain NUL bytes",
      ],
      // The escaped form in the JSON text is the same character once parsed.
      ["PUT", "/dashboard/api/profile", '{"location": "Par\\u0000is"}', "location must not contain NUL bytes"],
    ];
    for (const [method, url, payload, error] of cases) {
      const res = await json(method as "GET", url, payload);
      expect(res.statusCode, url).toBe(400);
      expect(res.json(), url).toEqual({ error });
    }
    const [profile] = await rows<{ n: number }>(
      t.deps.db,
      sql`select count(*)::int as n from profiles where team_id = ${TEAM}`,
    );
    expect(profile!.n).toBe(0);
  });

  it("in the feed token, a login token, a session cookie or an MCP key is refused, never a 500", async () => {
    expect((await t.inject({ method: "GET", url: "/feed/abc%00def" })).statusCode).toBe(400);
    expect((await t.inject({ method: "GET", url: "/dashboard/login?t=a%00b" })).statusCode).toBe(400);
    const me = await t.inject({ method: "GET", url: "/dashboard/api/me", headers: { cookie: "svc_session=ab%00cd" } });
    expect(me.statusCode).toBe(401);
    const mcp = await t.inject({
      method: "POST",
      url: "/mcp",
      headers: { authorization: `Bearer svc_${"a".repeat(20)}\u0000${"b".repeat(20)}`, accept: "application/json" },
      payload: { jsonrpc: "2.0", id: 1, method: "ping" },
    });
    expect(mcp.statusCode).toBe(401);
    expect(mcp.json().error.code).toBe(-32001);
  });

  it("in an MCP tool argument is a tool error naming the argument (was: invalid byte sequence for encoding UTF8)", async () => {
    const { key } = await createKey(t.deps, TEAM, ADMIN, { name: "nul" });
    const call = async (name: string, args: Record<string, unknown>) => {
      const res = await t.inject({
        method: "POST",
        url: "/mcp",
        headers: { authorization: `Bearer ${key}`, accept: "application/json, text/event-stream" },
        payload: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } },
      });
      expect(res.statusCode).toBe(200);
      return res.json().result as { isError?: boolean; content: { text: string }[] };
    };
    const search = await call("search_standups", { query: "deploy\u0000" });
    expect(search.isError).toBe(true);
    expect(search.content[0]!.text).toBe("query must not contain NUL bytes");
    const standups = await call("get_standups", { user_id: "U0\u0000" });
    expect(standups).toMatchObject({ isError: true, content: [{ text: "user_id must not contain NUL bytes" }] });
    expect((await call("search_standups", { query: "deploy" })).isError).toBeUndefined();
  });

  it("in what Slack sends is stripped: a standup answer with NUL bytes is stored without them", async () => {
    t.clock.set("2026-03-03T09:00:10Z");
    t.fake.addChannel(TEAM, { id: CHANNEL, name: "standup", members: [ANA, "B0NULBOT"] });
    await createSchedule(t.deps.db, t.clock, { teamId: TEAM, channelId: CHANNEL, time: "09:00", tz: "UTC" });
    const [runId] = (await tick(t.deps)).started;
    expect(runId).toBeDefined();
    await t.deps.queue.drain();
    const res = await submitStandup(t, TEAM, ANA, runId!, ["ship\u0000ped", "more\u0000", "none"]);
    expect(res.statusCode).toBe(200);
    await t.deps.queue.drain();
    const stored = await rows<{ answers: string[] }>(
      t.deps.db,
      sql`select answers from responses where team_id = ${TEAM} and user_id = ${ANA}`,
    );
    expect(stored).toEqual([{ answers: ["shipped", "more", "none"] }]);
    // A slash command typed with a NUL is answered, not failed.
    expect((await t.sendCommand(TEAM, ANA, "help\u0000")).statusCode).toBe(200);
  });
});
