import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import { schedules, workspaceCalendars } from "../../db/schema.ts";
import { DEFAULT_QUESTIONS } from "../templates/index.ts";

const STANDUPS = "/dashboard/api/standups";
const SCHEDULES = "/dashboard/api/schedules";
const VALID = { channel_id: "C0STANDUP", schedule_time: "09:30", schedule_tz: "Europe/Berlin" };

describe("schedules API", async () => {
  const t = await useTestApp();
  await t.installTeam("T0SCHA");
  await t.installTeam("T0SCHB");
  await t.installTeam("T0SCHC");
  await t.addMember("T0SCHA", "U0SCHAMEMBER");
  // Every channel a schedule names exists in its workspace on Slack (the create checks it there).
  for (const [team, id, name] of [
    ["T0SCHA", "C0STANDUP", "standup"],
    ["T0SCHA", "C0DEFAULTS", "defaults"],
    ["T0SCHA", "C0FIRST", "first"],
    ["T0SCHA", "C0LATER", "later"],
    ["T0SCHA", "C0DOOMED", "doomed"],
    ["T0SCHB", "C0OTHERTEAM", "other-team"],
    ["T0SCHB", "C0TEAMB", "team-b"],
    ["T0SCHC", "C0CAL", "calendar"],
  ] as const) {
    t.fake.addChannel(team, { id, name, members: [] });
  }
  t.fake.addChannel("T0SCHA", { id: "G0PRIVATE", name: "private", is_private: true, members: ["B0SCHABOT"] });
  const admin = await t.signIn("T0SCHA", "U0SCHAADMIN");
  const member = await t.signIn("T0SCHA", "U0SCHAMEMBER");
  const adminB = await t.signIn("T0SCHB", "U0SCHBADMIN");
  const adminC = await t.signIn("T0SCHC", "U0SCHCADMIN");

  /** Sends `payload` as raw JSON text, so null, numbers and arrays reach the server as they are. */
  function call(method: "GET" | "POST" | "PUT" | "DELETE", url: string, cookie: string, payload?: unknown) {
    if (payload === undefined) return t.inject({ method, url, headers: { cookie } });
    return t.inject({
      method,
      url,
      headers: { cookie, "content-type": "application/json" },
      payload: JSON.stringify(payload),
    });
  }

  async function create(body: Record<string, unknown> = VALID, cookie = admin) {
    const res = await call("POST", STANDUPS, cookie, body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  }

  it("POST answers 201 with the schedule object, filling defaults", async () => {
    const res = await call("POST", SCHEDULES, admin, { channel_id: "C0DEFAULTS", schedule_time: "08:00" });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(
      [
        "active",
        "channel_id",
        "id",
        "questions",
        "question_details",
        "answer_early_hours",
        "schedule_days",
        "schedule_time",
        "schedule_tz",
        "name",
        "blocker_question",
        "reminder_minutes",
        "ask_in_member_timezone",
        "kudos_field",
        "ai_summary",
        "next_run_at",
        "last_run",
        "participant_count",
      ].sort(),
    );
    expect(body.id).toMatch(/^S[A-Z0-9]{10}$/);
    expect(body).toMatchObject({
      channel_id: "C0DEFAULTS",
      schedule_time: "08:00",
      schedule_tz: "UTC",
      schedule_days: "mon,tue,wed,thu,fri",
      questions: [...DEFAULT_QUESTIONS],
      active: true,
      name: "#defaults standup",
      blocker_question: 3,
      reminder_minutes: 120,
      ask_in_member_timezone: false,
      kudos_field: false,
      ai_summary: false,
      last_run: null,
      participant_count: 0,
    });
  });

  it("POST stores every given field, trimmed and normalised", async () => {
    const body = await create({
      channel_id: " G0PRIVATE ",
      schedule_time: "23:59",
      schedule_tz: "Asia/Calcutta",
      schedule_days: ["SUN", "mon"],
      questions: ["  How are you?  ", "What next?"],
      active: false,
      id: "SHIJACKED00",
      team_id: "T0SCHB",
    });
    expect(body).toEqual({
      id: expect.stringMatching(/^S[A-Z0-9]{10}$/),
      channel_id: "G0PRIVATE",
      schedule_time: "23:59",
      schedule_tz: "Asia/Kolkata",
      schedule_days: "mon,sun",
      questions: ["How are you?", "What next?"],
      question_details: [
        { text: "How are you?", type: "text", required: true, anonymous: false },
        { text: "What next?", type: "text", required: true, anonymous: false },
      ],
      answer_early_hours: 12,
      active: false,
      // The channel list holds public channels only: a private channel's standup is named by the id.
      name: "Standup in a channel",
      // Two questions: no third one to be the blocker question by default.
      blocker_question: null,
      reminder_minutes: 120,
      ask_in_member_timezone: false,
      kudos_field: false,
      ai_summary: false,
      next_run_at: null,
      last_run: null,
      participant_count: 0,
    });
    expect(body.id).not.toBe("SHIJACKED00");
    const [row] = await t.deps.db.select().from(schedules).where(eq(schedules.id, body.id));
    expect(row?.teamId).toBe("T0SCHA");
    expect(row?.createdAt).toEqual(t.clock.now());
  });

  it("days are stored in week order without repeats; legacy zone names are stored canonically", async () => {
    expect((await create({ ...VALID, schedule_days: "fri,mon,mon" })).schedule_days).toBe("mon,fri");
    expect((await create({ ...VALID, schedule_days: " Wed , tue " })).schedule_days).toBe("tue,wed");
    expect((await create({ ...VALID, schedule_tz: "US/Eastern" })).schedule_tz).toBe("America/New_York");
    expect((await create({ ...VALID, questions: ["x".repeat(300)] })).questions[0]).toHaveLength(300);
    expect((await create({ ...VALID, questions: Array(10).fill("Q?") })).questions).toHaveLength(10);
  });

  it("without schedule_tz a schedule follows the workspace calendar timezone", async () => {
    await t.deps.db
      .insert(workspaceCalendars)
      .values({ teamId: "T0SCHC", timezone: "America/Sao_Paulo", updatedAt: t.clock.now() });
    const res = await call("POST", STANDUPS, adminC, { channel_id: "C0CAL", schedule_time: "10:00" });
    expect(res.json().schedule_tz).toBe("America/Sao_Paulo");
  });

  it("both paths list the same schedules of the caller's workspace, by creation time then id", async () => {
    t.clock.advance(60_000);
    const first = await create({ ...VALID, channel_id: "C0FIRST" });
    await create({ ...VALID, channel_id: "C0OTHERTEAM" }, adminB);
    t.clock.advance(60_000);
    const later = await create({ ...VALID, channel_id: "C0LATER" });
    const standups = await call("GET", STANDUPS, admin);
    const list = await call("GET", SCHEDULES, admin);
    expect(standups.statusCode).toBe(200);
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual(standups.json());
    const found: { id: string; channel_id: string }[] = standups.json();
    expect(found.map((s) => s.channel_id)).not.toContain("C0OTHERTEAM");
    expect(found.at(-2)).toEqual(first);
    expect(found.at(-1)).toEqual(later);
    // Everything before was created at the same instant, so id breaks the tie.
    const sameInstant = found.slice(0, -2).map((s) => s.id);
    expect(sameInstant.length).toBeGreaterThan(3);
    expect(sameInstant).toEqual([...sameInstant].sort());
  });

  it("PUT changes only the fields sent and answers the updated object, on either path", async () => {
    const original = await create({ ...VALID, schedule_days: "mon,wed", questions: ["One?", "Two?"] });
    const res = await call("PUT", `${STANDUPS}/${original.id}`, admin, { schedule_time: "10:15" });
    expect(res.statusCode).toBe(200);
    // Monday 2 March 14:00 UTC: the next Wednesday 10:15 in Berlin is 09:15 UTC.
    expect(original.next_run_at).toBe("2026-03-04T08:30:00.000Z");
    expect(res.json()).toEqual({ ...original, schedule_time: "10:15", next_run_at: "2026-03-04T09:15:00.000Z" });
    const again = await call("PUT", `${SCHEDULES}/${original.id}`, admin, {
      active: false,
      questions: [" Three? "],
      schedule_tz: "Europe/Kiev",
    });
    const expected = {
      ...original,
      schedule_time: "10:15",
      active: false,
      questions: ["Three?"],
      question_details: [{ text: "Three?", type: "text", required: true, anonymous: false }],
      schedule_tz: "Europe/Kyiv",
      next_run_at: null,
    };
    expect(again.json()).toEqual(expected);
    const listed = (await call("GET", SCHEDULES, member)).json().find((s: { id: string }) => s.id === original.id);
    expect(listed).toEqual(expected);
  });

  it("PUT with an empty body changes nothing and answers the schedule", async () => {
    const original = await create();
    for (const payload of [{}, { unknown_field: 1 }, undefined]) {
      const res = await call("PUT", `${STANDUPS}/${original.id}`, admin, payload);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual(original);
    }
  });

  it("DELETE soft-deletes: gone from lists and 404 afterwards, the row itself is kept", async () => {
    const doomed = await create({ ...VALID, channel_id: "C0DOOMED" });
    const res = await call("DELETE", `${SCHEDULES}/${doomed.id}`, admin);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    for (const path of [STANDUPS, SCHEDULES]) {
      const ids = (await call("GET", path, admin)).json().map((s: { id: string }) => s.id);
      expect(ids).not.toContain(doomed.id);
    }
    const put = await call("PUT", `${STANDUPS}/${doomed.id}`, admin, { active: true });
    expect(put.statusCode).toBe(404);
    expect(put.json()).toEqual({ error: expect.any(String) });
    expect((await call("PUT", `${STANDUPS}/${doomed.id}`, admin, {})).statusCode).toBe(404);
    expect((await call("DELETE", `${STANDUPS}/${doomed.id}`, admin)).statusCode).toBe(404);
    const [row] = await t.deps.db.select().from(schedules).where(eq(schedules.id, doomed.id));
    expect(row?.deletedAt).toEqual(t.clock.now());
    expect(row?.active).toBe(true);
  });

  it("unknown and malformed ids are 404 on PUT and DELETE", async () => {
    const real = await create();
    for (const id of ["SAAAAAAAAAA", "nope", real.id.toLowerCase(), `${real.id}X`, "S123", "%20"]) {
      for (const prefix of [STANDUPS, SCHEDULES]) {
        const put = await call("PUT", `${prefix}/${id}`, admin, { active: false });
        expect(put.statusCode, id).toBe(404);
        expect(put.json().error).toEqual(expect.any(String));
        expect((await call("DELETE", `${prefix}/${id}`, admin)).statusCode, id).toBe(404);
      }
    }
  });

  it("another workspace's schedule is 404, never 403, and stays unchanged", async () => {
    const theirs = await create({ ...VALID, channel_id: "C0TEAMB" }, adminB);
    const put = await call("PUT", `${STANDUPS}/${theirs.id}`, admin, { schedule_time: "11:11" });
    expect(put.statusCode).toBe(404);
    expect((await call("PUT", `${SCHEDULES}/${theirs.id}`, admin, {})).statusCode).toBe(404);
    expect((await call("DELETE", `${SCHEDULES}/${theirs.id}`, admin)).statusCode).toBe(404);
    const listB = (await call("GET", SCHEDULES, adminB)).json();
    expect(listB.find((s: { id: string }) => s.id === theirs.id)).toEqual(theirs);
  });

  it("members can list but not change schedules; without a session everything is 401", async () => {
    const target = await create();
    expect((await call("GET", STANDUPS, member)).statusCode).toBe(200);
    expect((await call("GET", SCHEDULES, member)).statusCode).toBe(200);
    for (const prefix of [STANDUPS, SCHEDULES]) {
      const attempts = [
        await call("POST", prefix, member, VALID),
        await call("PUT", `${prefix}/${target.id}`, member, { active: false }),
        await call("DELETE", `${prefix}/${target.id}`, member),
      ];
      for (const res of attempts) {
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual({ error: "Admin required" });
      }
      expect((await t.inject({ method: "GET", url: prefix })).statusCode).toBe(401);
      expect((await t.inject({ method: "POST", url: prefix, payload: VALID })).statusCode).toBe(401);
    }
    expect((await call("GET", STANDUPS, admin)).json().find((s: { id: string }) => s.id === target.id)).toEqual(target);
  });

  const BAD_VALUES: Record<string, unknown[]> = {
    channel_id: [123, null, "", "D0123ABC", "c0123abc", "C1", "C0 12", ["C0123"]],
    schedule_time: ["25:00", "9:00", "12:60", "24:00", "09:00:00", " 09:00", "", 900, null],
    schedule_tz: ["Mars/Phobos", "+05:00", "UTC+5", "", "local", "Europe/".padEnd(500, "x"), 5, null],
    schedule_days: ["mon,funday", "", ",", [], ["mon", 1], 5, null, { mon: true }],
    questions: [
      "What did you do?",
      [],
      Array(11).fill("Q?"),
      ["x".repeat(301)],
      ["Fine?", ""],
      ["   "],
      [1],
      [null],
      null,
      { 0: "Q?" },
    ],
    active: ["yes", "true", 1, null],
  };
  const BAD_FIELDS = Object.entries(BAD_VALUES).flatMap(([field, values]) => values.map((v) => [field, v] as const));

  it.each(BAD_FIELDS)("%s = %j is a 400 naming the field, on POST and PUT", async (field, value) => {
    const target = await create();
    const post = await call("POST", STANDUPS, admin, { ...VALID, [field]: value });
    expect(post.statusCode).toBe(400);
    expect(post.json().error).toContain(field);
    const put = await call("PUT", `${SCHEDULES}/${target.id}`, admin, { [field]: value });
    expect(put.statusCode).toBe(400);
    expect(put.json().error).toContain(field);
    const listed = (await call("GET", SCHEDULES, admin)).json().find((s: { id: string }) => s.id === target.id);
    expect(listed).toEqual(target);
  });

  it("POST without channel_id or schedule_time is a 400 naming the missing field", async () => {
    const noChannel = await call("POST", STANDUPS, admin, { schedule_time: "09:00" });
    expect(noChannel.statusCode).toBe(400);
    expect(noChannel.json().error).toBe("channel_id is required");
    const noTime = await call("POST", SCHEDULES, admin, { channel_id: "C0123" });
    expect(noTime.statusCode).toBe(400);
    expect(noTime.json().error).toBe("schedule_time is required");
    const empty = await call("POST", STANDUPS, admin, {});
    expect(empty.statusCode).toBe(400);
    const bodiless = await t.inject({ method: "POST", url: STANDUPS, headers: { cookie: admin } });
    expect(bodiless.statusCode).toBe(400);
  });

  it("bodies that are not JSON objects are 400, never 500", async () => {
    const target = await create();
    for (const body of [[], [VALID], null, 0, 42, "text", true]) {
      for (const [method, url] of [
        ["POST", STANDUPS],
        ["PUT", `${STANDUPS}/${target.id}`],
      ] as const) {
        const res = await call(method, url, admin, body);
        expect(res.statusCode, `${method} ${JSON.stringify(body)}`).toBe(400);
        expect(res.json()).toEqual({ error: expect.any(String) });
      }
    }
    for (const raw of ["{", "{'a':1}", "[1,", "nul"]) {
      const res = await t.inject({
        method: "POST",
        url: STANDUPS,
        headers: { cookie: admin, "content-type": "application/json" },
        payload: raw,
      });
      expect(res.statusCode, raw).toBe(400);
      expect(res.json()).toEqual({ error: expect.any(String) });
    }
  });
});
