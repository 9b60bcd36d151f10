import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { and, eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { holidays, members, responses, runParticipants, schedules, standupRuns, timeOff } from "../../src/db/schema.ts";
import { formatDayRange } from "../../web/src/lib/datetime.ts";
import { hasChromium, OUTPUT, useBrowser } from "../support/browser.ts";
import { addHoliday, createSchedule } from "../support/factories.ts";

const TEAM = "T0CONFIRM";
const ADMIN = "U0CONFIRMADMIN";
const MAYA = "U0CONFIRMMAYA";
const LEO = "U0CONFIRMLEO";
const day = (ahead: number) => new Date(Date.now() + ahead * 86400_000).toISOString().slice(0, 10);

describe.runIf(hasChromium)("what is hard to undo is confirmed first, in a real browser", () => {
  let standup = "";

  const web = useBrowser({
    seed: async (t) => {
      await t.installTeam(TEAM, { name: "Confirm Rockets", installer: ADMIN });
      await t.addMember(TEAM, MAYA, { realName: "Maya Okafor" });
      await t.addMember(TEAM, LEO, { realName: "Leo Fernández" });
      t.fake.addChannel(TEAM, { id: "C0CONFIRM", name: "team-standup", members: [ADMIN, MAYA, LEO] });
      standup = await createSchedule(t.deps.db, t.clock, { teamId: TEAM, channelId: "C0CONFIRM", time: "00:05" });
      await t.deps.db.update(schedules).set({ name: "Team sync" }).where(eq(schedules.id, standup));
      // Today's run is open: two asked, one answered so far.
      const startsAt = new Date(`${day(0)}T00:05:00Z`);
      const [run] = await t.deps.db
        .insert(standupRuns)
        .values({
          teamId: TEAM,
          scheduleId: standup,
          localDate: day(0),
          channelId: "C0CONFIRM",
          questions: ["Yesterday?", "Today?", "Blockers?"],
          scheduleTz: "UTC",
          startsAt,
          remindAt: null,
          closesAt: new Date(`${day(0)}T23:59:00Z`),
          status: "open",
          createdAt: startsAt,
        })
        .returning({ id: standupRuns.id });
      await t.deps.db.insert(runParticipants).values([
        { runId: run!.id, userId: MAYA, teamId: TEAM, status: "answered", createdAt: startsAt },
        { runId: run!.id, userId: LEO, teamId: TEAM, status: "asked", createdAt: startsAt },
      ]);
      await t.deps.db.insert(responses).values({
        teamId: TEAM,
        scheduleId: standup,
        runId: run!.id,
        userId: MAYA,
        standupDate: day(0),
        answers: ["Docs", "Review", "none"],
        yesterday: "Docs",
        today: "Review",
        blockers: "none",
        submittedAt: new Date(startsAt.getTime() + 60_000),
      });
      await t.deps.db.insert(timeOff).values({
        teamId: TEAM,
        userId: MAYA,
        startDate: day(10),
        endDate: day(12),
        reason: "Conference",
        createdBy: ADMIN,
        createdAt: t.clock.now(),
        updatedAt: t.clock.now(),
      });
      await addHoliday(t.deps.db, TEAM, day(5), "Founders' Day");
    },
    args: ["--disable-sync"],
    watch: { console: true, dialogs: true },
    timeout: 180_000,
  });
  const { problems } = web;
  const db = () => web.t.deps.db;

  async function shoot(page: Page, name: string): Promise<void> {
    mkdirSync(OUTPUT, { recursive: true });
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
      await page.screenshot({ path: join(OUTPUT, `confirm-${name}-${width}.png`) });
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  }

  it("pausing a standup says today's run stops: cancel keeps it running, confirm pauses it", async () => {
    const page = await web.signIn(TEAM, ADMIN, "/dashboard/standups");
    const pause = page.getByRole("button", { name: "Pause standup in #team-standup" });
    await pause.click();
    const dialog = page.getByRole("dialog", { name: "Pause Team sync?" });
    await dialog.waitFor();
    const text = await dialog.textContent();
    expect(text).toContain("Today's run is stopped now.");
    expect(text).toContain("no summary is posted in #team-standup");
    expect(text).toContain("Answers given so far (1) stay in reports.");
    expect(text).toContain("The 2 people already asked can still answer; resume before the run closes");
    // Focus starts on Cancel, the safe choice.
    expect(await page.evaluate("document.activeElement?.textContent")).toBe("Cancel");
    await shoot(page, "pause");

    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    const [kept] = await db().select({ active: schedules.active }).from(schedules).where(eq(schedules.id, standup));
    expect(kept!.active).toBe(true);
    expect(await page.locator(".badge", { hasText: "Active" }).count()).toBe(1);

    // Escape cancels too.
    await pause.click();
    await dialog.waitFor();
    await page.keyboard.press("Escape");
    await expect.poll(() => dialog.isVisible()).toBe(false);

    await pause.click();
    await dialog.getByRole("button", { name: "Pause standup" }).click();
    await page.getByText("Paused the standup in #team-standup.").waitFor();
    const [paused] = await db().select({ active: schedules.active }).from(schedules).where(eq(schedules.id, standup));
    expect(paused!.active).toBe(false);
    // Resuming applies at once: nothing to lose.
    await page.getByRole("button", { name: "Resume standup in #team-standup" }).click();
    await page.getByText("Resumed the standup in #team-standup.").waitFor();
    expect(problems).toEqual([]);
    await page.close();
  });

  it("unticking Active in the editor asks the same before saving: cancel saves nothing, confirm pauses", async () => {
    const page = await web.signIn(TEAM, ADMIN, `/dashboard/standups/${standup}`);
    const active = page.getByLabel("Active: run on the chosen days (untick to pause)");
    await active.waitFor();
    expect(await active.isChecked()).toBe(true);
    await active.uncheck();
    await page.getByRole("button", { name: "Save changes" }).click();
    const dialog = page.getByRole("dialog", { name: "Pause Team sync?" });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain("Today's run is stopped now.");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    const activeNow = async () =>
      (await db().select({ active: schedules.active }).from(schedules).where(eq(schedules.id, standup)))[0]!.active;
    expect(await activeNow()).toBe(true);
    expect(new URL(page.url()).pathname).toBe(`/dashboard/standups/${standup}`);

    await page.getByRole("button", { name: "Save changes" }).click();
    await dialog.getByRole("button", { name: "Pause standup" }).click();
    await page.getByText("Saved the standup in #team-standup.").waitFor();
    expect(await activeNow()).toBe(false);
    await db().update(schedules).set({ active: true }).where(eq(schedules.id, standup));
    expect(problems).toEqual([]);
    await page.close();
  });

  it("a role change asks first: cancel keeps the role, confirm changes it", async () => {
    const page = await web.signIn(TEAM, ADMIN, "/dashboard/members");
    const role = page.getByLabel("Role for Leo Fernández");
    await role.selectOption("admin");
    const dialog = page.getByRole("dialog", { name: "Make Leo Fernández an admin?" });
    await dialog.waitFor();
    await shoot(page, "role");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    expect(await role.inputValue()).toBe("member");
    const roleOf = async () =>
      (
        await db()
          .select({ role: members.role })
          .from(members)
          .where(and(eq(members.teamId, TEAM), eq(members.userId, LEO)))
      )[0]!.role;
    expect(await roleOf()).toBe("member");

    await role.selectOption("admin");
    await dialog.getByRole("button", { name: "Make admin" }).click();
    await page.getByText("Leo Fernández is now an admin.").waitFor();
    expect(await roleOf()).toBe("admin");
    await expect.poll(() => role.inputValue()).toBe("admin");

    await role.selectOption("member");
    const demote = page.getByRole("dialog", { name: "Make Leo Fernández a member?" });
    await demote.getByRole("button", { name: "Make member" }).click();
    await page.getByText("Leo Fernández is now a member.").waitFor();
    expect(await roleOf()).toBe("member");
    expect(problems).toEqual([]);
    await page.close();
  });

  it("removing time off asks first: cancel keeps it, confirm removes it", async () => {
    const page = await web.signIn(TEAM, ADMIN, "/dashboard/time-off");
    // The page says the range in words, in the browser's locale ("7 – 9 Dec 2026").
    const locale = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().locale);
    const range = formatDayRange(day(10), day(12), { locale });
    const remove = page.getByRole("button", { name: `Remove time off ${range}` });
    await remove.click();
    const dialog = page.getByRole("dialog", { name: `Remove time off ${range}?` });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain("Standups ask Maya Okafor again on those days");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    expect(await db().select().from(timeOff).where(eq(timeOff.teamId, TEAM))).toHaveLength(1);

    await remove.click();
    await dialog.getByRole("button", { name: "Remove time off" }).click();
    await expect.poll(() => remove.count()).toBe(0);
    expect(await db().select().from(timeOff).where(eq(timeOff.teamId, TEAM))).toHaveLength(0);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("deleting a holiday asks first: cancel keeps it, confirm deletes it", async () => {
    const page = await web.signIn(TEAM, ADMIN, "/dashboard/calendar");
    const remove = page.getByRole("button", { name: "Delete Founders' Day" });
    await remove.click();
    const dialog = page.getByRole("dialog", { name: "Delete Founders' Day?" });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain("standups run on it again");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    expect(await db().select().from(holidays).where(eq(holidays.teamId, TEAM))).toHaveLength(1);

    await remove.click();
    await dialog.getByRole("button", { name: "Delete holiday" }).click();
    await page.getByText("Removed Founders' Day.").waitFor();
    expect(await db().select().from(holidays).where(eq(holidays.teamId, TEAM))).toHaveLength(0);
    expect(problems).toEqual([]);
    await page.close();
  });
});
