import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, describe, expect, it } from "vitest";
import { type TestApp, useTestApp } from "../../test/support/app.ts";
import { seedBlocker } from "../../test/support/blockers.ts";
import { createSchedule } from "../../test/support/factories.ts";
import { oauthTokens } from "../../test/support/mcp-oauth.ts";
import { responses, runParticipants, standupRuns } from "../db/schema.ts";
import { createKey } from "../features/mcp-keys/index.ts";
import { isActiveBlocker } from "../features/standups/index.ts";

const A = "T0MCPA";
const B = "T0MCPB";
const TODAY = "2026-03-04";

type Answer = [user: string, yesterday: string, today: string, blockers: string, mood: string | null];

/** A run of a schedule on a day: everyone in `asked` was asked, the answers were submitted. */
async function seedDay(
  t: TestApp,
  teamId: string,
  scheduleId: string,
  date: string,
  asked: string[],
  answers: Answer[],
) {
  const at = new Date(`${date}T09:00:00Z`);
  const [run] = await t.deps.db
    .insert(standupRuns)
    .values({
      teamId,
      scheduleId,
      localDate: date,
      channelId: "C0STANDUP",
      questions: ["Yesterday?", "Today?", "Blockers?"],
      scheduleTz: "UTC",
      startsAt: at,
      remindAt: new Date(at.getTime() + 2 * 3600_000),
      closesAt: new Date(`${date}T23:59:59Z`),
      status: "open",
      createdAt: at,
    })
    .returning({ id: standupRuns.id });
  const runId = run!.id;
  await t.deps.db
    .insert(runParticipants)
    .values(asked.map((userId) => ({ runId, userId, teamId, status: "asked" as const, createdAt: at })));
  for (const [i, [userId, yesterday, today, blockers, mood]] of answers.entries()) {
    await t.deps.db.insert(responses).values({
      teamId,
      scheduleId,
      runId,
      userId,
      standupDate: date,
      answers: [yesterday, today, blockers],
      yesterday,
      today,
      blockers,
      mood,
      hasBlocker: isActiveBlocker(blockers),
      submittedAt: new Date(at.getTime() + (i + 1) * 60_000),
    });
  }
}

interface ToolJson {
  isError?: boolean;
  text: string;
  json: Record<string, unknown>;
  structured: unknown;
}

describe("MCP tools over a real HTTP server", async () => {
  const t = await useTestApp();
  t.clock.set(`${TODAY}T15:00:00Z`); // a Wednesday
  await t.installTeam(A, { name: "Acme" });
  await t.installTeam(B, { name: "Bravo" });
  for (const [id, name] of [
    ["U0ANA", "Ana"],
    ["U0BEN", "Ben"],
    ["U0CAT", "Cat"],
  ]) {
    await t.addMember(A, id!, { realName: name! });
  }
  await t.addMember(B, "U0ZED", { realName: "Zed" });
  const scheduleA = await createSchedule(t.deps.db, t.clock, { teamId: A, channelId: "C0STANDUP", time: "09:00" });
  await createSchedule(t.deps.db, t.clock, { teamId: A, channelId: "C0OTHER", time: "10:00", active: false });
  const scheduleB = await createSchedule(t.deps.db, t.clock, { teamId: B, channelId: "C0STANDUP", time: "09:00" });
  const team = ["U0ANA", "U0BEN", "U0CAT"];
  await seedDay(t, A, scheduleA, "2026-03-02", team, [
    ["U0ANA", "Shipped the login page", "Billing work", "none", "😀"],
    ["U0BEN", "Reviewed pull requests", "Deploying the API to staging", "Waiting on database credentials", "😕"],
  ]);
  await seedDay(t, A, scheduleA, "2026-03-03", team, [
    ["U0ANA", "Billing work", "More billing", "n/a", "🙂"],
    ["U0CAT", "Wrote docs", "Write more docs", "", "😐"],
  ]);
  await seedDay(t, A, scheduleA, TODAY, team, [
    ["U0ANA", "Finished billing", "Migrate the kubernetes cluster", "none", "🙂"],
    ["U0BEN", "Staging deploy", "Fix the flaky tests", "Staging environment is down", "😫"],
  ]);
  await seedDay(
    t,
    B,
    scheduleB,
    TODAY,
    ["U0ZED"],
    [["U0ZED", "Zebra secret project", "More kubernetes for zebra", "Blocked by zebra legal", "😀"]],
  );
  // The blocker items those answers leave (the Slack side makes them; see the standups feature): Ben's blocker of
  // Monday, repeated today, is one item; Cat's is from a month ago and still open; Ana's was resolved; Zed's is B's.
  const benBlocker = await seedBlocker(t.deps.db, {
    teamId: A,
    scheduleId: scheduleA,
    userId: "U0BEN",
    text: "Staging environment is down",
    openedDate: "2026-03-02",
    lastDate: TODAY,
  });
  const catBlocker = await seedBlocker(t.deps.db, {
    teamId: A,
    scheduleId: scheduleA,
    userId: "U0CAT",
    text: "Old laptop",
    openedDate: "2026-02-02",
  });
  await seedBlocker(t.deps.db, {
    teamId: A,
    scheduleId: scheduleA,
    userId: "U0ANA",
    text: "Fixed thing",
    openedDate: "2026-02-27",
    resolved: { by: "U0ANA", at: "2026-03-02T09:10:00Z", via: "answer" },
  });
  await seedBlocker(t.deps.db, {
    teamId: B,
    scheduleId: scheduleB,
    userId: "U0ZED",
    text: "Blocked by zebra legal",
    openedDate: TODAY,
  });
  const keyA = (await createKey(t.deps, A, "U0AADMIN", { name: "A" })).key;
  const keyB = (await createKey(t.deps, B, "U0BADMIN", { name: "B" })).key;

  await t.app.server.listen({ port: 0, host: "127.0.0.1" });
  const address = t.app.server.server.address();
  const base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;

  const clients: Client[] = [];
  afterAll(async () => {
    for (const c of clients) await c.close().catch(() => {});
  });
  const connect = async (key: string) => {
    const client = new Client({ name: "upbeat-tools-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${key}` } },
      }),
    );
    clients.push(client);
    return client;
  };
  const clientA = await connect(keyA);
  const clientB = await connect(keyB);
  // An OAuth access token a member of A granted (read and write): the same workspace walls as a key.
  const memberA = await t.signIn(A, "U0ANA");
  const oauthA = await connect((await oauthTokens(t, memberA, { scope: "standups:write" })).access_token);

  const call = async (name: string, args: Record<string, unknown> = {}, client = clientA): Promise<ToolJson> => {
    const res = (await client.callTool({ name, arguments: args })) as {
      content: { type: string; text: string }[];
      structuredContent?: unknown;
      isError?: boolean;
    };
    expect(res.content[0]!.type).toBe("text");
    const text = res.content[0]!.text;
    if (res.isError) return { isError: true, text, json: {}, structured: undefined };
    const json = JSON.parse(text) as Record<string, unknown>;
    expect(res.structuredContent).toEqual(json);
    return { text, json, structured: res.structuredContent };
  };

  it("get_standups defaults to the last 7 days, newest day first, with names and blocker flags", async () => {
    const { json } = await call("get_standups");
    expect(json).toMatchObject({ from: "2026-02-26", to: TODAY, days: 7, count: 6, truncated: false });
    const standups = json.standups as {
      user_id: string;
      standup_date: string;
      real_name: string;
      has_blocker: boolean;
    }[];
    expect(standups.map((s) => s.standup_date)).toEqual([
      TODAY,
      TODAY,
      "2026-03-03",
      "2026-03-03",
      "2026-03-02",
      "2026-03-02",
    ]);
    expect(standups[1]).toMatchObject({
      user_id: "U0BEN",
      real_name: "Ben",
      blockers: "Staging environment is down",
      mood: "😫",
      has_blocker: true,
      submitted_at: "2026-03-04T09:02:00Z",
    });
  });

  it("get_standups filters by date range and member", async () => {
    const { json } = await call("get_standups", { from_date: "2026-03-02", to_date: "2026-03-03", user_id: "U0ANA" });
    expect(json).toMatchObject({ from: "2026-03-02", to: "2026-03-03", days: 2, user_id: "U0ANA", count: 2 });
    const only = await call("get_standups", { to_date: "2026-03-02" });
    expect(only.json).toMatchObject({ from: "2026-02-24", to: "2026-03-02", count: 2 });
  });

  it("tools filter by standup and member; a standup of another workspace is a tool error", async () => {
    const own = await call("get_standups", { schedule_id: scheduleA, user_id: "U0BEN" });
    expect(own.json).toMatchObject({ schedule_id: scheduleA, user_id: "U0BEN", count: 2 });
    expect((own.json.standups as { schedule_id: string }[]).every((s) => s.schedule_id === scheduleA)).toBe(true);
    const blockers = await call("get_blockers", { user_id: "U0ANA" });
    expect(blockers.json).toMatchObject({ user_id: "U0ANA", count: 0 });
    const search = await call("search_standups", { query: "kubernetes", schedule_id: scheduleA, days: 365 });
    expect(search.json).toMatchObject({ count: 1, schedule_id: scheduleA });
    const ben = await call("get_participation", { days: 3, user_id: "U0BEN" });
    expect(ben.json.members).toEqual([expect.objectContaining({ user_id: "U0BEN", asked: 3, submitted: 2 })]);
    for (const tool of [
      "get_standups",
      "get_today_standups",
      "get_blockers",
      "get_participation",
      "get_mood_summary",
    ]) {
      const res = await call(tool, { schedule_id: scheduleB });
      expect(res.isError, tool).toBe(true);
      expect(res.text).toMatch(`schedule_id ${scheduleB} is not a standup of this workspace`);
    }
  });

  it("get_standups answers bad dates and too long a range with a tool error, not a crash", async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ from_date: "2026-02-30" }, /from_date 2026-02-30 is not a real date/],
      [{ to_date: "yesterday" }, /to_date/],
      [{ from_date: "2026-03-04", to_date: "2026-03-01" }, /after/],
      [{ from_date: "2025-01-01", to_date: "2026-03-04" }, /at most 92/],
      [{ from_date: "2025-11-01" }, /spans 124 days; at most 92/],
      [{ user_id: 42 }, /user_id/],
    ];
    for (const [args, message] of cases) {
      const res = await call("get_standups", args);
      expect(res.isError, JSON.stringify(args)).toBe(true);
      expect(res.text).toMatch(message);
    }
    expect((await call("get_standups", { from_date: "2025-12-03", to_date: "2026-03-04" })).isError).toBeUndefined();
  });

  it("get_today_standups returns today's submissions and the participation so far of the open run", async () => {
    const { json } = await call("get_today_standups");
    // Today's run closes at midnight: all three were asked, two answered so far, Cat has not missed it yet.
    expect(json).toMatchObject({
      date: TODAY,
      count: 2,
      participation: { submitted: 2, total: 3, pct: 67, open: true, awaiting: 1 },
    });
    expect((json.standups as { user_id: string }[]).map((s) => s.user_id)).toEqual(["U0ANA", "U0BEN"]);
  });

  it("get_blockers lists the open blocker items reported in the window, with status and age", async () => {
    const { json } = await call("get_blockers");
    expect(json).toMatchObject({ from: "2026-02-26", to: TODAY, days: 7, count: 1, truncated: false });
    expect(json.blockers).toEqual([
      {
        blocker_id: benBlocker,
        user_id: "U0BEN",
        real_name: "Ben",
        schedule_id: scheduleA,
        standup_name: expect.any(String),
        standup_date: TODAY,
        blockers: "Staging environment is down",
        status: "open",
        age_days: 2,
      },
    ]);
    // A longer window also finds Cat's month-old item, first: the longest open comes first. Resolved ones never.
    const month = await call("get_blockers", { days: 60 });
    expect(
      (month.json.blockers as { blocker_id: number; age_days: number }[]).map((b) => [b.blocker_id, b.age_days]),
    ).toEqual([
      [catBlocker, 30],
      [benBlocker, 2],
    ]);
    expect(month.text).not.toMatch(/Fixed thing/);
    const zed = await call("get_blockers", { days: 365 }, clientB);
    expect((zed.json.blockers as { user_id: string }[]).map((b) => b.user_id)).toEqual(["U0ZED"]);
    expect((await call("get_blockers", { days: 0 })).isError).toBe(true);
    expect((await call("get_blockers", { days: 366 })).isError).toBe(true);
    expect((await call("get_blockers", { days: 2.5 })).isError).toBe(true);
  });

  it("get_participation gives daily rows, the overall percentage and a per-member breakdown", async () => {
    const { json } = await call("get_participation", { days: 3 });
    // Today's run is still open: its row counts all three asked (67 % so far), but Cat is awaited, not missing:
    // the window's 6 answers of the 8 that count.
    expect(json).toMatchObject({ from: "2026-03-02", to: TODAY, days: 3, overall_pct: 75 });
    expect(json.daily).toEqual([
      {
        date: "2026-03-02",
        submitted: 2,
        total: 3,
        pct: 67,
        open: false,
        awaiting: 0,
        standups: [{ schedule_id: scheduleA, submitted: 2, total: 3, pct: 67, open: false, awaiting: 0 }],
      },
      {
        date: "2026-03-03",
        submitted: 2,
        total: 3,
        pct: 67,
        open: false,
        awaiting: 0,
        standups: [{ schedule_id: scheduleA, submitted: 2, total: 3, pct: 67, open: false, awaiting: 0 }],
      },
      {
        date: TODAY,
        submitted: 2,
        total: 3,
        pct: 67,
        open: true,
        awaiting: 1,
        standups: [{ schedule_id: scheduleA, submitted: 2, total: 3, pct: 67, open: true, awaiting: 1 }],
      },
    ]);
    const ana = (json.members as { user_id: string }[]).find((m) => m.user_id === "U0ANA");
    expect(ana).toMatchObject({ asked: 3, submitted: 3, pct: 100, current_streak: 3, blockers: 0 });
  });

  it("get_members lists the workspace's members", async () => {
    const { json } = await call("get_members");
    const members = json.members as { user_id: string; real_name: string; role: string }[];
    expect(members.map((m) => m.real_name)).toEqual(expect.arrayContaining(["Ana", "Ben", "Cat"]));
    expect(Object.keys(members[0]!).sort()).toEqual(["active", "email", "real_name", "role", "tz", "user_id"]);
    expect(json.count).toBe(members.length);
  });

  it("search_standups ranks full-text matches and highlights the words in a snippet", async () => {
    const { json } = await call("search_standups", { query: "kubernetes" });
    expect(json).toMatchObject({ query: "kubernetes", days: 30, count: 1 });
    const [hit] = json.results as { user_id: string; snippet: string; standup_date: string; rank: number }[];
    expect(hit).toMatchObject({ user_id: "U0ANA", standup_date: TODAY });
    expect(hit!.snippet).toContain("**kubernetes**");
    expect(hit!.rank).toBeGreaterThan(0);
    const stemmed = await call("search_standups", { query: "deploy" });
    const snippets = (stemmed.json.results as { snippet: string }[]).map((r) => r.snippet).join(" ");
    expect(stemmed.json.count).toBe(2);
    expect(snippets).toContain("**Deploying**");
    const none = await call("search_standups", { query: "xylophone" });
    expect(none.json).toMatchObject({ count: 0, results: [] });
    expect(none.json.hint).toBeTypeOf("string");
    expect((await call("search_standups", {})).isError).toBe(true);
    expect((await call("search_standups", { query: "   " })).isError).toBe(true);
  });

  it("get_workspace_summary gives stats, the team name, schedules and the week's mood", async () => {
    const { json } = await call("get_workspace_summary");
    expect(json).toMatchObject({
      team_name: "Acme",
      today: TODAY,
      total_members: 4, // the three people and the installer
      submitted_today: 2,
      participation_7d_pct: 75, // 6 answers of 8: today's open run counts its two answers so far
      active_blockers: 2, // open items: Ben's and Cat's (however old)
      schedules: 2,
      active_schedules: 1,
    });
    expect(json.standups).toEqual(
      expect.arrayContaining([
        {
          schedule_id: scheduleA,
          standup_name: expect.stringMatching(/standup/i),
          channel_id: "C0STANDUP",
          active: true,
        },
      ]),
    );
    expect(json.mood_7d).toMatchObject({ trend: expect.stringMatching(/^(up|down|flat)$/) });
    expect((json.mood_7d as { overall_avg: number }).overall_avg).toBeCloseTo((5 + 2 + 4 + 3 + 4 + 1) / 6, 2);
  });

  it("get_mood_summary gives daily averages, counts per mood and the trend", async () => {
    const { json } = await call("get_mood_summary");
    expect(json).toMatchObject({ from: "2026-02-19", to: TODAY, days: 14, responses_with_mood: 6, trend: "down" });
    expect(json.daily).toEqual([
      { date: "2026-03-02", avg_score: 3.5, counts: { "😀": 1, "😕": 1 } },
      { date: "2026-03-03", avg_score: 3.5, counts: { "🙂": 1, "😐": 1 } },
      { date: TODAY, avg_score: 2.5, counts: { "🙂": 1, "😫": 1 } },
    ]);
  });

  it("a key, or an OAuth token, sees only its own workspace", async () => {
    for (const client of [clientA, oauthA]) {
      const seenByA = [
        await call("get_standups", { from_date: "2026-01-01", to_date: TODAY }, client),
        await call("get_today_standups", {}, client),
        await call("get_blockers", { days: 365 }, client),
        await call("get_members", {}, client),
        await call("get_participation", { days: 365 }, client),
        await call("get_kudos", { days: 365 }, client),
        await call("get_workspace_summary", {}, client),
        await call("get_mood_summary", { days: 365 }, client),
      ]
        .map((r) => r.text)
        .join("\n");
      expect(seenByA).toMatch(/U0ANA/);
      expect(seenByA).not.toMatch(/U0ZED|Zed|zebra|Bravo/i);
      for (const query of ["zebra", "zebra OR kubernetes", "legal"]) {
        const found = (await call("search_standups", { query, days: 365 }, client)).json.results as {
          user_id: string;
        }[];
        expect(JSON.stringify(found), query).not.toMatch(/U0ZED|zebra/i);
      }
    }
    const b = await call("get_standups", {}, clientB);
    expect((b.json.standups as { user_id: string }[]).map((s) => s.user_id)).toEqual(["U0ZED"]);
    const bSummary = await call("get_workspace_summary", {}, clientB);
    expect(bSummary.json).toMatchObject({ team_name: "Bravo", submitted_today: 1, schedules: 1 });
    const bMembers = (await call("get_members", {}, clientB)).text;
    expect(bMembers).not.toMatch(/U0ANA|U0BEN|U0CAT/);
  });
});
