import { describe, expect, it, vi } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import { findInstallation } from "../../chat/installations.repo.ts";

describe("the demo's sign-in (config.demoSignIn, set only by npm run demo)", async () => {
  const t = await useTestApp({ demoSignIn: { teamId: "T0DEMOSI", userId: "U0DEMOSIADMIN", name: "Dana & Co" } });
  await t.installTeam("T0DEMOSI", { installer: "U0DEMOSIADMIN" });
  await t.addMember("T0DEMOSI", "U0DEMOSIADMIN", { role: "admin" });

  it("GET /demo/sign-in hands out a fresh one-time link each visit, and it signs in", async () => {
    const first = await t.inject({ method: "GET", url: "/demo/sign-in" });
    const second = await t.inject({ method: "GET", url: "/demo/sign-in" });
    expect(first.statusCode).toBe(302);
    const location = String(first.headers.location);
    expect(location).toMatch(/^\/dashboard\/login\?t=/);
    expect(second.headers.location).not.toBe(location);
    const login = await t.inject({ method: "GET", url: location });
    expect(login.statusCode).toBe(302);
    expect(login.headers.location).toBe("/dashboard");
    const cookie = String(login.headers["set-cookie"]).split(";")[0]!;
    const me = await t.inject({ method: "GET", url: "/dashboard/api/me", headers: { cookie } });
    expect(me.json()).toMatchObject({ team_id: "T0DEMOSI", user_id: "U0DEMOSIADMIN", role: "admin" });
  });

  it("a bad or used link's page offers the demo sign-in, the name escaped", async () => {
    const res = await t.inject({ method: "GET", url: "/dashboard/login?t=nonsense" });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('<a href="/demo/sign-in">sign in as Dana &amp; Co</a>');
  });
  // The dashboard shell's offer (a meta tag the signed-out page reads) is driven in test/browser/front-door.test.ts.
});

describe("the demo's member sign-in (demoSignIn.member)", async () => {
  const t = await useTestApp({
    demoSignIn: {
      teamId: "T0DEMOMB",
      userId: "U0DEMOMBADMIN",
      name: "Dana",
      member: { userId: "U0DEMOMBMEMBR", name: "Lucía <Member>" },
    },
  });
  await t.installTeam("T0DEMOMB", { installer: "U0DEMOMBADMIN" });
  await t.addMember("T0DEMOMB", "U0DEMOMBADMIN", { role: "admin" });
  await t.addMember("T0DEMOMB", "U0DEMOMBMEMBR", { role: "member" });

  const signInVia = async (url: string) => {
    const link = await t.inject({ method: "GET", url });
    const login = await t.inject({ method: "GET", url: String(link.headers.location) });
    const cookie = String(login.headers["set-cookie"]).split(";")[0]!;
    return (await t.inject({ method: "GET", url: "/dashboard/api/me", headers: { cookie } })).json();
  };

  it("?as=member gives a member's session; without it (or with nonsense) the admin's", async () => {
    expect(await signInVia("/demo/sign-in?as=member")).toMatchObject({ user_id: "U0DEMOMBMEMBR", role: "member" });
    expect(await signInVia("/demo/sign-in")).toMatchObject({ user_id: "U0DEMOMBADMIN", role: "admin" });
    expect(await signInVia("/demo/sign-in?as=root")).toMatchObject({ user_id: "U0DEMOMBADMIN", role: "admin" });
  });

  it("a bad link's page offers both, the names escaped", async () => {
    const res = await t.inject({ method: "GET", url: "/dashboard/login?t=nonsense" });
    expect(res.body).toContain('<a href="/demo/sign-in?as=member">as a member (Lucía &lt;Member&gt;)</a>');
  });
});

describe("without the demo", async () => {
  const t = await useTestApp();
  it("there is no /demo/sign-in and the pages say to sign in from Slack", async () => {
    expect((await t.inject({ method: "GET", url: "/demo/sign-in" })).statusCode).toBe(404);
    const res = await t.inject({ method: "GET", url: "/dashboard/login?t=nonsense" });
    expect(res.body).not.toContain("/demo/sign-in");
    expect(res.body).toContain("<code>/upbeat</code>");
  });
});

describe("the demo after its workspace is gone", async () => {
  const t = await useTestApp({ demoSignIn: { teamId: "T0DEMOGONE", userId: "U0DEMOGONEADM", name: "Dana" } });
  await t.installTeam("T0DEMOGONE", { installer: "U0DEMOGONEADM" });
  await t.addMember("T0DEMOGONE", "U0DEMOGONEADM", { role: "admin" });

  it("its sign-in goes through /install (which adds it again) instead of a dead end", async () => {
    expect((await t.sendEvent("T0DEMOGONE", { type: "app_uninstalled" })).statusCode).toBe(200);
    // Events are handled after the acknowledgement: wait for the uninstall to land.
    await vi.waitFor(async () =>
      expect((await findInstallation(t.deps.db, "T0DEMOGONE"))?.uninstalledAt).toBeInstanceOf(Date),
    );
    const link = await t.inject({ method: "GET", url: "/demo/sign-in" });
    const res = await t.inject({ method: "GET", url: String(link.headers.location) });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe("/install");
  });
});
