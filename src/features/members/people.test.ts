import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createTestApp, type TestApp, useTestApp } from "../../../test/support/app.ts";
import { memberNames, syncMembers } from "./members.service.ts";

const TEAM = "T0PEOPLE";
const OTHER = "T0PEOPLEX";
const ADMIN = "U0PPLADMIN";
const MEMBER = "U0PPLMEMB";

interface PersonJson {
  user_id: string;
  real_name: string;
  display_name: string;
  avatar_url: string | null;
  active: boolean;
}

describe("GET /dashboard/api/people", async () => {
  const t: TestApp = await useTestApp();

  const people = async (cookie: string): Promise<PersonJson[]> => {
    const res = await t.inject({ method: "GET", url: "/dashboard/api/people", headers: { cookie } });
    expect(res.statusCode).toBe(200);
    return res.json() as PersonJson[];
  };

  it("gives any signed-in member names and pictures, never e-mail or role, active people first by name", async () => {
    await t.installTeam(TEAM, { installer: ADMIN });
    t.fake.addUser(TEAM, { id: ADMIN, name: "ada", real_name: "Ada Admin", email: "ada@people.test", is_admin: true });
    t.fake.addUser(TEAM, {
      id: MEMBER,
      name: "lucia",
      real_name: "Lucía Fernández",
      display_name: "lucia",
      email: "lucia@people.test",
      image_72: "https://avatars.slack-edge.com/2026-01-01/lucia_72.png",
    });
    t.fake.addUser(TEAM, {
      id: "U0PPLBOB",
      name: "bob",
      real_name: "bob Builder",
      image_72: "http://evil.example/x.png",
    });
    t.fake.addUser(TEAM, {
      id: "U0PPLCAT",
      name: "cat",
      real_name: "Cat Else",
      image_72: "https://else.example/c.png",
    });
    t.fake.addUser(TEAM, { id: "U0PPLGONE", name: "gone", real_name: "Aaron Gone" });
    await syncMembers(t.deps, TEAM);
    t.fake.addUser(TEAM, { id: "U0PPLGONE", name: "gone", real_name: "Aaron Gone", deleted: true });
    await syncMembers(t.deps, TEAM);
    await t.installTeam(OTHER, { installer: "U0PPLOTHER" });
    t.fake.addUser(OTHER, { id: "U0PPLOTHER", name: "other", real_name: "Other Workspace" });
    await syncMembers(t.deps, OTHER);

    const cookie = await t.signIn(TEAM, MEMBER);
    const list = await people(cookie);
    expect(list.map((p) => p.real_name)).toEqual([
      "Ada Admin",
      "bob Builder",
      "Cat Else",
      "Lucía Fernández",
      "Aaron Gone",
    ]);
    expect(list.every((p) => Object.keys(p).sort().join() === "active,avatar_url,display_name,real_name,user_id")).toBe(
      true,
    );
    const lucia = list.find((p) => p.user_id === MEMBER)!;
    expect(lucia).toMatchObject({ display_name: "lucia", active: true });
    expect(lucia.avatar_url).toBe("https://avatars.slack-edge.com/2026-01-01/lucia_72.png");
    // A picture that is not https, or on a host the dashboard's CSP does not allow, is never handed out.
    expect(list.find((p) => p.user_id === "U0PPLBOB")!.avatar_url).toBeNull();
    expect(list.find((p) => p.user_id === "U0PPLCAT")!.avatar_url).toBeNull();
    // The fake Slack's own pictures (http on 127.0.0.1) only where plain http is allowed (tests, the demo).
    expect(list.find((p) => p.user_id === ADMIN)!.avatar_url).toBeNull();
    expect(list.find((p) => p.user_id === "U0PPLGONE")!.active).toBe(false);
    expect(JSON.stringify(list)).not.toContain("@people.test");
  });

  it("the dashboard's CSP lets Slack's picture hosts load, and the loopback fake only where plain http is allowed", async () => {
    const res = await t.inject({ method: "GET", url: "/dashboard" });
    const csp = String(res.headers["content-security-policy"]);
    expect(csp).toContain("img-src 'self' data: https://avatars.slack-edge.com");
    expect(csp).not.toContain("127.0.0.1");
    const demo = await createTestApp({ outbound: { allowPlainHttp: true } });
    try {
      const shown = await demo.inject({ method: "GET", url: "/dashboard" });
      expect(String(shown.headers["content-security-policy"])).toContain("http://127.0.0.1:*");
    } finally {
      await demo.close();
    }
  });

  it("answers 401 without a session", async () => {
    const res = await t.inject({ method: "GET", url: "/dashboard/api/people" });
    expect(res.statusCode).toBe(401);
  });
});

describe("memberNames: what Slack messages call people", async () => {
  const t: TestApp = await useTestApp();

  it("a real name, else the display name, else 'Unnamed member'; someone with no row is 'Former member', never the id", async () => {
    const team = "T0PPLNAMES";
    await t.installTeam(team);
    await t.addMember(team, "U0PPLNAMED", { realName: "Maya Okafor" });
    await t.addMember(team, "U0PPLHANDLE", { realName: "" });
    await t.addMember(team, "U0PPLBLANK", { realName: "" });
    await t.deps.db.execute(
      sql`update members set display_name = '' where team_id = ${team} and user_id = 'U0PPLBLANK'`,
    );
    const names = await memberNames(t.deps, team, ["U0PPLNAMED", "U0PPLHANDLE", "U0PPLBLANK", "U0PPLGONE"]);
    expect(Object.fromEntries(names)).toEqual({
      U0PPLNAMED: "Maya Okafor",
      U0PPLHANDLE: "u0pplhandle",
      U0PPLBLANK: "Unnamed member",
      U0PPLGONE: "Former member",
    });
  });
});
