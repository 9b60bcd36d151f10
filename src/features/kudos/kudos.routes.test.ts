import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import { setWorkspaceTimezone } from "../../../test/support/factories.ts";
import { kudos } from "../../db/schema.ts";

const A = "T0KRTA";
const B = "T0KRTB";

describe("the kudos API", async () => {
  const t = await useTestApp();
  t.clock.set("2026-03-10T02:00:00Z"); // 15:00 on 10 March in Auckland (UTC+13)
  await t.installTeam(A);
  await t.installTeam(B);
  for (const [id, name] of [
    ["U0ANA", "Ana"],
    ["U0BEN", "ben"],
    ["U0CAT", "Cat"],
    ["U0DAN", "Dan"],
  ] as const) {
    await t.addMember(A, id, { realName: name });
  }
  await t.addMember(B, "U0ZED", { realName: "Zed" });
  const member = await t.signIn(A, "U0ANA");
  const memberB = await t.signIn(B, "U0ZED");

  let seq = 0;
  const give = (teamId: string, from: string, to: string, at: string, message = "thanks") =>
    t.deps.db.insert(kudos).values({
      teamId,
      fromUser: from,
      toUser: to,
      message,
      channelId: "C0KUDOS",
      source: "message",
      sourceKey: `msg:C0KUDOS:${++seq}`,
      givenOn: at.slice(0, 10),
      createdAt: new Date(at),
    });
  const get = (url: string, cookie = member) => t.inject({ method: "GET", url, headers: { cookie } });

  it("answers 401 without a session", async () => {
    for (const url of [
      "/dashboard/api/kudos",
      "/dashboard/api/kudos/leaderboard",
      "/dashboard/api/kudos/leaderboard?days=7",
    ]) {
      const res = await t.inject({ method: "GET", url });
      expect(res.statusCode, url).toBe(401);
      expect(res.json()).toEqual({ error: "Unauthorized" });
    }
  });

  it("lists nothing before the first kudo, for members too", async () => {
    expect((await get("/dashboard/api/kudos")).json()).toEqual([]);
    expect((await get("/dashboard/api/kudos/leaderboard")).json()).toEqual([]);
  });

  it('lists the newest 100 kudos, newest first, with names ("Former member" when someone is unknown, never the id)', async () => {
    for (let i = 0; i < 104; i++) {
      const at = new Date(Date.parse("2026-02-01T10:00:00Z") + i * 60_000).toISOString();
      await give(A, i % 2 ? "U0BEN" : "U0GONE", "U0CAT", at, `thanks ${i}`);
    }
    await give(B, "U0ZED", "U0ZOE", "2026-03-09T12:00:00Z", "other workspace");
    const res = await get("/dashboard/api/kudos");
    expect(res.statusCode).toBe(200);
    const list = res.json() as Record<string, unknown>[];
    expect(list).toHaveLength(100);
    expect(list[0]).toEqual({
      id: expect.any(Number),
      from_user: "U0BEN",
      to_user: "U0CAT",
      from_name: "ben",
      to_name: "Cat",
      message: "thanks 103",
      channel_id: "C0KUDOS",
      created_at: "2026-02-01T11:43:00.000Z",
    });
    expect(list[1]).toMatchObject({ from_user: "U0GONE", from_name: "Former member", message: "thanks 102" });
    expect(list.at(-1)).toMatchObject({ message: "thanks 4" });
    expect(list.some((k) => k.message === "other workspace")).toBe(false);
    const other = (await get("/dashboard/api/kudos", memberB)).json() as Record<string, unknown>[];
    expect(other.map((k) => k.message)).toEqual(["other workspace"]);
  });

  it("ranks the leaderboard by kudos received, ties by name, over the last 30 days by default", async () => {
    await setWorkspaceTimezone(t.deps.db, A, "Pacific/Auckland");
    // The February kudos above are older than 30 days.
    await give(A, "U0ANA", "U0BEN", "2026-03-05T01:00:00Z");
    await give(A, "U0CAT", "U0BEN", "2026-03-06T01:00:00Z");
    await give(A, "U0ANA", "U0DAN", "2026-03-06T02:00:00Z");
    await give(A, "U0BEN", "U0ANA", "2026-03-07T02:00:00Z");
    await give(A, "U0BEN", "U0OUT", "2026-03-07T03:00:00Z");
    const res = await get("/dashboard/api/kudos/leaderboard");
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      { user_id: "U0BEN", real_name: "ben", kudos_received: 2 },
      { user_id: "U0ANA", real_name: "Ana", kudos_received: 1 },
      { user_id: "U0DAN", real_name: "Dan", kudos_received: 1 },
      { user_id: "U0OUT", real_name: "Former member", kudos_received: 1 },
    ]);
    expect((await get("/dashboard/api/kudos/leaderboard?days=")).json()).toEqual(res.json());
    const year = (await get("/dashboard/api/kudos/leaderboard?days=365")).json() as { user_id: string }[];
    expect(year[0]).toEqual({ user_id: "U0CAT", real_name: "Cat", kudos_received: 104 });
    const other = (await get("/dashboard/api/kudos/leaderboard?days=365", memberB)).json();
    expect(other).toEqual([{ user_id: "U0ZOE", real_name: "Former member", kudos_received: 1 }]);
  });

  it("counts days in the workspace timezone: a kudo just after local midnight is today's, just before it yesterday's", async () => {
    // Midnight of 10 March in Auckland is 11:00 UTC on 9 March; in UTC both are on 9 March.
    await give(A, "U0DAN", "U0CAT", "2026-03-09T10:59:30Z"); // 23:59:30 on 9 March, local
    await give(A, "U0DAN", "U0ANA", "2026-03-09T11:00:30Z"); // 00:00:30 on 10 March, local
    expect((await get("/dashboard/api/kudos/leaderboard?days=1")).json()).toEqual([
      { user_id: "U0ANA", real_name: "Ana", kudos_received: 1 },
    ]);
    expect((await get("/dashboard/api/kudos/leaderboard?days=2")).json()).toEqual([
      { user_id: "U0ANA", real_name: "Ana", kudos_received: 1 },
      { user_id: "U0CAT", real_name: "Cat", kudos_received: 1 },
    ]);
    // In Los Angeles it is still 9 March (18:00): both are today's there.
    await setWorkspaceTimezone(t.deps.db, A, "America/Los_Angeles");
    expect((await get("/dashboard/api/kudos/leaderboard?days=1")).json()).toEqual([
      { user_id: "U0ANA", real_name: "Ana", kudos_received: 1 },
      { user_id: "U0CAT", real_name: "Cat", kudos_received: 1 },
    ]);
    await setWorkspaceTimezone(t.deps.db, A, "Pacific/Auckland");
  });

  it.each(["days=0", "days=366", "days=abc", "days=1.5", "days=-3", "days=7&days=8", "days=%20"])(
    "a leaderboard ?%s is a 400 naming days",
    async (query) => {
      const res = await get(`/dashboard/api/kudos/leaderboard?${query}`);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: "days must be a whole number from 1 to 365" });
    },
  );
});
