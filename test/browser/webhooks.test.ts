import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { hasChromium, OUTPUT, useBrowser } from "../support/browser.ts";
import { startReceiver, type WebhookReceiver } from "../support/webhook-receiver.ts";

const TEAM = "T0HOOKWEB";
const ADMIN = "U0HOOKWEBADMIN";
const MEMBER = "U0HOOKWEBMEMBER";

describe.runIf(hasChromium)("the Webhooks page in a real browser", () => {
  let receiver: WebhookReceiver;
  let secret = "";

  const web = useBrowser({
    before: async () => {
      receiver = await startReceiver(() => ({ status: 204 }));
    },
    app: { env: { WEBHOOK_ALLOW_PRIVATE: "true" }, outbound: { allowPlainHttp: true } },
    seed: async (t) => {
      await t.installTeam(TEAM, { name: "Hook Rockets", installer: ADMIN });
      await t.addMember(TEAM, MEMBER);
    },
    ready: async ({ context, base }) => {
      await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: base });
    },
    cleanup: async () => {
      await receiver?.close();
    },
    // A refused form submission logs its 400 as a failed resource load; that is the test, not a problem.
    watch: { console: (text) => !text.includes("400"), notFound: true },
  });
  const { problems } = web;
  const signedIn = (userId: string) => web.signIn(TEAM, userId);

  it("an admin adds an endpoint and sees its secret once, with a copy button and a warning", async () => {
    const page = await signedIn(ADMIN);
    await page.getByRole("link", { name: "Webhooks", exact: true }).click();
    await page.getByRole("heading", { name: "Webhooks", level: 1 }).waitFor();
    await page.getByText("No endpoints yet").waitFor();

    // The server's refusal shows in the form, in plain words.
    await page.getByLabel("Endpoint URL").fill("ftp://files.example.com/in");
    await page.getByRole("button", { name: "Add endpoint" }).click();
    await page.getByRole("alert").filter({ hasText: "The address must start with https://" }).waitFor();

    await page.getByLabel("Endpoint URL").fill(`${receiver.origin}/in`);
    await page.getByLabel(/kudos\.given/).uncheck();
    await page.getByRole("button", { name: "Add endpoint" }).click();
    const box = page.getByRole("region", { name: "Signing secret" });
    await box.waitFor();
    expect(await box.textContent()).toContain("it is shown only once");
    secret = (await box.locator(".secret-value").textContent()) ?? "";
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    await box.getByRole("button", { name: "Copy secret" }).click();
    await box.getByRole("button", { name: "Copied", exact: true }).waitFor();
    expect(await page.evaluate<string>("navigator.clipboard.readText()")).toBe(secret);
    mkdirSync(OUTPUT, { recursive: true });
    await page.screenshot({ path: join(OUTPUT, "webhooks-secret.png"), fullPage: true });

    await box.getByRole("button", { name: "I have copied it" }).click();
    expect(await page.getByText(secret).count()).toBe(0);
    const card = page.locator("li.webhook").filter({ hasText: `${receiver.origin}/in` });
    await card.waitFor();
    expect(await card.locator(".badge").textContent()).toBe("Active");
    expect(await card.getByRole("list", { name: "Events" }).locator("li").allInnerTexts()).toEqual([
      "standup.submitted",
      "standup.updated",
      "blocker.reported",
      "standup.completed",
      "blocker.resolved",
    ]);
    await page.close();
  });

  it("Send test queues a delivery; the log shows it pending, then delivered; the receiver can verify it", async () => {
    const page = await signedIn(ADMIN);
    await page.goto(`${web.base}/dashboard/webhooks`);
    const card = page.locator("li.webhook").filter({ hasText: `${receiver.origin}/in` });
    await card.getByRole("button", { name: "Send test" }).click();
    await page.getByText("Test delivery queued").waitFor();
    const log = card.getByRole("region", { name: `Deliveries to ${receiver.origin}/in` });
    await log.locator('tr[data-status="pending"]').waitFor();
    expect(await log.locator("tbody tr").first().textContent()).toContain("webhook.test");

    await web.t.deps.queue.drain();
    // The log refreshes by itself while a delivery is pending.
    await log.locator('tr[data-status="delivered"]').waitFor({ timeout: 15_000 });
    expect(await log.locator("tbody tr").first().textContent()).toContain("HTTP 204");
    expect(receiver.received).toHaveLength(1);
    const got = receiver.received[0]!;
    const body = new Webhook(secret).verify(got.body, {
      "webhook-id": String(got.headers["webhook-id"]),
      "webhook-timestamp": String(got.headers["webhook-timestamp"]),
      "webhook-signature": String(got.headers["webhook-signature"]),
    });
    expect(body).toMatchObject({ type: "webhook.test", team_id: TEAM });
    await page.screenshot({ path: join(OUTPUT, "webhooks-log.png"), fullPage: true });
    await page.close();
  });

  it("a disabled endpoint says why and offers no test", async () => {
    const res = await web.t.inject({
      method: "POST",
      url: "/dashboard/api/webhooks",
      headers: { cookie: await web.t.signIn(TEAM, ADMIN), "content-type": "application/json" },
      payload: JSON.stringify({ url: `${receiver.origin}/gone` }),
    });
    const { id } = res.json() as { id: number };
    await web.t.deps.db.execute(
      sql`update webhook_endpoints set disabled_at = now(), disabled_reason = 'gone' where id = ${id}`,
    );
    const page = await signedIn(ADMIN);
    await page.goto(`${web.base}/dashboard/webhooks`);
    const card = page.locator("li.webhook").filter({ hasText: `${receiver.origin}/gone` });
    await card.waitFor();
    expect(await card.locator(".badge").textContent()).toBe("Disabled");
    expect(await card.textContent()).toContain("The endpoint answered 410 Gone");
    expect(await card.getByRole("button", { name: "Send test" }).count()).toBe(0);
    await page.close();
  });

  it("delete asks first, then the endpoint is gone", async () => {
    const page = await signedIn(ADMIN);
    await page.goto(`${web.base}/dashboard/webhooks`);
    const card = page.locator("li.webhook").filter({ hasText: `${receiver.origin}/in` });
    await card.getByRole("button", { name: /^Delete/ }).click();
    const dialog = page.getByRole("dialog", { name: "Delete this endpoint?" });
    await dialog.waitFor();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    expect(await card.count()).toBe(1);
    await card.getByRole("button", { name: /^Delete/ }).click();
    await dialog.getByRole("button", { name: "Delete endpoint" }).click();
    await page.getByText(`Deleted ${receiver.origin}/in`).waitFor();
    expect(await card.count()).toBe(0);
    const listed = await web.t.inject({
      method: "GET",
      url: "/dashboard/api/webhooks",
      headers: { cookie: await web.t.signIn(TEAM, ADMIN) },
    });
    expect((listed.json() as { url: string }[]).map((e) => e.url)).toEqual([`${receiver.origin}/gone`]);
    await page.close();
  });

  it("members have no Webhooks entry and the page is for admins only", async () => {
    const page = await signedIn(MEMBER);
    expect(await page.getByRole("link", { name: "Webhooks" }).count()).toBe(0);
    await page.goto(`${web.base}/dashboard/webhooks`);
    await page.getByRole("heading", { name: "Admins only" }).waitFor();
    await page.close();
    expect(problems).toEqual([]);
  });
});
