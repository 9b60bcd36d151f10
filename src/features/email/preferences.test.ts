import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import { useFakeEmail } from "../../../test/support/email.ts";
import { signToken } from "../../lib/signed-token.ts";
import { digestWanted } from "./email.repo.ts";
import { UNSUBSCRIBE_PER_MINUTE } from "./email.routes.ts";
import { unsubscribeUrl } from "./unsubscribe.token.ts";

const TEAM = "T0PREF";
const ADMIN = "U0PREFADA";

describe("the e-mail preferences and the unsubscribe link", async () => {
  const { env } = await useFakeEmail();
  const t = await useTestApp({ env });
  await t.installTeam(TEAM);
  await t.addMember(TEAM, ADMIN, { role: "admin", realName: "Ada", email: "ada@pref.test" });
  await t.addMember(TEAM, "U0PREFMEM", { role: "member", email: "mem@pref.test" });
  const admin = await t.signIn(TEAM, ADMIN);
  const member = await t.signIn(TEAM, "U0PREFMEM");
  // The installer is an admin whose address Slack has not given yet.
  const installer = await t.signIn(TEAM, "U0PREFADMIN");
  let seq = 0;
  const ip = () => `10.66.${++seq >> 8}.${seq & 255}`;

  const get = (cookie?: string) =>
    t.inject({ method: "GET", url: "/dashboard/api/email/preferences", headers: cookie ? { cookie } : {} });
  /** `cookie` "" sends none. */
  const put = (payload: string, cookie = admin, type = "application/json") =>
    t.inject({
      method: "PUT",
      url: "/dashboard/api/email/preferences",
      headers: { ...(cookie ? { cookie } : {}), "content-type": type },
      payload,
    });
  const link = (userId = ADMIN) =>
    unsubscribeUrl(t.deps, { teamId: TEAM, userId, emailKey: `digest:2026-03-02:${userId}`, issuedAt: t.clock.now() });
  const pathOf = (url: string) => url.slice(url.indexOf("/email/"));

  it("GET shows the admin's switch (on by default), that e-mail is on here, and whether Slack gave an address", async () => {
    const res = await get(admin);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ digest: true, email_enabled: true, has_address: true });
    expect((await get(installer)).json()).toEqual({ digest: true, email_enabled: true, has_address: false });
  });

  it("PUT switches the digest off and on again", async () => {
    const off = await put(JSON.stringify({ digest: false }));
    expect(off.statusCode).toBe(200);
    expect(off.json()).toEqual({ digest: false, email_enabled: true, has_address: true });
    expect((await get(admin)).json()).toMatchObject({ digest: false });
    expect(await digestWanted(t.deps.db, TEAM, ADMIN)).toBe(false);
    // Another admin's switch is their own.
    expect((await get(installer)).json()).toMatchObject({ digest: true });
    const on = await put(JSON.stringify({ digest: true, unknown_key: 1 }));
    expect(on.json()).toEqual({ digest: true, email_enabled: true, has_address: true });
    expect(await digestWanted(t.deps.db, TEAM, ADMIN)).toBe(true);
  });

  it("answers 401 without a session and 403 to a member", async () => {
    for (const res of [await get(), await put(JSON.stringify({ digest: false }), "")]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: "Unauthorized" });
    }
    for (const res of [await get(member), await put(JSON.stringify({ digest: false }), member)]) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ error: "Admin required" });
    }
    expect(await digestWanted(t.deps.db, TEAM, "U0PREFMEM")).toBe(true);
  });

  it("answers 400 naming the field to malformed JSON and wrong types, and 415 to a form", async () => {
    const cases: [string, string][] = [
      ['{"digest":', "Malformed JSON body"],
      ['{"digest":"no"}', "digest must be true or false"],
      ['{"digest":0}', "digest must be true or false"],
      ['{"digest":null}', "digest must be true or false"],
      ["{}", "digest must be true or false"],
      ["[]", "Request body must be a JSON object"],
      ['"digest"', "Request body must be a JSON object"],
      ["null", "Request body must be a JSON object"],
    ];
    for (const [payload, error] of cases) {
      const res = await put(payload);
      expect(res.statusCode, payload).toBe(400);
      expect(res.json(), payload).toEqual({ error });
    }
    const form = await put("digest=false", admin, "application/x-www-form-urlencoded");
    expect(form.statusCode).toBe(415);
    expect(await digestWanted(t.deps.db, TEAM, ADMIN)).toBe(true);
  });

  it("GET on the unsubscribe link shows a confirmation and changes nothing", async () => {
    const url = link();
    expect(url).toMatch(/^http:\/\/localhost:3000\/email\/unsubscribe\?t=/);
    const res = await t.inject({ method: "GET", url: pathOf(url), remoteAddress: ip() });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(res.headers["referrer-policy"]).toBe("no-referrer");
    expect(res.body).toContain("Stop the weekly Upbeat digest?");
    expect(res.body).toContain(`<form method="post" action="${pathOf(url)}">`);
    expect(await digestWanted(t.deps.db, TEAM, ADMIN)).toBe(true);
  });

  it("the one-click POST (RFC 8058) switches the digest off, and again is fine", async () => {
    for (let i = 0; i < 2; i++) {
      const res = await t.inject({
        method: "POST",
        url: pathOf(link()),
        headers: { "content-type": "application/x-www-form-urlencoded" },
        payload: "List-Unsubscribe=One-Click",
        remoteAddress: ip(),
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers["content-type"]).toBe("text/html; charset=utf-8");
      expect(res.body).toContain("You are unsubscribed");
      expect(await digestWanted(t.deps.db, TEAM, ADMIN)).toBe(false);
    }
    // The dashboard shows it, and switches it back on.
    expect((await get(admin)).json()).toMatchObject({ digest: false });
    expect((await put(JSON.stringify({ digest: true }))).json()).toMatchObject({ digest: true });
    // A multipart one-click and a bodiless POST (the confirmation page's button sends a form) work as well.
    const multipart = await t.inject({
      method: "POST",
      url: pathOf(link()),
      headers: { "content-type": "multipart/form-data; boundary=x" },
      payload: '--x\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--x--\r\n',
      remoteAddress: ip(),
    });
    expect(multipart.statusCode).toBe(200);
    expect(await digestWanted(t.deps.db, TEAM, ADMIN)).toBe(false);
    await put(JSON.stringify({ digest: true }));
    const bare = await t.inject({ method: "POST", url: pathOf(link()), remoteAddress: ip() });
    expect(bare.statusCode).toBe(200);
    expect(await digestWanted(t.deps.db, TEAM, ADMIN)).toBe(false);
    await put(JSON.stringify({ digest: true }));
  });

  it("refuses forged, foreign, missing and year-old tokens with a 400 page", async () => {
    const good = new URL(link()).searchParams.get("t")!;
    const [body, sig] = good.split(".");
    const forgedBody = Buffer.from(
      JSON.stringify({ iat: 1, nonce: "n", team_id: TEAM, user_id: "U0PREFMEM" }),
    ).toString("base64url");
    const loginKeyToken = signToken(t.deps.keys.loginToken, {
      iat: Math.floor(t.clock.now().getTime() / 1000),
      team_id: TEAM,
      user_id: ADMIN,
    });
    const bad = [
      `t=${forgedBody}.${sig}`,
      `t=${body}.${sig!.slice(0, -2)}AA`,
      `t=${encodeURIComponent(loginKeyToken)}`,
      "t=not-a-token",
      "",
      `t=${encodeURIComponent(good)}&t=${encodeURIComponent(good)}`,
    ];
    for (const query of bad) {
      for (const method of ["GET", "POST"] as const) {
        const res = await t.inject({ method, url: `/email/unsubscribe?${query}`, remoteAddress: ip() });
        expect(res.statusCode, `${method} ${query}`).toBe(400);
        expect(res.headers["content-type"]).toBe("text/html; charset=utf-8");
        expect(res.body).toContain("This unsubscribe link is not valid");
      }
    }
    const old = link();
    t.clock.advance(366 * 86_400_000);
    const expired = await t.inject({ method: "POST", url: pathOf(old), remoteAddress: ip() });
    expect(expired.statusCode).toBe(400);
    t.clock.advance(-366 * 86_400_000);
    expect(await digestWanted(t.deps.db, TEAM, ADMIN)).toBe(true);
    expect(await digestWanted(t.deps.db, TEAM, "U0PREFMEM")).toBe(true);
  });

  it(`allows ${UNSUBSCRIBE_PER_MINUTE} requests a minute per address, then a 429 page`, async () => {
    const url = pathOf(link());
    for (let i = 0; i < UNSUBSCRIBE_PER_MINUTE; i++) {
      expect((await t.inject({ method: "GET", url, remoteAddress: "10.66.255.1" })).statusCode).toBe(200);
    }
    const over = await t.inject({ method: "GET", url, remoteAddress: "10.66.255.1" });
    expect(over.statusCode).toBe(429);
    expect(over.headers["retry-after"]).toBeDefined();
    expect(over.headers["content-type"]).toBe("text/html; charset=utf-8");
  });
});
