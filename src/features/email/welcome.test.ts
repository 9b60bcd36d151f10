import { describe, expect, it, vi } from "vitest";
import { startFakeEmail } from "../../../dev/fake-email/index.ts";
import { type TestApp, useTestApp } from "../../../test/support/app.ts";
import { emailClaims, emailJobCount, useFakeEmail } from "../../../test/support/email.ts";
import { installThroughOAuth } from "../../../test/support/oauth.ts";
import { findInstallation } from "../../chat/installations.repo.ts";
import { deliverEmail } from "./email.jobs.ts";
import { claimSend } from "./email.repo.ts";

let seq = 0;
// Each request from its own address: the per-address limits of /install and OAuth stay out of it.
const ip = () => `10.88.${++seq >> 8}.${seq & 255}`;

/** The whole OAuth flow through the real routes; the installer is a Slack user of the fake workspace. */
async function oauth(t: TestApp, teamId: string, installer: string): Promise<void> {
  const cb = await installThroughOAuth(
    t,
    {
      code: `code-${teamId}-${++seq}`,
      teamId,
      teamName: `Team <${teamId}> & Co`,
      installer,
      botToken: `xoxb-${teamId}-secret-token`,
      botUserId: `U${teamId}BOT`,
    },
    { remoteAddress: ip },
  );
  expect(cb.statusCode).toBe(302);
}

function slackWorkspace(t: TestApp, teamId: string, installer: string, email?: string): void {
  t.fake.addTeam({ id: teamId, name: `Team ${teamId}`, botToken: `xoxb-${teamId}-secret-token`, botUserId: "UBOT" });
  t.fake.addUser(teamId, {
    id: installer,
    name: "ina",
    real_name: "Ina Staller",
    ...(email ? { email } : {}),
    tz: "Europe/Berlin",
  });
}

describe("the welcome e-mail", async () => {
  const { fake: mail, env } = await useFakeEmail();
  const t = await useTestApp({ env });

  it("goes to the installer once per installation, even when OAuth completes twice", async () => {
    slackWorkspace(t, "T0WEL", "U0INA", "ina@welcome.test");
    await oauth(t, "T0WEL", "U0INA");
    await oauth(t, "T0WEL", "U0INA");
    await t.deps.queue.drain();
    await t.deps.queue.drain();

    const sent = mail.emailsTo("ina@welcome.test");
    expect(sent).toHaveLength(1);
    const email = sent[0]!;
    expect(email.from).toBe("Upbeat <noreply@localhost>");
    // The workspace's name is Slack's to choose: escaped in the HTML, plain in the text.
    expect(email.subject).toBe("Welcome to Upbeat, Team <T0WEL> & Co");
    expect(email.html).toContain("Team &lt;T0WEL&gt; &amp; Co");
    expect(email.html).not.toContain("<T0WEL>");
    expect(email.html).toContain("Hi Ina Staller");
    expect(email.text).toContain("Upbeat is now installed in Team <T0WEL> & Co.");
    expect(email.text).toContain("http://localhost:3000/dashboard");
    expect(email.headers["List-Unsubscribe"]).toMatch(/^<http:\/\/localhost:3000\/email\/unsubscribe\?t=[\w%.-]+>$/);
    expect(email.headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");

    expect(mail.requests).toHaveLength(1);
    const request = mail.requests[0]!;
    expect(request.authorization).toBe(`Bearer ${mail.apiKey}`);
    expect(request.idempotencyKey).toMatch(/^upbeat-[0-9a-f]{64}$/);
    expect(await emailClaims(t.deps.db, "T0WEL")).toEqual([
      { key: "welcome", kind: "welcome", user_id: "U0INA", state: "sent", attempts: 1, week_start: null },
    ]);
  });

  it("a reinstall after an uninstall is a new installation with one welcome of its own", async () => {
    slackWorkspace(t, "T0REW", "U0REW", "rew@welcome.test");
    await oauth(t, "T0REW", "U0REW");
    await t.deps.queue.drain();
    expect(mail.emailsTo("rew@welcome.test")).toHaveLength(1);

    expect((await t.sendEvent("T0REW", { type: "app_uninstalled" })).statusCode).toBe(200);
    await vi.waitFor(async () =>
      expect((await findInstallation(t.deps.db, "T0REW"))?.uninstalledAt).toBeInstanceOf(Date),
    );
    await oauth(t, "T0REW", "U0REW");
    await t.deps.queue.drain();
    expect((await findInstallation(t.deps.db, "T0REW"))?.uninstalledAt).toBeNull();
    expect(mail.emailsTo("rew@welcome.test")).toHaveLength(2);
    // Re-authorising the reinstalled workspace is not a third installation.
    await oauth(t, "T0REW", "U0REW");
    await t.deps.queue.drain();
    expect(mail.emailsTo("rew@welcome.test")).toHaveLength(2);
    const keys = (await emailClaims(t.deps.db, "T0REW")).map((c) => c.key);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBe("welcome");
    expect(keys[1]).toMatch(/^welcome@\d+$/);
  });

  it("asks Slack for the installer's address when the member sync has not stored it yet", async () => {
    slackWorkspace(t, "T0EARLY", "U0EARLY", "early@welcome.test");
    // The install reads the installer's profile; when Slack fails that (three tries of the read client), the
    // installer's row has no address until the member sync runs.
    t.fake.fail("users.info", { status: 500 }, 3);
    await oauth(t, "T0EARLY", "U0EARLY");
    const before = t.fake.callsTo("users.info").length;
    // Before the member sync ran: the installer's row has no address yet.
    await deliverEmail(t.deps, "T0EARLY", "welcome");
    expect(t.fake.callsTo("users.info").length).toBe(before + 1);
    expect(mail.emailsTo("early@welcome.test")).toHaveLength(1);
    expect(mail.emailsTo("early@welcome.test")[0]!.html).toContain("Hi Ina Staller");
    await t.deps.queue.drain();
    expect(mail.emailsTo("early@welcome.test")).toHaveLength(1);
  });

  it("an installer without an e-mail address gets none, and the claim says so", async () => {
    slackWorkspace(t, "T0NOADDR", "U0NOADDR");
    const requests = mail.requests.length;
    await oauth(t, "T0NOADDR", "U0NOADDR");
    await t.deps.queue.drain();
    expect(mail.requests.length).toBe(requests);
    expect(await emailClaims(t.deps.db, "T0NOADDR")).toEqual([
      expect.objectContaining({ key: "welcome", state: "skipped", attempts: 0 }),
    ]);
  });
});

describe("without EMAIL_API_KEY", async () => {
  const mail = await startFakeEmail();
  // The provider's address is configured, the key is not: e-mail is off.
  const t = await useTestApp({ env: { EMAIL_API_URL: mail.url } });

  it("an install queues no e-mail and the provider hears nothing", async () => {
    slackWorkspace(t, "T0OFF", "U0OFF", "off@welcome.test");
    await oauth(t, "T0OFF", "U0OFF");
    await t.deps.queue.drain();
    expect(await emailClaims(t.deps.db, "T0OFF")).toEqual([]);
    expect(await emailJobCount(t.deps.db)).toBe(0);
    expect(mail.requests).toHaveLength(0);
    await mail.close();
    // The dashboard says so.
    const cookie = await t.signIn("T0OFF", "U0OFF");
    const prefs = await t.inject({ method: "GET", url: "/dashboard/api/email/preferences", headers: { cookie } });
    expect(prefs.json()).toEqual({ digest: true, email_enabled: false, has_address: true });
  });

  it("an e-mail claimed before the key was removed is skipped, not sent", async () => {
    await t.installTeam("T0GONE");
    await claimSend(t.deps.db, {
      teamId: "T0GONE",
      key: "welcome",
      kind: "welcome",
      userId: "U0GONEADMIN",
      now: t.clock.now(),
    });
    await deliverEmail(t.deps, "T0GONE", "welcome");
    expect(await emailClaims(t.deps.db, "T0GONE")).toEqual([
      expect.objectContaining({ state: "skipped", attempts: 0 }),
    ]);
  });
});
