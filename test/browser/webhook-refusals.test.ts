import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { hasChromium, OUTPUT, useBrowser } from "../support/browser.ts";

const TEAM = "T0HOOKWORDS";
const ADMIN = "U0HOOKWORDSADMIN";

describe.runIf(hasChromium)("the webhook form explains a refused address in plain words", () => {
  const web = useBrowser({
    // WEBHOOK_ALLOW_PRIVATE is off (the default): addresses inside a network are refused.
    seed: async (t) => {
      await t.installTeam(TEAM, { name: "Hook Words", installer: ADMIN });
    },
    // A refused form submission logs its 400 as a failed resource load; that is the test, not a problem.
    watch: { console: (text) => !text.includes("400"), dialogs: true },
  });
  const { problems } = web;

  it("says what is wrong with the address and the way forward, never the API's wording", async () => {
    const page = await web.signIn(TEAM, ADMIN, "/dashboard/webhooks");
    await page.getByText("No endpoints yet").waitFor();
    const cases: [url: string, words: string][] = [
      [
        "https://127.0.0.1:8443/in",
        "Upbeat only sends webhooks to public addresses. This one is on this machine (127.0.0.1). For a receiver inside your network, set WEBHOOK_ALLOW_PRIVATE=true on the server.",
      ],
      [
        "https://2130706433/in",
        "Upbeat only sends webhooks to public addresses. This one is on this machine (127.0.0.1). For a receiver inside your network, set WEBHOOK_ALLOW_PRIVATE=true on the server.",
      ],
      [
        "https://192.168.1.20/in",
        "Upbeat only sends webhooks to public addresses. This one is in a private network (192.168.1.20). For a receiver inside your network, set WEBHOOK_ALLOW_PRIVATE=true on the server.",
      ],
      [
        "https://n8n.internal/hook",
        "Upbeat only sends webhooks to public addresses. n8n.internal is a name known only inside a network. For a receiver inside your network, set WEBHOOK_ALLOW_PRIVATE=true on the server.",
      ],
      ["https://169.254.169.254/x", "169.254.169.254 is a link-local address"],
      ["https://hooks.example.com:22/in", "Port 22 belongs to another kind of service."],
    ];
    const alert = page.getByRole("alert");
    for (const [url, words] of cases) {
      await page.getByLabel("Endpoint URL").fill(url);
      // Each answer is awaited: two cases in a row may show the same words.
      const answered = page.waitForResponse((r) => r.url().endsWith("/dashboard/api/webhooks") && r.status() === 400);
      await page.getByRole("button", { name: "Add endpoint" }).click();
      await answered;
      await alert.filter({ hasText: words }).waitFor();
      expect(await alert.textContent(), url).not.toMatch(/^url /);
    }
    await page.getByLabel("Endpoint URL").fill("https://127.0.0.1/in");
    await page.getByRole("button", { name: "Add endpoint" }).click();
    await alert.filter({ hasText: "This one is on this machine (127.0.0.1)" }).waitFor();
    mkdirSync(OUTPUT, { recursive: true });
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await alert.scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(OUTPUT, `webhook-refusal-${width}.png`) });
    }
    expect(problems).toEqual([]);
    await page.close();
  });
});
