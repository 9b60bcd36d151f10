import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { hasChromium, OUTPUT, useBrowser } from "../support/browser.ts";

const TEAM = "T0QEDWEB";
const ADMIN = "U0QEDWEBADMIN";

type Listed = {
  id: string;
  channel_id: string;
  questions: string[];
  question_details: Record<string, unknown>[];
  blocker_question: number | null;
  answer_early_hours: number;
};

describe.runIf(hasChromium)("the question editor in a real browser (issue 25)", () => {
  const web = useBrowser({
    seed: async (t) => {
      await t.installTeam(TEAM, { name: "Typed Team" });
      t.fake.addChannel(TEAM, { id: "C0QEDWEB", name: "typed-web", members: ["BT0QEDWEBBOT"] });
    },
  });

  const standups = (page: Page) => page.evaluate<Listed[]>("fetch('/dashboard/api/standups').then((r) => r.json())");

  /** The page is no wider than the window: nothing of the editor is cut off at 390 px. */
  const overflow = (page: Page) => page.evaluate<number>("document.documentElement.scrollWidth - window.innerWidth");

  it("creates a standup with a number and a single-choice question, by keyboard and labels, and reads it back", async () => {
    const page = await web.newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    await web.signIn(TEAM, ADMIN, "/dashboard/standups/new", { page });
    await expect.poll(() => page.getByRole("heading", { name: "New standup" }).count(), { timeout: 10_000 }).toBe(1);
    const channel = page.locator("#channel");
    await channel.click();
    await channel.fill("typed-web");
    await channel.press("Enter");

    // Question 4: confidence, a number from 1 to 5.
    await page.getByRole("button", { name: "Add question" }).click();
    await page.getByLabel("Question 4", { exact: true }).fill("How confident are you?");
    await page.getByLabel("Answer type of question 4").selectOption({ label: "Number" });
    await page.getByLabel("Lowest answer to question 4 (optional)").fill("1");
    await page.getByLabel("Highest answer to question 4 (optional)").fill("5");

    // Question 5: one area out of three, optional; the third option added with the keyboard.
    await page.getByRole("button", { name: "Add question" }).click();
    await page.getByLabel("Question 5", { exact: true }).fill("Which area?");
    const type5 = page.getByLabel("Answer type of question 5");
    await type5.focus();
    await type5.selectOption("single_choice");
    await page.getByLabel("Option 1 of question 5", { exact: true }).fill("Frontend");
    await page.getByLabel("Option 2 of question 5", { exact: true }).fill("Backend");
    await page.getByRole("button", { name: "Add option to question 5" }).focus();
    await page.keyboard.press("Enter");
    await page.getByLabel("Option 3 of question 5", { exact: true }).fill("Ops");
    await page.getByLabel("Required (question 5)").uncheck();
    await page.getByLabel("Answer ahead (hours)").fill("6");

    // The blocker question offers text questions only: 1–3, not the number or the choice.
    const offered = await page.locator("#blocker-question option").allTextContents();
    expect(offered).toEqual(["None", expect.stringMatching(/^1\./), expect.stringMatching(/^2\./), "3. Any blockers?"]);
    // Anonymous is explained where it is chosen.
    expect(await page.getByLabel("Anonymous (question 4)").getAttribute("aria-describedby")).toBe("anonymous-help");
    await expect
      .poll(() => page.locator("#anonymous-help").textContent())
      .toContain("stored without the name, shown only when 5 or more answer");

    mkdirSync(OUTPUT, { recursive: true });
    await page.screenshot({ path: join(OUTPUT, "question-editor-1280.png"), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await overflow(page)).toBeLessThanOrEqual(1);
    await page.getByLabel("Question 4", { exact: true }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(OUTPUT, "question-editor-390.png"), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });

    await page.getByRole("button", { name: "Create standup" }).click();
    await page.waitForURL(`${web.base}/dashboard/standups`);
    const [saved] = (await standups(page)).filter((s) => s.channel_id === "C0QEDWEB");
    expect(saved?.questions.slice(3)).toEqual(["How confident are you?", "Which area?"]);
    expect(saved?.question_details.slice(3)).toEqual([
      { text: "How confident are you?", type: "number", min: 1, max: 5, required: true, anonymous: false },
      {
        text: "Which area?",
        type: "single_choice",
        options: ["Frontend", "Backend", "Ops"],
        required: false,
        anonymous: false,
      },
    ]);
    expect(saved?.question_details[0]).toEqual({
      text: saved?.questions[0],
      type: "text",
      required: true,
      anonymous: false,
    });
    expect(saved?.blocker_question).toBe(3);
    expect(saved?.answer_early_hours).toBe(6);

    // The editor shows what was stored; a question made typed stops being offered as the blocker question.
    await page.goto(`${web.base}/dashboard/standups/${saved!.id}`);
    await expect
      .poll(() => page.getByLabel("Answer type of question 4").inputValue(), { timeout: 10_000 })
      .toBe("number");
    expect(await page.getByLabel("Lowest answer to question 4 (optional)").inputValue()).toBe("1");
    expect(await page.getByLabel("Option 3 of question 5", { exact: true }).inputValue()).toBe("Ops");
    expect(await page.getByLabel("Required (question 5)").isChecked()).toBe(false);
    expect(await page.getByLabel("Answer ahead (hours)").inputValue()).toBe("6");
    await page.getByLabel("Answer type of question 3").selectOption("yes_no");
    expect(await page.locator("#blocker-question").inputValue()).toBe("");
    // Said where it happens, not only in the help line.
    expect(
      await page.getByRole("status").filter({ hasText: "can no longer be the blocker question" }).textContent(),
    ).toContain("Question 3 can no longer be the blocker question");
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.waitForURL(`${web.base}/dashboard/standups`);
    const [edited] = (await standups(page)).filter((s) => s.id === saved!.id);
    expect(edited?.question_details[2]).toMatchObject({ type: "yes_no" });
    expect(edited?.blocker_question).toBeNull();
    expect(web.problems).toEqual([]);
    await page.close();
  });

  it("says what is wrong with a choice question before sending it", async () => {
    const page = await web.signIn(TEAM, ADMIN, "/dashboard/standups/new");
    await expect.poll(() => page.getByRole("heading", { name: "New standup" }).count(), { timeout: 10_000 }).toBe(1);
    const channel = page.locator("#channel");
    await channel.click();
    await channel.fill("typed-web");
    await channel.press("Enter");
    await page.getByLabel("Answer type of question 2").selectOption("multiple_choice");
    await page.getByLabel("Option 1 of question 2", { exact: true }).fill("Same");
    await page.getByLabel("Option 2 of question 2", { exact: true }).fill("same");
    await page.getByRole("button", { name: "Create standup" }).click();
    await expect.poll(() => page.getByRole("alert").textContent()).toBe("Question 2 has the same option twice.");
    // Every problem at once, not one per save: answer-ahead hours, a number range upside down, a bound too precise.
    await page.getByLabel("Option 2 of question 2", { exact: true }).fill("Other");
    await page.getByLabel("Answer ahead (hours)").fill("20");
    await page.getByLabel("Answer type of question 1").selectOption("number");
    await page.getByLabel("Lowest answer to question 1 (optional)").fill("9");
    await page.getByLabel("Highest answer to question 1 (optional)").fill("2");
    await page.getByRole("button", { name: "Create standup" }).click();
    await expect
      .poll(() => page.getByRole("alert").textContent())
      .toBe("Answer ahead takes whole hours from 0 to 16. Question 1: the lowest answer is above the highest.");
    await page.getByLabel("Highest answer to question 1 (optional)").fill("1.23456");
    await page.getByRole("button", { name: "Create standup" }).click();
    await expect
      .poll(() => page.getByRole("alert").textContent())
      .toContain(
        "Question 1: the lowest and highest answers must be numbers up to a billion, with at most 4 decimals.",
      );
    await page.close();
  });
});
