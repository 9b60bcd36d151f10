import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { type TestApp, useTestApp } from "../../../test/support/app.ts";
import { createSchedule } from "../../../test/support/factories.ts";
import { feedTokens, installations, responses, standupRuns, workspaceCalendars } from "../../db/schema.ts";
import { sha256Hex } from "../../lib/crypto.ts";

const TOKEN_URL = "/dashboard/api/feed-token";
const QUESTIONS = ["What did you do yesterday?", "What will you do today?", "Anything blocking you?"];

interface Workspace {
  teamId: string;
  scheduleId: string;
  admin: string;
  questions: string[];
}

interface ResponseInput {
  user: string;
  date: string;
  answers: string[];
  mood?: string;
  blocker?: boolean;
  /** Submission instant, ISO; the clock's now by default. */
  at?: string;
  runId?: number;
}

/** Headings of the page in order: [datetime attribute, visible text]. */
const headings = (html: string) =>
  [...html.matchAll(/<h2><time datetime="([^"]+)">([^<]+)<\/time><\/h2>/g)].map((m) => [m[1], m[2]]);
const articles = (html: string) => html.split("<article").slice(1);
const articleWith = (html: string, text: string) => articles(html).find((a) => a.includes(text));

function expectFeedHeaders(res: { headers: Record<string, unknown> }) {
  expect(res.headers["content-type"]).toBe("text/html; charset=utf-8");
  expect(res.headers["x-robots-tag"]).toBe("noindex");
  expect(res.headers["referrer-policy"]).toBe("no-referrer");
  expect(res.headers["cache-control"]).toBe("no-store");
  const csp = String(res.headers["content-security-policy"]);
  expect(csp).toContain("default-src 'none'");
  expect(csp).toContain("style-src 'unsafe-inline'");
  expect(csp).not.toContain("script-src");
}

describe("public feed", async () => {
  // The default test clock: Monday 2 March 2026, 14:00 UTC.
  const t: TestApp = await useTestApp();
  let ipSeq = 0;
  // The feed allows 60 requests a minute per IP and the clock stands still: each request gets its own address.
  const nextIp = () => `10.9.${++ipSeq >> 8}.${ipSeq & 255}`;
  const getFeed = (token: string, ip = nextIp()) =>
    t.inject({ method: "GET", url: `/feed/${token}`, remoteAddress: ip });
  const callToken = (method: "POST" | "DELETE", cookie?: string, payload?: object) =>
    t.inject({ method, url: TOKEN_URL, headers: cookie ? { cookie } : {}, ...(payload ? { payload } : {}) });
  const newToken = async (cookie: string): Promise<string> => {
    const res = await callToken("POST", cookie, {});
    expect(res.statusCode).toBe(200);
    return (res.json() as { token: string }).token;
  };

  /** The run of a workspace's schedule on a date, asking its questions: answers are labelled by their run. */
  const runs = new Map<string, number>();
  const runOn = async (ws: Workspace, date: string): Promise<number> => {
    const key = `${ws.scheduleId}|${date}`;
    const known = runs.get(key);
    if (known !== undefined) return known;
    const at = new Date(`${date}T09:00:00Z`);
    const [run] = await t.deps.db
      .insert(standupRuns)
      .values({
        teamId: ws.teamId,
        scheduleId: ws.scheduleId,
        localDate: date,
        channelId: "C0STANDUP",
        questions: ws.questions,
        scheduleTz: "UTC",
        status: "closed",
        ...{ startsAt: at, remindAt: at, closesAt: at, createdAt: at },
      })
      .returning({ id: standupRuns.id });
    runs.set(key, run!.id);
    return run!.id;
  };
  const workspace = async (
    teamId: string,
    o: { name?: string; timezone?: string; questions?: string[] } = {},
  ): Promise<Workspace> => {
    await t.installTeam(teamId, o.name ? { name: o.name } : {});
    if (o.timezone)
      await t.deps.db.insert(workspaceCalendars).values({ teamId, timezone: o.timezone, updatedAt: t.clock.now() });
    const questions = o.questions ?? QUESTIONS;
    const scheduleId = await createSchedule(t.deps.db, t.clock, {
      teamId,
      channelId: "C0STANDUP",
      time: "09:00",
      questions,
    });
    return { teamId, scheduleId, admin: await t.signIn(teamId, `U${teamId.slice(1)}ADMIN`), questions };
  };
  const addResponse = async (ws: Workspace, r: ResponseInput) => {
    await t.deps.db.insert(responses).values({
      teamId: ws.teamId,
      scheduleId: ws.scheduleId,
      runId: r.runId ?? (await runOn(ws, r.date)),
      userId: r.user,
      standupDate: r.date,
      answers: r.answers,
      yesterday: r.answers[0] ?? "",
      today: r.answers[1] ?? "",
      blockers: r.answers[2] ?? "",
      mood: r.mood ?? null,
      hasBlocker: r.blocker ?? false,
      submittedAt: r.at ? new Date(r.at) : t.clock.now(),
    });
  };

  describe("token management", async () => {
    const ws = await workspace("T0TOK", { name: "Token Team" });
    await t.addMember(ws.teamId, "U0TOKMEMBER", { role: "member" });
    const member = await t.signIn(ws.teamId, "U0TOKMEMBER");

    it("an admin gets a 43-character base64url token; only its SHA-256 is stored", async () => {
      const res = await callToken("POST", ws.admin);
      expect(res.statusCode).toBe(200);
      expect(res.headers["cache-control"]).toBe("no-store");
      const body = res.json() as { token: string };
      expect(Object.keys(body)).toEqual(["token"]);
      expect(body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const [row] = await t.deps.db.select().from(feedTokens).where(eq(feedTokens.teamId, ws.teamId));
      expect(row?.tokenHash).toBe(sha256Hex(body.token));
      expect(row?.createdBy).toBe("U0TOKADMIN");
      expect((await getFeed(body.token)).statusCode).toBe(200);
    });

    it("regenerating replaces the token: the old one answers 404 at once, the new one works", async () => {
      const first = await newToken(ws.admin);
      const second = await newToken(ws.admin);
      expect(second).not.toBe(first);
      expect((await getFeed(first)).statusCode).toBe(404);
      expect((await getFeed(second)).statusCode).toBe(200);
    });

    it("revoking makes the feed 404, and revoking again still answers ok", async () => {
      const token = await newToken(ws.admin);
      const res = await callToken("DELETE", ws.admin);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ ok: true });
      expect((await getFeed(token)).statusCode).toBe(404);
      expect((await callToken("DELETE", ws.admin)).json()).toEqual({ ok: true });
    });

    it("members get 403 and callers without a session 401, and the token is untouched", async () => {
      const token = await newToken(ws.admin);
      for (const method of ["POST", "DELETE"] as const) {
        const asMember = await callToken(method, member, {});
        expect(asMember.statusCode).toBe(403);
        expect(asMember.json()).toEqual({ error: "Admin required" });
        const anonymous = await callToken(method, undefined, {});
        expect(anonymous.statusCode).toBe(401);
        expect(anonymous.json()).toEqual({ error: "Unauthorized" });
      }
      expect((await getFeed(token)).statusCode).toBe(200);
    });

    it("an uninstalled workspace has no feed", async () => {
      const other = await workspace("T0GONE");
      const token = await newToken(other.admin);
      await t.deps.db
        .update(installations)
        .set({ uninstalledAt: t.clock.now() })
        .where(eq(installations.teamId, other.teamId));
      expect((await getFeed(token)).statusCode).toBe(404);
    });
  });

  describe("the page", async () => {
    const ws = await workspace("T0PAGE", { name: "Page Team" });
    await t.addMember(ws.teamId, "U0ANA", { realName: "Ana Lima" });
    await t.addMember(ws.teamId, "U0BEN", { realName: "Ben Okafor" });
    const token = await newToken(ws.admin);

    it("shows the last 7 days only, grouped by date, newest first, with names, questions and mood", async () => {
      await addResponse(ws, { user: "U0ANA", date: "2026-02-23", answers: ["too-old", "x", "none"] });
      await addResponse(ws, { user: "U0ANA", date: "2026-02-24", answers: ["edge-day", "x", "none"] });
      await addResponse(ws, { user: "U0ANA", date: "2026-02-28", answers: ["sat-ana"], at: "2026-02-28T09:05:00Z" });
      await addResponse(ws, { user: "U0BEN", date: "2026-02-28", answers: ["sat-ben"], at: "2026-02-28T10:30:00Z" });
      await addResponse(ws, {
        user: "U0ANA",
        date: "2026-03-02",
        answers: ["fixed the build", "ship the feed", "waiting on the DNS change"],
        mood: "😕",
        blocker: true,
      });
      await addResponse(ws, { user: "U0NOBODY", date: "2026-03-02", answers: ["a", "b", "none", "extra"] });

      const res = await getFeed(token);
      expect(res.statusCode).toBe(200);
      expectFeedHeaders(res);
      const html = res.body;
      expect(html).toContain("<title>Page Team standups</title>");
      expect(headings(html)).toEqual([
        ["2026-03-02", "Monday 2 March 2026"],
        ["2026-02-28", "Saturday 28 February 2026"],
        ["2026-02-24", "Tuesday 24 February 2026"],
      ]);
      expect(html).not.toContain("too-old");
      expect(html.indexOf("sat-ben")).toBeLessThan(html.indexOf("sat-ana"));

      const blocked = articleWith(html, "waiting on the DNS change")!;
      expect(blocked).toContain("Ana Lima");
      expect(blocked).toContain('<span class="badge">Blocker</span>');
      expect(blocked).toContain("😕");
      expect(blocked).toContain("<dt>What will you do today?</dt><dd>ship the feed</dd>");
      expect(articleWith(html, "sat-ben")).not.toContain("Blocker");

      // No member row: "Former member" stands in for the name (never the id); a fourth answer is numbered.
      const nobody = articleWith(html, "<dd>extra</dd>")!;
      expect(nobody).toContain('<span class="name">Former member</span>');
      expect(nobody).toContain("<dt>Question 4</dt><dd>extra</dd>");
      expect(html).not.toContain("U0NOBODY");
    });

    it("labels answers with the questions the run asked, even after the schedule's questions changed", async () => {
      const now = t.clock.now();
      const [run] = await t.deps.db
        .insert(standupRuns)
        .values({
          teamId: ws.teamId,
          scheduleId: ws.scheduleId,
          localDate: "2026-03-01",
          channelId: "C0STANDUP",
          questions: ["Old question one?"],
          scheduleTz: "UTC",
          status: "closed",
          ...{ startsAt: now, remindAt: now, closesAt: now, createdAt: now },
        })
        .returning({ id: standupRuns.id });
      await addResponse(ws, { user: "U0BEN", date: "2026-03-01", answers: ["sunday-run"], runId: run!.id });
      const html = (await getFeed(token)).body;
      expect(articleWith(html, "sunday-run")).toContain("<dt>Old question one?</dt>");
    });

    it("escapes every value: answers, names, questions and the team name", async () => {
      const evil = await workspace("T0EVIL", { name: "<i>Evil & Co</i>", questions: ["<u>Q1</u>", "Q2"] });
      await t.addMember(evil.teamId, "U0MAL", { realName: "<b>Mallory</b>" });
      await addResponse(evil, {
        user: "U0MAL",
        date: "2026-03-02",
        answers: ["<script>alert(1)</script>", '"><img src=x onerror=alert(1)>'],
        mood: "<svg onload=alert(1)>",
      });
      const html = (await getFeed(await newToken(evil.admin))).body;
      for (const raw of ["<script", "<img", "<b>", "<i>", "<u>", "<svg"]) expect(html).not.toContain(raw);
      expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
      expect(html).toContain("&quot;&gt;&lt;img src=x onerror=alert(1)&gt;");
      expect(html).toContain("&lt;b&gt;Mallory&lt;/b&gt;");
      expect(html).toContain("&lt;i&gt;Evil &amp; Co&lt;/i&gt;");
      expect(html).toContain("&lt;u&gt;Q1&lt;/u&gt;");
    });

    it("shows Slack shortcodes as emoji after escaping, except inside code; unknown ones stay as typed", async () => {
      const emoji = await workspace("T0EMOJI", { questions: ["Wins :trophy:", "Plan", "Blockers"] });
      await addResponse(emoji, {
        user: "U0EMO",
        date: "2026-03-02",
        answers: [
          "Shipped it :tada: <b>:rocket:</b>",
          "`npm run :tada:` then :+1::skin-tone-2:",
          "none :saluting_face:",
        ],
      });
      const html = articleWith((await getFeed(await newToken(emoji.admin))).body, "Shipped it")!;
      expect(html).toContain("<dt>Wins 🏆</dt><dd>Shipped it 🎉 &lt;b&gt;🚀&lt;/b&gt;</dd>");
      expect(html).toContain("<dd>`npm run :tada:` then 👍</dd>");
      expect(html).toContain("<dd>none 🫡</dd>");
      // The standup's name: the schedule has none and Slack does not list its channel: words, never the id.
      expect(html).toContain('<span class="meta">Standup in a channel · ');
      expect(html).not.toContain("C0STANDUP");
    });

    it("names an unnamed standup after its channel's name, mentions by name, and a deleted person as a former member", async () => {
      const named = await workspace("T0NAMED");
      t.fake.addChannel("T0NAMED", { id: "C0STANDUP", name: "team-standup", members: [] });
      await t.addMember("T0NAMED", "U0NAMEDMAYA", { realName: "Maya Okafor" });
      await addResponse(named, {
        user: "U0NAMEDMAYA",
        date: "2026-03-02",
        answers: ["Paired with <@U0NAMEDLEA> in <#C0STANDUP> & <!subteam^S0DEVS|@devs>", "Plan", "none"],
      });
      await addResponse(named, { user: "U0NAMEDGONE", date: "2026-03-02", answers: ["Left", "Plan", "none"] });
      await t.addMember("T0NAMED", "U0NAMEDLEA", { realName: "Lea <Lead>" });
      const body = (await getFeed(await newToken(named.admin))).body;
      const maya = articleWith(body, "Paired with")!;
      expect(maya).toContain('<span class="name">Maya Okafor</span>');
      expect(maya).toContain('<span class="meta">#team-standup standup · ');
      expect(maya).toContain("<dd>Paired with @Lea &lt;Lead&gt; in #team-standup &amp; @devs</dd>");
      expect(articleWith(body, "Left")).toContain('<span class="name">Former member</span>');
      expect(body).not.toMatch(/\b[UC]0NAMED|C0STANDUP/);
    });

    it("an empty week says so", async () => {
      const quiet = await workspace("T0QUIET");
      const html = (await getFeed(await newToken(quiet.admin))).body;
      expect(html).toContain("No standup responses in the last 7 days.");
      expect(articles(html)).toHaveLength(0);
    });

    it("unknown, malformed and odd paths answer the same 404 page with the same headers", async () => {
      const unknown = "A".repeat(43);
      for (const url of [`/feed/${unknown}`, "/feed/short", `/feed/${"A".repeat(200)}`, "/feed/a/b", "/feed"]) {
        const res = await t.inject({ method: "GET", url, remoteAddress: nextIp() });
        expect(res.statusCode, url).toBe(404);
        expectFeedHeaders(res);
        expect(res.body).toContain("Feed not found");
      }
    });
  });

  it("each workspace's feed shows only its own responses", async () => {
    const a = await workspace("T0TENA");
    const b = await workspace("T0TENB");
    await addResponse(a, { user: "U0SAME", date: "2026-03-02", answers: ["only-in-a"] });
    await addResponse(b, { user: "U0SAME", date: "2026-03-02", answers: ["only-in-b"] });
    const pageA = (await getFeed(await newToken(a.admin))).body;
    const pageB = (await getFeed(await newToken(b.admin))).body;
    expect(pageA).toContain("only-in-a");
    expect(pageA).not.toContain("only-in-b");
    expect(pageB).toContain("only-in-b");
    expect(pageB).not.toContain("only-in-a");
  });

  it("shows at most the 200 most recent responses", async () => {
    const ws = await workspace("T0MANY");
    const id = (i: number) => `U0L${String(i).padStart(3, "0")}`;
    const seeded = Array.from({ length: 250 }, (_, i) => ({
      teamId: ws.teamId,
      scheduleId: ws.scheduleId,
      runId: 1,
      userId: id(i),
      standupDate: i < 125 ? "2026-03-01" : "2026-03-02",
      answers: [`many-${id(i)}`],
      submittedAt: new Date(Date.parse("2026-03-01T08:00:00Z") + i * 60_000),
    }));
    // 50 rows a statement: the test databases refuse statements with over 1,000 bind parameters.
    for (let i = 0; i < seeded.length; i += 50) await t.deps.db.insert(responses).values(seeded.slice(i, i + 50));
    const html = (await getFeed(await newToken(ws.admin))).body;
    expect(articles(html)).toHaveLength(200);
    expect(html).toContain(`many-${id(249)}`);
    expect(html).toContain(`many-${id(50)}`);
    expect(html).not.toContain(`many-${id(49)}`);
    expect(html).toContain("Showing the 200 most recent responses.");
  });

  it("'today' is the workspace calendar's date: Auckland is already on Tuesday when UTC is on Monday", async () => {
    // 14:00 UTC on 2 March is 03:00 on 3 March in Auckland (NZDT, UTC+13).
    const utc = await workspace("T0TZUTC");
    const akl = await workspace("T0TZAKL", { timezone: "Pacific/Auckland" });
    for (const ws of [utc, akl])
      for (const date of ["2026-02-23", "2026-02-24", "2026-02-25", "2026-03-03"])
        await addResponse(ws, { user: "U0TZ", date, answers: [`tz-${date}`] });
    const utcPage = (await getFeed(await newToken(utc.admin))).body;
    const aklPage = (await getFeed(await newToken(akl.admin))).body;
    // UTC: today is 2 March, the window starts 24 February.
    expect(utcPage).toContain("tz-2026-02-24");
    expect(utcPage).not.toContain("tz-2026-02-23");
    // Auckland: today is 3 March, so 24 February is already the eighth day back.
    expect(aklPage).not.toContain("tz-2026-02-24");
    expect(aklPage).toContain("tz-2026-02-25");
    expect(headings(aklPage)[0]).toEqual(["2026-03-03", "Tuesday 3 March 2026"]);
    expect(aklPage).toContain("Times in Pacific/Auckland.");
  });

  it("allows 60 requests a minute per IP, then 429 with Retry-After; other addresses are unaffected", async () => {
    const ws = await workspace("T0RATE");
    const token = await newToken(ws.admin);
    for (let i = 0; i < 60; i++) expect((await getFeed(token, "203.0.113.7")).statusCode).toBe(200);
    const limited = await getFeed(token, "203.0.113.7");
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
    expectFeedHeaders(limited);
    expect((await getFeed(token, "203.0.113.8")).statusCode).toBe(200);
    t.clock.advance(60_000);
    expect((await getFeed(token, "203.0.113.7")).statusCode).toBe(200);
  });
});
