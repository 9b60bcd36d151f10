import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { schedules } from "../../src/db/schema.ts";
import type { TestApp } from "../support/app.ts";
import { hasChromium, OUTPUT, useBrowser } from "../support/browser.ts";
import { createSchedule } from "../support/factories.ts";
import { type FakeLlm, llmEnv, startFakeLlm } from "../support/fake-llm.ts";
import { NARROW, WIDE } from "../support/nav-entries.ts";
import { axeFindings } from "../support/page-checks.ts";

const TEAM = "T0AIWEB";
const ADMIN = "U0AIWEBADMIN";

async function seed(t: TestApp): Promise<string> {
  await t.installTeam(TEAM, { name: "AI Rockets", installer: ADMIN });
  t.fake.addChannel(TEAM, { id: "C0AIWEB", name: "ai-web", members: [ADMIN, "B0AIWEBBOT"] });
  return createSchedule(t.deps.db, t.clock, { teamId: TEAM, channelId: "C0AIWEB", time: "09:00" });
}

describe.runIf(hasChromium)("the standup editor's AI summary box, server without a model", () => {
  let id = "";
  const web = useBrowser({
    seed: async (t) => {
      id = await seed(t);
    },
  });

  it("is disabled with the hint to set LLM_API_URL, at 1280 and 390 px", async () => {
    mkdirSync(OUTPUT, { recursive: true });
    const page = await web.signIn(TEAM, ADMIN, `/dashboard/standups/${id}`);
    const box = page.getByLabel("Post an AI summary in the thread at close");
    await expect.poll(() => box.count()).toBe(1);
    expect(await box.isDisabled()).toBe(true);
    // A server setting for whoever runs Upbeat, said as such.
    expect(await page.locator("#ai-summary-help").textContent()).toBe(
      "AI summaries are off on this server: set LLM_API_URL and LLM_MODEL (and LLM_API_KEY if your model needs one) and restart Upbeat.",
    );
    expect(await axeFindings(page)).toEqual([]);
    for (const [size, viewport] of [
      ["1280", WIDE],
      ["390", NARROW],
    ] as const) {
      await page.setViewportSize(viewport);
      await box.scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(OUTPUT, `ai-summary-editor-off-${size}.png`) });
    }
    expect(web.problems).toEqual([]);
  });
});

describe.runIf(hasChromium)("the standup editor's AI summary box, server with a model", () => {
  let id = "";
  let llm: FakeLlm | undefined;
  const web = useBrowser({
    before: async () => {
      llm = await startFakeLlm();
    },
    app: () => ({ env: llmEnv(llm!) }),
    seed: async (t) => {
      id = await seed(t);
    },
    cleanup: async () => llm?.close(),
  });

  it("can be ticked and saved, at 1280 and 390 px", async () => {
    const page = await web.signIn(TEAM, ADMIN, `/dashboard/standups/${id}`);
    const box = page.getByLabel("Post an AI summary in the thread at close");
    await expect.poll(() => box.count()).toBe(1);
    expect(await box.isDisabled()).toBe(false);
    await box.check();
    for (const [size, viewport] of [
      ["1280", WIDE],
      ["390", NARROW],
    ] as const) {
      await page.setViewportSize(viewport);
      await box.scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(OUTPUT, `ai-summary-editor-on-${size}.png`) });
    }
    await page.getByRole("button", { name: /^Save/ }).click();
    await expect
      .poll(async () => (await web.t.deps.db.select().from(schedules).where(eq(schedules.id, id)))[0]?.aiSummary)
      .toBe(true);
    expect(web.problems).toEqual([]);
  });
});
