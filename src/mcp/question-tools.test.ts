import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, describe, expect, it } from "vitest";
import { useTestApp } from "../../test/support/app.ts";
import { createSchedule } from "../../test/support/factories.ts";
import { seedTypedRun, seedTypedWeek, TYPED_QUESTIONS } from "../../test/support/typed-answers.ts";
import { createKey } from "../features/mcp-keys/index.ts";

const A = "T0MCPQA";
const B = "T0MCPQB";
const ANONYMOUS = TYPED_QUESTIONS[7]!.text;

describe("MCP: typed answers and get_question_stats", async () => {
  const t = await useTestApp();
  t.clock.set("2026-03-06T18:00:00Z");
  await t.installTeam(A, { name: "Acme" });
  await t.installTeam(B, { name: "Bravo" });
  for (const u of ["U0AMY", "U0BOB", "U0CID"]) await t.addMember(A, u, { realName: u.slice(2) });
  const standup = await createSchedule(t.deps.db, t.clock, { teamId: A, channelId: "C0TYPED", time: "09:00" });
  await seedTypedWeek(t.deps.db, A, standup);
  const standupB = await createSchedule(t.deps.db, t.clock, { teamId: B, channelId: "C0TYPED", time: "09:00" });
  await seedTypedRun(t.deps.db, {
    teamId: B,
    scheduleId: standupB,
    date: "2026-03-06",
    answers: {},
    anonymous: { 7: [5, 5, 5, 5, 5] },
  });
  const keyA = (await createKey(t.deps, A, "U0AADMIN", { name: "A" })).key;

  await t.app.server.listen({ port: 0, host: "127.0.0.1" });
  const address = t.app.server.server.address();
  const base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  const client = new Client({ name: "upbeat-question-tools-test", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${keyA}` } },
    }),
  );
  afterAll(async () => {
    await client.close().catch(() => {});
  });

  const call = async (name: string, args: Record<string, unknown>) => {
    const res = (await client.callTool({ name, arguments: args })) as {
      content: { type: string; text: string }[];
      structuredContent?: unknown;
      isError?: boolean;
    };
    const text = res.content[0]!.text;
    if (res.isError) return { isError: true as const, text, json: {} as Record<string, unknown> };
    const json = JSON.parse(text) as Record<string, unknown>;
    expect(res.structuredContent).toEqual(json);
    return { isError: false as const, text, json };
  };
  type Stat = { text: string; answered: number; average: number | null; hidden: boolean; options: unknown[] };
  const find = (json: Record<string, unknown>, text: string) =>
    (json.question_stats as Stat[]).find((q) => q.text === text)!;

  it("get_question_stats: the week's average, option counts and the anonymous question shown at 5 answers", async () => {
    const { json, isError } = await call("get_question_stats", { standup_id: standup, days: 5 });
    expect(isError).toBe(false);
    expect(json).toMatchObject({ standup_id: standup, from: "2026-03-02", to: "2026-03-06", days: 5 });
    expect(find(json, "How confident are you, 1–5?")).toMatchObject({ answered: 11, average: 3.82, min: 1, max: 5 });
    expect(find(json, "Pairing today?").options).toEqual([
      { option: "Yes", count: 4 },
      { option: "No", count: 5 },
    ]);
    // Only Wednesday's closed run has 5 anonymous answers: Monday's 4 and Tuesday's 1 are in no total.
    expect(find(json, ANONYMOUS)).toMatchObject({
      anonymous: true,
      answered: 5,
      average: 3,
      min: null,
      max: null,
      hidden: false,
    });
    expect(json).not.toHaveProperty("questions");
  });

  it("get_question_stats hides an anonymous question whose only run has 4 answers", async () => {
    t.clock.set("2026-03-02T18:00:00Z");
    try {
      const { json } = await call("get_question_stats", { standup_id: standup, days: 1 });
      expect(find(json, ANONYMOUS)).toMatchObject({
        answered: 0,
        average: null,
        options: [],
        hidden: true,
        hidden_reason: "not enough answers to show",
      });
    } finally {
      t.clock.set("2026-03-06T18:00:00Z");
    }
  });

  it("get_question_stats refuses another workspace's standup and a missing one", async () => {
    const res = await call("get_question_stats", { standup_id: standupB });
    expect(res.isError).toBe(true);
    expect(res.text).toMatch(`schedule_id ${standupB} is not a standup of this workspace`);
    expect((await call("get_question_stats", {})).isError).toBe(true);
  });

  it("get_standups and search_standups carry answer_values and no anonymous answer", async () => {
    const { json } = await call("get_standups", { from_date: "2026-03-02", to_date: "2026-03-02", user_id: "U0AMY" });
    const [amy] = json.standups as { answers: { answer: string }[]; answer_values: unknown[] }[];
    expect(amy!.answer_values).toEqual([null, null, null, 3, "Frontend", true, ["Slack", "GitHub"], null]);
    expect(amy!.answers.map((a) => a.answer)).toEqual([
      "Worked on the API",
      "Today: tests",
      "none",
      "3",
      "Frontend",
      "Yes",
      "Slack, GitHub",
      "",
    ]);
    const search = await call("search_standups", { query: "Frontend", days: 30 });
    const results = search.json.results as { answer_values: unknown[] }[];
    expect(results.length).toBeGreaterThan(0);
    expect(results.every((r) => r.answer_values[7] === null)).toBe(true);
  });
});
