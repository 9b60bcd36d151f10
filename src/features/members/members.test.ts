import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { FakeUserInput } from "../../../dev/fake-slack/index.ts";
import { type TestApp, useTestApp } from "../../../test/support/app.ts";
import { syncMembers } from "./members.service.ts";

const MEMBER_FIELDS = ["active", "email", "real_name", "role", "tz", "user_id"];

interface MemberJson {
  user_id: string;
  real_name: string;
  email: string;
  tz: string;
  active: boolean;
  role: "admin" | "member";
}

/** A Slack user object as team_join / user_change carry it. */
function slackUser(teamId: string, id: string, realName: string, extra: Record<string, unknown> = {}) {
  return {
    id,
    team_id: teamId,
    name: id.toLowerCase(),
    real_name: realName,
    tz: "Europe/Paris",
    deleted: false,
    is_bot: false,
    is_app_user: false,
    is_admin: false,
    is_owner: false,
    profile: { real_name: realName, display_name: id.toLowerCase(), email: `${id.toLowerCase()}@events.test` },
    ...extra,
  };
}

function expectJsonError(
  res: { statusCode: number; headers: Record<string, unknown>; json(): unknown },
  status: number,
) {
  expect(res.statusCode).toBe(status);
  expect(String(res.headers["content-type"])).toContain("application/json");
  const body = res.json() as Record<string, unknown>;
  expect(Object.keys(body)).toEqual(["error"]);
  expect(typeof body.error).toBe("string");
  expect((body.error as string).length).toBeGreaterThan(0);
  return body.error as string;
}

describe("members", async () => {
  const t: TestApp = await useTestApp();

  const getMembers = async (cookie: string): Promise<MemberJson[]> => {
    const res = await t.inject({ method: "GET", url: "/dashboard/api/members", headers: { cookie } });
    expect(res.statusCode).toBe(200);
    return res.json() as MemberJson[];
  };
  const memberIn = async (cookie: string, userId: string) =>
    (await getMembers(cookie)).find((m) => m.user_id === userId);
  const invite = (cookie: string, payload: unknown) =>
    t.inject({ method: "POST", url: "/dashboard/api/members/invite", headers: { cookie }, payload: payload as object });
  const putRole = (cookie: string, userId: string, payload: unknown) =>
    t.inject({
      method: "PUT",
      url: `/dashboard/api/members/${encodeURIComponent(userId)}/role`,
      headers: { cookie },
      payload: payload as object,
    });
  const usersListCalls = (teamId: string) => t.fake.callsTo("users.list").filter((c) => c.teamId === teamId);

  describe("member sync from users.list", async () => {
    const TEAM = "T0SYNC";
    const INSTALLER = "U0SYNCADMIN";
    await t.installTeam(TEAM);
    const zones = ["Europe/Berlin", "America/New_York", "Asia/Tokyo"];
    const regular = (i: number) => `U0R${String(i).padStart(4, "0")}`;
    const people: FakeUserInput[] = [
      {
        id: INSTALLER,
        name: "ines",
        real_name: "Ines Staller",
        email: "ines@sync.test",
        tz: "Europe/Lisbon",
        is_owner: true,
        is_primary_owner: true,
      },
    ];
    for (let i = 1; i <= 440; i++) {
      people.push({
        id: regular(i),
        name: `regular${i}`,
        real_name: `Regular Person ${i}`,
        email: `r${i}@sync.test`,
        tz: zones[i % zones.length]!,
      });
    }
    people.push(
      { id: "U0SBOTA", name: "deploybot", real_name: "Deploy Bot", is_bot: true },
      { id: "U0SBOTB", name: "ci", real_name: "CI Bot", is_bot: true, is_admin: true },
      { id: "U0SAPPUSR", name: "workflow", real_name: "Workflow App", is_app_user: true },
      { id: "U0SGONE1", name: "gone1", real_name: "Gone One", email: "gone1@sync.test", deleted: true },
      { id: "U0SGONE2", name: "gone2", real_name: "Gone Two", deleted: true, is_admin: true },
      { id: "U0SGONE3", name: "gone3", real_name: "Gone Three", deleted: true },
      { id: "U0SADM1", name: "adm1", real_name: "Slack Admin One", email: "adm1@sync.test", is_admin: true },
      { id: "U0SADM2", name: "adm2", real_name: "Slack Admin Two", is_admin: true },
      { id: "U0SOWN", name: "own", real_name: "Slack Owner", email: "own@sync.test", is_owner: true },
      { id: "U0SNOMAIL", name: "nomail", real_name: "No Mail" },
    );
    for (const p of people) t.fake.addUser(TEAM, p);
    const admin = await t.signIn(TEAM, INSTALLER);

    it("the members.sync job pages through users.list (3 pages of limit 200, following cursors) and stores every person", async () => {
      const before = usersListCalls(TEAM).length;
      await t.deps.queue.enqueue("members.sync", { teamId: TEAM });
      expect(await t.deps.queue.drain()).toBeGreaterThanOrEqual(1);

      const calls = usersListCalls(TEAM).slice(before);
      expect(calls).toHaveLength(3);
      expect(calls.every((c) => c.ok)).toBe(true);
      expect(calls.map((c) => c.args.limit)).toEqual(["200", "200", "200"]);
      expect(calls[0]!.args.cursor).toBeUndefined();
      expect(calls[1]!.args.cursor).toEqual(expect.any(String));
      expect(calls[2]!.args.cursor).toEqual(expect.any(String));
      expect(calls[1]!.args.cursor).not.toBe("");
      expect(calls[2]!.args.cursor).not.toBe(calls[1]!.args.cursor);

      const list = await getMembers(admin);
      const ids = new Set(list.map((m) => m.user_id));
      // 1 installer + 440 regular + 3 Slack admins/owners + 1 without e-mail (the 3 deleted ones were never stored).
      expect(list).toHaveLength(445);
      expect(ids.size).toBe(445);
      for (let i = 1; i <= 440; i++) expect(ids.has(regular(i)), regular(i)).toBe(true);
    });

    it("bots, app users, the workspace's bot user and Slackbot are not stored", async () => {
      const ids = new Set((await getMembers(admin)).map((m) => m.user_id));
      for (const id of ["U0SBOTA", "U0SBOTB", "U0SAPPUSR", "USLACKBOT", "B0SYNCBOT"])
        expect(ids.has(id), id).toBe(false);
    });

    it("deleted users Upbeat never stored are not stored (nothing to show; no name or e-mail kept), everyone else active", async () => {
      const list = await getMembers(admin);
      expect(list.filter((m) => !m.active)).toEqual([]);
      for (const id of ["U0SGONE1", "U0SGONE2", "U0SGONE3"]) expect(list.some((m) => m.user_id === id)).toBe(false);
    });

    it("Slack admins and owners become admin, everyone else member", async () => {
      const list = await getMembers(admin);
      const admins = list.filter((m) => m.role === "admin").map((m) => m.user_id);
      expect(admins.sort()).toEqual([INSTALLER, "U0SADM1", "U0SADM2", "U0SOWN"].sort());
      expect(list.find((m) => m.user_id === regular(7))?.role).toBe("member");
    });

    it("names, e-mails and timezones come through from Slack (and replace the installer's placeholder name)", async () => {
      const list = await getMembers(admin);
      const byId = new Map(list.map((m) => [m.user_id, m]));
      expect(byId.get(INSTALLER)).toEqual({
        user_id: INSTALLER,
        real_name: "Ines Staller",
        email: "ines@sync.test",
        tz: "Europe/Lisbon",
        active: true,
        role: "admin",
      });
      expect(byId.get(regular(10))).toEqual({
        user_id: regular(10),
        real_name: "Regular Person 10",
        email: "r10@sync.test",
        tz: zones[10 % zones.length],
        active: true,
        role: "member",
      });
      expect(byId.has("U0SGONE1")).toBe(false);
      expect(byId.get("U0SNOMAIL")).toMatchObject({ real_name: "No Mail", email: "", active: true });
    });

    it("a later sync refreshes changed people but never demotes an admin set in the dashboard", async () => {
      const promoted = await putRole(admin, regular(1), { role: "admin" });
      expect(promoted.statusCode).toBe(200);
      t.fake.addUser(TEAM, {
        id: regular(2),
        name: "renamed",
        real_name: "Renamed Person",
        email: "new2@sync.test",
        tz: "Asia/Kolkata",
      });
      t.fake.addUser(TEAM, { id: regular(3), name: "left", real_name: "Regular Person 3", deleted: true });
      t.fake.addUser(TEAM, { id: "U0SGONE3", name: "gone3", real_name: "Back Again" });

      const stored = await syncMembers(t.deps, TEAM);
      // Gone Three was never stored while deleted: back, they are added.
      expect(stored).toEqual({ listed: 448, added: 1, deactivated: 1, reactivated: 0 });

      const byId = new Map((await getMembers(admin)).map((m) => [m.user_id, m]));
      expect(byId.get(regular(1))?.role).toBe("admin");
      expect(byId.get(regular(2))).toEqual({
        user_id: regular(2),
        real_name: "Renamed Person",
        email: "new2@sync.test",
        tz: "Asia/Kolkata",
        active: true,
        role: "member",
      });
      expect(byId.get(regular(3))?.active).toBe(false);
      expect(byId.get("U0SGONE3")).toMatchObject({ real_name: "Back Again", active: true });
      expect(byId.get(INSTALLER)?.role).toBe("admin");
    });
  });

  describe("team_join and user_change events", async () => {
    const TEAM = "T0EVT";
    await t.installTeam(TEAM);
    const admin = await t.signIn(TEAM, "U0EVTADMIN");

    it("team_join adds the person as an active member", async () => {
      const res = await t.sendEvent(TEAM, { type: "team_join", user: slackUser(TEAM, "U0JOIN", "Jo Iner") });
      expect(res.statusCode).toBe(200);
      await expect
        .poll(() => memberIn(admin, "U0JOIN"))
        .toEqual({
          user_id: "U0JOIN",
          real_name: "Jo Iner",
          email: "u0join@events.test",
          tz: "Europe/Paris",
          active: true,
          role: "member",
        });
    });

    it("user_change updates name, e-mail and timezone of a known member", async () => {
      await t.sendEvent(TEAM, { type: "team_join", user: slackUser(TEAM, "U0CHG", "Before Change") });
      await expect.poll(async () => (await memberIn(admin, "U0CHG"))?.real_name).toBe("Before Change");
      const res = await t.sendEvent(TEAM, {
        type: "user_change",
        user: slackUser(TEAM, "U0CHG", "After Change", {
          tz: "Asia/Tokyo",
          profile: { real_name: "After Change", display_name: "after", email: "after@events.test" },
        }),
      });
      expect(res.statusCode).toBe(200);
      await expect
        .poll(() => memberIn(admin, "U0CHG"))
        .toEqual({
          user_id: "U0CHG",
          real_name: "After Change",
          email: "after@events.test",
          tz: "Asia/Tokyo",
          active: true,
          role: "member",
        });
    });

    it("user_change for someone not yet stored adds them", async () => {
      await t.sendEvent(TEAM, { type: "user_change", user: slackUser(TEAM, "U0LATE", "Late Comer") });
      await expect.poll(async () => (await memberIn(admin, "U0LATE"))?.active).toBe(true);
    });

    it("user_change with deleted: true makes the member inactive", async () => {
      await t.sendEvent(TEAM, { type: "team_join", user: slackUser(TEAM, "U0BYE", "Soon Gone") });
      await expect.poll(async () => (await memberIn(admin, "U0BYE"))?.active).toBe(true);
      await t.sendEvent(TEAM, { type: "user_change", user: slackUser(TEAM, "U0BYE", "Soon Gone", { deleted: true }) });
      await expect.poll(async () => (await memberIn(admin, "U0BYE"))?.active).toBe(false);
      expect((await memberIn(admin, "U0BYE"))?.real_name).toBe("Soon Gone");
    });

    it("user_change making someone a Slack admin promotes them", async () => {
      await t.sendEvent(TEAM, { type: "team_join", user: slackUser(TEAM, "U0RISE", "Rising Star") });
      await expect.poll(async () => (await memberIn(admin, "U0RISE"))?.role).toBe("member");
      await t.sendEvent(TEAM, {
        type: "user_change",
        user: slackUser(TEAM, "U0RISE", "Rising Star", { is_admin: true }),
      });
      await expect.poll(async () => (await memberIn(admin, "U0RISE"))?.role).toBe("admin");
    });

    it("bots, app users and Slackbot joining are ignored", async () => {
      await t.sendEvent(TEAM, { type: "team_join", user: slackUser(TEAM, "U0EBOT", "Some Bot", { is_bot: true }) });
      await t.sendEvent(TEAM, {
        type: "team_join",
        user: slackUser(TEAM, "U0EAPP", "Some App", { is_app_user: true }),
      });
      await t.sendEvent(TEAM, { type: "user_change", user: slackUser(TEAM, "USLACKBOT", "Slackbot") });
      // A person event sent after them acts as a barrier: once it is stored, the earlier ones were handled.
      await t.sendEvent(TEAM, { type: "team_join", user: slackUser(TEAM, "U0BARRIER", "Barrier") });
      await expect.poll(async () => Boolean(await memberIn(admin, "U0BARRIER"))).toBe(true);
      const ids = (await getMembers(admin)).map((m) => m.user_id);
      expect(ids).not.toContain("U0EBOT");
      expect(ids).not.toContain("U0EAPP");
      expect(ids).not.toContain("USLACKBOT");
    });
  });

  describe("GET /dashboard/api/members", async () => {
    const TEAM = "T0LIST";
    await t.installTeam(TEAM);
    await t.addMember(TEAM, "U0LM1", { realName: "Lena Member", email: "lena@list.test", tz: "Europe/Oslo" });
    const admin = await t.signIn(TEAM, "U0LISTADMIN");
    const member = await t.signIn(TEAM, "U0LM1");

    it("returns member objects with exactly user_id, real_name, email, tz, active, role", async () => {
      const list = await getMembers(admin);
      expect(list).toHaveLength(2);
      for (const m of list) expect(Object.keys(m).sort()).toEqual(MEMBER_FIELDS);
      expect(list).toContainEqual({
        user_id: "U0LM1",
        real_name: "Lena Member",
        email: "lena@list.test",
        tz: "Europe/Oslo",
        active: true,
        role: "member",
      });
      expect(list).toContainEqual(expect.objectContaining({ user_id: "U0LISTADMIN", role: "admin", active: true }));
    });

    it("needs a session (401) and the admin role (403) on every members endpoint", async () => {
      const noSession = await t.inject({ method: "GET", url: "/dashboard/api/members" });
      expect(noSession.statusCode).toBe(401);
      expect(noSession.json()).toEqual({ error: "Unauthorized" });

      for (const res of [
        await t.inject({ method: "GET", url: "/dashboard/api/members", headers: { cookie: member } }),
        await invite(member, { user_id: "U0LM1" }),
        await putRole(member, "U0LM1", { role: "admin" }),
      ]) {
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual({ error: "Admin required" });
      }
      expect((await memberIn(admin, "U0LM1"))?.role).toBe("member");
    });
  });

  describe("POST /dashboard/api/members/invite", async () => {
    const TEAM = "T0INV";
    await t.installTeam(TEAM);
    t.fake.addUser(TEAM, {
      id: "U0NEWBIE",
      name: "newbie",
      real_name: "Nora Newbie",
      email: "nora@inv.test",
      tz: "America/Chicago",
    });
    t.fake.addUser(TEAM, { id: "U0INVBOT", name: "helper", real_name: "Helper Bot", is_bot: true });
    t.fake.addUser(TEAM, { id: "U0INVAPP", name: "appy", real_name: "App User", is_app_user: true });
    t.fake.addUser(TEAM, { id: "U0DEPARTED", name: "departed", real_name: "Dee Parted", deleted: true });
    t.fake.addUser(TEAM, { id: "U0SOON", name: "soon", real_name: "Sue Soon", email: "sue@inv.test" });
    const admin = await t.signIn(TEAM, "U0INVADMIN");

    it("201 with the member object for a real Slack user, who then appears in the list", async () => {
      const res = await invite(admin, { user_id: "U0NEWBIE" });
      expect(res.statusCode).toBe(201);
      const expected = {
        user_id: "U0NEWBIE",
        real_name: "Nora Newbie",
        email: "nora@inv.test",
        tz: "America/Chicago",
        active: true,
        role: "member",
      };
      expect(res.json()).toEqual(expected);
      expect(await memberIn(admin, "U0NEWBIE")).toEqual(expected);
      const lookups = t.fake.callsTo("users.info").filter((c) => c.teamId === TEAM);
      expect(lookups.at(-1)?.args.user).toBe("U0NEWBIE");
    });

    it("400 JSON {error} without user_id", async () => {
      const res = await invite(admin, {});
      expect(expectJsonError(res, 400)).toMatch(/user_id/);
    });

    it("400 JSON {error} for a user_id that is not a string or not a Slack id", async () => {
      expectJsonError(await invite(admin, { user_id: 42 }), 400);
      expectJsonError(await invite(admin, { user_id: "" }), 400);
      expectJsonError(await invite(admin, { user_id: "not a slack id" }), 400);
    });

    it("400 for a user id Slack does not know (user_not_found)", async () => {
      const before = (await getMembers(admin)).length;
      const res = await invite(admin, { user_id: "U0NOBODY" });
      expect(expectJsonError(res, 400)).toMatch(/U0NOBODY/);
      const last = t.fake.callsTo("users.info").at(-1);
      expect(last?.error).toBe("user_not_found");
      expect((await getMembers(admin)).length).toBe(before);
    });

    it("400 for a bot user, an app user and Slackbot; none is stored", async () => {
      for (const id of ["U0INVBOT", "U0INVAPP", "USLACKBOT", "B0INVBOT"]) {
        expectJsonError(await invite(admin, { user_id: id }), 400);
      }
      const ids = (await getMembers(admin)).map((m) => m.user_id);
      for (const id of ["U0INVBOT", "U0INVAPP", "USLACKBOT", "B0INVBOT"]) expect(ids).not.toContain(id);
    });

    it("400 for a deactivated Slack user", async () => {
      expectJsonError(await invite(admin, { user_id: "U0DEPARTED" }), 400);
      expect(await memberIn(admin, "U0DEPARTED")).toBeUndefined();
    });

    it.each([
      ["the connection drops", { drop: true } as const],
      ["Slack answers HTTP 500", { status: 500 } as const],
    ])(
      "500 JSON {error} without a stack trace when %s (after the read client's bounded retries)",
      async (_name, fault) => {
        try {
          const before = t.fake.callsTo("users.info").length;
          t.fake.fail("users.info", fault, 10);
          const res = await invite(admin, { user_id: "U0SOON" });
          const message = expectJsonError(res, 500);
          expect(message).not.toMatch(/\bat\s.+:\d+/);
          expect(res.body).not.toMatch(/\.ts:\d+|node_modules|stack/i);
          const attempts = t.fake.callsTo("users.info").slice(before);
          expect(attempts.length).toBe(3);
          expect(attempts.every((c) => c.faulted)).toBe(true);
          expect(await memberIn(admin, "U0SOON")).toBeUndefined();
        } finally {
          t.fake.reset();
        }
      },
    );

    it("once Slack is reachable again the same invite succeeds", async () => {
      const res = await invite(admin, { user_id: "U0SOON" });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({ user_id: "U0SOON", real_name: "Sue Soon", email: "sue@inv.test" });
    });
  });

  describe("PUT /dashboard/api/members/<user_id>/role", async () => {
    const TEAM = "T0ROLE";
    const INSTALLER = "U0ROLEADMIN";
    await t.installTeam(TEAM);
    await t.addMember(TEAM, "U0RM1", { realName: "Rae Member" });
    await t.addMember(TEAM, "U0RM2", { realName: "Ray Member" });
    const admin = await t.signIn(TEAM, INSTALLER);

    it("200 {ok, user_id, role}, visible at once on GET, both ways", async () => {
      const up = await putRole(admin, "U0RM1", { role: "admin" });
      expect(up.statusCode).toBe(200);
      expect(up.json()).toEqual({ ok: true, user_id: "U0RM1", role: "admin" });
      expect((await memberIn(admin, "U0RM1"))?.role).toBe("admin");

      const down = await putRole(admin, "U0RM1", { role: "member" });
      expect(down.statusCode).toBe(200);
      expect(down.json()).toEqual({ ok: true, user_id: "U0RM1", role: "member" });
      expect((await memberIn(admin, "U0RM1"))?.role).toBe("member");
    });

    it("setting the role a member already has is a 200 no-op", async () => {
      const res = await putRole(admin, "U0RM2", { role: "member" });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ ok: true, user_id: "U0RM2", role: "member" });
    });

    it("400 for role owner, a missing role, an empty body and a non-string role", async () => {
      for (const payload of [{ role: "owner" }, {}, { role: "" }, { role: 1 }, { role: "ADMIN" }]) {
        const res = await putRole(admin, "U0RM2", payload);
        expectJsonError(res, 400);
      }
      const noBody = await t.inject({
        method: "PUT",
        url: "/dashboard/api/members/U0RM2/role",
        headers: { cookie: admin },
      });
      expectJsonError(noBody, 400);
      expect((await memberIn(admin, "U0RM2"))?.role).toBe("member");
    });

    it("404 JSON for an unknown user", async () => {
      expectJsonError(await putRole(admin, "U0NOSUCH", { role: "admin" }), 404);
      expect(await memberIn(admin, "U0NOSUCH")).toBeUndefined();
    });

    it("400 when demoting the last active admin; succeeds once a second admin exists", async () => {
      const refused = await putRole(admin, INSTALLER, { role: "member" });
      expect(expectJsonError(refused, 400)).toMatch(/admin/i);
      expect((await memberIn(admin, INSTALLER))?.role).toBe("admin");

      expect((await putRole(admin, "U0RM2", { role: "admin" })).statusCode).toBe(200);
      const ok = await putRole(admin, INSTALLER, { role: "member" });
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toEqual({ ok: true, user_id: INSTALLER, role: "member" });

      // The installer's own session is a member session from the next request on.
      const after = await t.inject({ method: "GET", url: "/dashboard/api/members", headers: { cookie: admin } });
      expect(after.statusCode).toBe(403);

      const newAdmin = await t.signIn(TEAM, "U0RM2");
      const list = await getMembers(newAdmin);
      expect(list.find((m) => m.user_id === INSTALLER)?.role).toBe("member");
      // U0RM2 is now the only admin and cannot demote themselves.
      expectJsonError(await putRole(newAdmin, "U0RM2", { role: "member" }), 400);
      expect((await memberIn(newAdmin, "U0RM2"))?.role).toBe("admin");
    });

    it("two admins demoting each other at the same time leave exactly one admin", async () => {
      const TEAM3 = "T0ROLEC";
      await t.installTeam(TEAM3);
      await t.addMember(TEAM3, "U0RCTWO", { role: "admin" });
      const one = await t.signIn(TEAM3, "U0ROLECADMIN");
      const two = await t.signIn(TEAM3, "U0RCTWO");
      const [a, b] = await Promise.all([
        putRole(one, "U0RCTWO", { role: "member" }),
        putRole(two, "U0ROLECADMIN", { role: "member" }),
      ]);
      expect([a.statusCode, b.statusCode].sort()).toEqual([200, 400]);
      const winner = a.statusCode === 200 ? one : two;
      const admins = (await getMembers(winner)).filter((m) => m.role === "admin" && m.active);
      expect(admins).toHaveLength(1);
    });

    it("an inactive admin does not count: the last active admin still cannot be demoted", async () => {
      const TEAM2 = "T0ROLEB";
      await t.installTeam(TEAM2);
      await t.addMember(TEAM2, "U0RBGONE", { role: "admin" });
      const admin2 = await t.signIn(TEAM2, "U0ROLEBADMIN");
      expect((await memberIn(admin2, "U0RBGONE"))?.role).toBe("admin");
      await t.sendEvent(TEAM2, {
        type: "user_change",
        user: slackUser(TEAM2, "U0RBGONE", "Gone Admin", { deleted: true, is_admin: true }),
      });
      await expect.poll(async () => (await memberIn(admin2, "U0RBGONE"))?.active).toBe(false);
      expectJsonError(await putRole(admin2, "U0ROLEBADMIN", { role: "member" }), 400);
      expect((await memberIn(admin2, "U0ROLEBADMIN"))?.role).toBe("admin");
    });
  });

  describe("a dashboard demotion of a Slack admin", async () => {
    const TEAM = "T0DEMOTE";
    const INSTALLER = "U0DEMOTEADMIN";
    await t.installTeam(TEAM);
    t.fake.addUser(TEAM, { id: INSTALLER, name: "ina", real_name: "Ina Staller", is_owner: true });
    t.fake.addUser(TEAM, { id: "U0DSLADM", name: "sam", real_name: "Sam Slackadmin", is_admin: true });
    t.fake.addUser(TEAM, { id: "U0DPLAIN", name: "pat", real_name: "Pat Plain" });
    const admin = await t.signIn(TEAM, INSTALLER);
    const roleOf = async (userId: string) => (await memberIn(admin, userId))?.role;
    const userChange = (userId: string, name: string, isAdmin: boolean) =>
      t.sendEvent(TEAM, { type: "user_change", user: slackUser(TEAM, userId, name, { is_admin: isAdmin }) });

    it("survives user_change and syncs with the same admin flag; the flag turning on from off promotes", async () => {
      await syncMembers(t.deps, TEAM);
      expect(await roleOf("U0DSLADM")).toBe("admin");
      expect((await putRole(admin, "U0DSLADM", { role: "member" })).statusCode).toBe(200);

      // Slack still says admin: the dashboard's word stands, through events and syncs alike.
      expect((await userChange("U0DSLADM", "Sam Renamed", true)).statusCode).toBe(200);
      await expect.poll(async () => (await memberIn(admin, "U0DSLADM"))?.real_name).toBe("Sam Renamed");
      expect(await roleOf("U0DSLADM")).toBe("member");
      await syncMembers(t.deps, TEAM);
      expect(await roleOf("U0DSLADM")).toBe("member");

      // Slack takes the flag away, then gives it back: that is a promotion in Slack, and it promotes here.
      await userChange("U0DSLADM", "Sam Off", false);
      await expect.poll(async () => (await memberIn(admin, "U0DSLADM"))?.real_name).toBe("Sam Off");
      expect(await roleOf("U0DSLADM")).toBe("member");
      await userChange("U0DSLADM", "Sam On", true);
      await expect.poll(() => roleOf("U0DSLADM")).toBe("admin");
    });

    it("a member made a Slack admin in Slack is promoted by the next sync", async () => {
      await syncMembers(t.deps, TEAM);
      expect(await roleOf("U0DPLAIN")).toBe("member");
      t.fake.addUser(TEAM, { id: "U0DPLAIN", name: "pat", real_name: "Pat Plain", is_admin: true });
      await syncMembers(t.deps, TEAM);
      expect(await roleOf("U0DPLAIN")).toBe("admin");
    });

    it("a flag never seen before (a member stored before it was kept) promotes no one", async () => {
      await t.addMember(TEAM, "U0DOLD", { realName: "Old Row" });
      await t.deps.db.execute(
        sql`update members set slack_admin = null where team_id = ${TEAM} and user_id = 'U0DOLD'`,
      );
      await userChange("U0DOLD", "Old Row Renamed", true);
      await expect.poll(async () => (await memberIn(admin, "U0DOLD"))?.real_name).toBe("Old Row Renamed");
      expect(await roleOf("U0DOLD")).toBe("member");
    });
  });

  describe("tenancy between workspaces", async () => {
    await t.installTeam("T0TA");
    await t.installTeam("T0TB");
    await t.addMember("T0TA", "U0AONE", { realName: "Alpha One" });
    await t.addMember("T0TA", "U0ATWO", { realName: "Alpha Two" });
    await t.addMember("T0TB", "U0BONE", { realName: "Beta One" });
    await t.addMember("T0TB", "U0BTWO", { realName: "Beta Two" });
    t.fake.addUser("T0TB", { id: "U0BONLY", name: "bonly", real_name: "Only In Beta", email: "bonly@b.test" });
    const adminA = await t.signIn("T0TA", "U0TAADMIN");
    const adminB = await t.signIn("T0TB", "U0TBADMIN");

    it("an admin of A sees only A's members, and B's admin only B's", async () => {
      const a = (await getMembers(adminA)).map((m) => m.user_id).sort();
      const b = (await getMembers(adminB)).map((m) => m.user_id).sort();
      expect(a).toEqual(["U0AONE", "U0ATWO", "U0TAADMIN"]);
      expect(b).toEqual(["U0BONE", "U0BTWO", "U0TBADMIN"]);
    });

    it("PUT role on a B user id from A's session is 404 and B's member is unchanged", async () => {
      expectJsonError(await putRole(adminA, "U0BONE", { role: "admin" }), 404);
      expectJsonError(await putRole(adminA, "U0TBADMIN", { role: "member" }), 404);
      const b = new Map((await getMembers(adminB)).map((m) => [m.user_id, m]));
      expect(b.get("U0BONE")?.role).toBe("member");
      expect(b.get("U0TBADMIN")?.role).toBe("admin");
      expect((await getMembers(adminA)).map((m) => m.user_id)).not.toContain("U0BONE");
    });

    it("inviting from A a user who exists only in B's Slack workspace is 400 and stores nothing anywhere", async () => {
      expectJsonError(await invite(adminA, { user_id: "U0BONLY" }), 400);
      const call = t.fake.callsTo("users.info").at(-1);
      expect(call?.teamId).toBe("T0TA");
      expect((await getMembers(adminA)).map((m) => m.user_id)).not.toContain("U0BONLY");
      expect((await getMembers(adminB)).map((m) => m.user_id)).not.toContain("U0BONLY");
    });

    it("events for B change only B's members", async () => {
      await t.sendEvent("T0TB", { type: "team_join", user: slackUser("T0TB", "U0BJOIN", "Beta Joiner") });
      await expect.poll(async () => Boolean(await memberIn(adminB, "U0BJOIN"))).toBe(true);
      expect(await memberIn(adminA, "U0BJOIN")).toBeUndefined();
    });
  });
});
