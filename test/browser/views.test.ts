import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { responses, runParticipants, schedules, standupRuns } from "../../src/db/schema.ts";
import { hasChromium, OUTPUT, useBrowser } from "../support/browser.ts";
import { createSchedule, seedRun } from "../support/factories.ts";

const TEAM = "T0VUE";
const ADMIN = "U0VUEADMIN";
const ALPHA_PEOPLE = 40;
const member = (n: number) => `U0VM${String(n).padStart(3, "0")}`;
const memberName = (n: number) => `Member ${String(n).padStart(2, "0")}`;

describe.runIf(hasChromium)("views per standup in a real browser", () => {
  let beta = "";

  /** Today's run, still open until the end of the day, with some answers so far. */
  async function openRun(scheduleId: string, date: string, asked: number[], answers: Record<number, string>) {
    const startsAt = new Date(`${date}T00:05:00Z`);
    const [run] = await web.t.deps.db
      .insert(standupRuns)
      .values({
        teamId: TEAM,
        scheduleId,
        localDate: date,
        channelId: "C0VUE",
        questions: ["Yesterday?", "Today?", "Blockers?"],
        scheduleTz: "UTC",
        startsAt,
        remindAt: null,
        closesAt: new Date(`${date}T23:59:00Z`),
        status: "open",
        createdAt: startsAt,
      })
      .returning({ id: standupRuns.id });
    await web.t.deps.db.insert(runParticipants).values(
      asked.map((n) => ({
        runId: run!.id,
        userId: member(n),
        teamId: TEAM,
        status: answers[n] ? ("answered" as const) : ("asked" as const),
        createdAt: startsAt,
      })),
    );
    for (const [n, text] of Object.entries(answers)) {
      await web.t.deps.db.insert(responses).values({
        teamId: TEAM,
        scheduleId,
        runId: run!.id,
        userId: member(Number(n)),
        standupDate: date,
        answers: ["Earlier work", text, "none"],
        yesterday: "Earlier work",
        today: text,
        blockers: "none",
        submittedAt: new Date(startsAt.getTime() + Number(n) * 60_000),
      });
    }
  }

  const web = useBrowser({
    seed: async (t) => {
      await t.installTeam(TEAM, { name: "View Rockets" });
      t.fake.addChannel(TEAM, { id: "C0VUEALPHA", name: "alpha-team", members: [ADMIN] });
      t.fake.addChannel(TEAM, { id: "C0VUEBETA", name: "beta-team", members: [ADMIN] });
      for (let n = 1; n <= ALPHA_PEOPLE; n++) await t.addMember(TEAM, member(n), { realName: memberName(n) });
      const alpha = await createSchedule(t.deps.db, t.clock, { teamId: TEAM, channelId: "C0VUEALPHA", time: "00:05" });
      beta = await createSchedule(t.deps.db, t.clock, { teamId: TEAM, channelId: "C0VUEBETA", time: "00:05" });
      await t.deps.db.update(schedules).set({ name: "Alpha sync" }).where(eq(schedules.id, alpha));
      const everyone = Array.from({ length: ALPHA_PEOPLE }, (_, i) => i + 1);
      const dayBack = (back: number) => new Date(Date.now() - back * 86400_000).toISOString().slice(0, 10);
      // Six past days: everyone answers Alpha (240 answers), members 1–3 answer Beta (18).
      for (let back = 6; back >= 1; back--) {
        await seedRun(t.deps.db, {
          teamId: TEAM,
          scheduleId: alpha,
          date: dayBack(back),
          asked: everyone.map(member),
          answers: Object.fromEntries(
            everyone.map((n) => [member(n), { answers: [`Alpha work ${back}`, `Alpha plan ${n}`, "none"] as const }]),
          ) as Parameters<typeof seedRun>[1]["answers"],
        });
        await seedRun(t.deps.db, {
          teamId: TEAM,
          scheduleId: beta,
          date: dayBack(back),
          asked: [member(1), member(2), member(3)],
          answers: Object.fromEntries(
            [1, 2, 3].map((n) => [member(n), { answers: [`Beta work ${back}`, `Beta plan ${n}`, "none"] as const }]),
          ) as Parameters<typeof seedRun>[1]["answers"],
        });
      }
      // Today, both still open: three Alpha answers so far, one Beta answer (about kubernetes).
      await openRun(alpha, dayBack(0), everyone, { 1: "Alpha today 1", 2: "Alpha today 2", 3: "Alpha today 3" });
      await openRun(beta, dayBack(0), [4, 5], { 4: "Upgrade the kubernetes cluster" });
    },
    args: ["--disable-sync"],
    watch: { console: true },
    timeout: 180_000,
  });
  const { problems } = web;

  async function signedInPage(path: string): Promise<Page> {
    return web.signIn(TEAM, ADMIN, path === "/" ? undefined : `/dashboard${path}`);
  }

  const cards = (page: Page) => page.locator("article.answer");

  it("the overview groups today by standup, with the answers so far and who has not answered yet", async () => {
    const page = await signedInPage("/");
    const alphaToday = page
      .locator("section.standup-today")
      .filter({ has: page.getByRole("heading", { name: "Alpha sync" }) });
    await expect
      .poll(() => alphaToday.getByText("3 of 40 members answered so far").count(), { timeout: 15_000 })
      .toBe(1);
    expect(await alphaToday.locator("article.answer").count()).toBe(3);
    const waiting = await alphaToday.locator(".not-answered").textContent();
    expect(waiting).toMatch(/^Not answered yet: Member 04, Member 05,/);
    expect(waiting).not.toContain("Member 01");
    const betaToday = page
      .locator("section.standup-today")
      .filter({ has: page.getByRole("heading", { name: "#beta-team standup" }) });
    await expect.poll(() => betaToday.getByText("1 of 2 members answered so far").count()).toBe(1);
    expect(await betaToday.locator(".not-answered").textContent()).toBe("Not answered yet: Member 05");
    expect(await betaToday.getByText("Upgrade the kubernetes cluster").count()).toBe(1);
    mkdirSync(OUTPUT, { recursive: true });
    await page.screenshot({ path: join(OUTPUT, "overview-by-standup.png"), fullPage: true });
    await page.close();
  });

  it("reports load 200 answers, then the rest with Load more, grouped by day and standup", async () => {
    const page = await signedInPage("/reports");
    await expect.poll(() => cards(page).count(), { timeout: 15_000 }).toBe(200);
    expect(await page.getByText("262 answers from 40 members").count()).toBe(1);
    await page.getByRole("button", { name: "Load more answers" }).click();
    await expect.poll(() => cards(page).count()).toBe(262);
    expect(await page.getByRole("button", { name: "Load more answers" }).count()).toBe(0);
    // A day holds one group per standup; today's say "so far".
    const today = page.locator("details.day").first();
    expect(await today.locator("details.standup-group").count()).toBe(2);
    expect(await today.getByText("8% so far · 37 awaiting (3 of 40 answered)").count()).toBe(1);
    // Folding a day hides its answers.
    const answersInDay = await today.locator("article.answer").count();
    expect(answersInDay).toBe(4);
    await today.locator("summary.day-head").click();
    await expect.poll(() => today.locator("article.answer:visible").count()).toBe(0);
    await page.screenshot({ path: join(OUTPUT, "reports-grouped.png"), fullPage: false });
    await page.close();
  });

  it("analytics labels today's open figure as so far, with who is still awaited", async () => {
    const page = await signedInPage("/analytics");
    // Today: 42 asked over both standups, 4 answered so far; the other 38 are awaited, not missed.
    await expect
      .poll(() => page.locator(".open-day").textContent(), { timeout: 15_000 })
      .toMatch(/: 10% so far · 38 awaiting \(4 of 42 answered\)$/);
    expect(await page.getByText("38 still awaiting, not counted yet", { exact: false }).count()).toBe(1);
    await page.close();
  });

  it("reports filter by standup, by member and by a full-text search", async () => {
    const page = await signedInPage("/reports");
    await expect.poll(() => cards(page).count(), { timeout: 15_000 }).toBe(200);
    await page.locator("#standup-filter").selectOption({ label: "#beta-team standup" });
    await page.waitForURL(new RegExp(`standup=${beta}`));
    await expect.poll(() => cards(page).count()).toBe(19);
    expect(await page.getByText("Alpha", { exact: false }).locator("visible=true").count()).toBe(0);

    await page.locator("#member-filter").selectOption({ label: memberName(2) });
    await expect.poll(() => cards(page).count()).toBe(6);
    const names = await page.locator("article.answer .answer-name").allInnerTexts();
    expect(new Set(names)).toEqual(new Set([memberName(2)]));

    await page.locator("#member-filter").selectOption({ label: "Everyone" });
    await page.locator("#standup-filter").selectOption({ label: "All standups" });
    await page.locator("#q").fill("kubernetes");
    await page.getByRole("button", { name: "Show" }).click();
    await expect.poll(() => cards(page).count()).toBe(1);
    expect(await cards(page).first().textContent()).toContain("Upgrade the kubernetes cluster");
    expect(page.url()).toContain("q=kubernetes");
    await page.close();
    expect(problems).toEqual([]);
  });
});
