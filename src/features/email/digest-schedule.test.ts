import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { startFakeEmail } from "../../../dev/fake-email/index.ts";
import { useTestApp } from "../../../test/support/app.ts";
import { emailClaims, emailJobCount, useFakeEmail } from "../../../test/support/email.ts";
import { createSchedule, seedRun, setWorkspaceTimezone } from "../../../test/support/factories.ts";
import { seedKudo } from "../../../test/support/kudos.ts";
import { markUninstalled } from "../../chat/installations.repo.ts";
import { rows } from "../../db/client.ts";
import { digestTick, dueDigestWeek, mondaySomewhere } from "./digest.scheduler.ts";

describe("when a digest is due", () => {
  it("is Monday from 09:00 to the end of the day in the workspace timezone, for the week before", () => {
    // Berlin: the clocks went forward on Sunday 29 March 2026 (CET +1 to CEST +2).
    expect(dueDigestWeek(new Date("2026-03-30T06:59:59Z"), "Europe/Berlin")).toBeUndefined();
    expect(dueDigestWeek(new Date("2026-03-30T07:00:00Z"), "Europe/Berlin")).toBe("2026-03-23");
    expect(dueDigestWeek(new Date("2026-03-30T21:59:00Z"), "Europe/Berlin")).toBe("2026-03-23");
    expect(dueDigestWeek(new Date("2026-03-30T22:00:00Z"), "Europe/Berlin")).toBeUndefined();
    // Auckland's Monday 09:00 is Sunday evening in UTC; Honolulu's is Monday 19:00 UTC.
    expect(dueDigestWeek(new Date("2026-03-01T20:00:00Z"), "Pacific/Auckland")).toBe("2026-02-23");
    expect(dueDigestWeek(new Date("2026-03-02T18:59:00Z"), "Pacific/Honolulu")).toBeUndefined();
    expect(dueDigestWeek(new Date("2026-03-02T19:00:00Z"), "Pacific/Honolulu")).toBe("2026-02-23");
    expect(dueDigestWeek(new Date("2026-03-03T09:00:00Z"), "UTC")).toBeUndefined();
  });

  it("looks at the database only while it is Monday 09:00–24:00 somewhere", () => {
    expect(mondaySomewhere(new Date("2026-03-01T18:59:00Z"))).toBe(false); // Sunday: Kiribati (+14) is at 08:59
    expect(mondaySomewhere(new Date("2026-03-01T19:00:00Z"))).toBe(true);
    expect(mondaySomewhere(new Date("2026-03-03T11:59:00Z"))).toBe(true); // Tuesday: UTC−12 is still on Monday
    expect(mondaySomewhere(new Date("2026-03-03T12:00:00Z"))).toBe(false);
    expect(mondaySomewhere(new Date("2026-03-05T12:00:00Z"))).toBe(false);
  });
});

describe("the digest scheduler", async () => {
  const { fake: mail, env } = await useFakeEmail();
  const t = await useTestApp({ env });

  async function workspace(teamId: string, tz: string, admin: string, dates: string[]) {
    await t.installTeam(teamId);
    await setWorkspaceTimezone(t.deps.db, teamId, tz);
    await t.addMember(teamId, admin, { role: "admin", realName: admin, email: `${admin.toLowerCase()}@digest.test` });
    const scheduleId = await createSchedule(t.deps.db, t.clock, { teamId, channelId: `C${teamId}`, time: "09:00" });
    for (const date of dates) {
      await seedRun(t.deps.db, {
        teamId,
        scheduleId,
        date,
        asked: [admin],
        answers: { [admin]: { answers: ["a", "b", "none"], mood: "🙂" } },
      });
    }
  }

  it("counts kudos from Monday 00:00 to Monday 00:00 local across a DST change (Berlin, 167 hours)", async () => {
    await workspace("T0BER", "Europe/Berlin", "U0BERADM", ["2026-03-24"]);
    // Mon 23 March 00:00 CET is 22 March 23:00Z; Mon 30 March 00:00 CEST is 29 March 22:00Z.
    for (const at of ["2026-03-22T22:59:00Z", "2026-03-22T23:00:00Z", "2026-03-29T21:59:00Z", "2026-03-29T22:00:00Z"]) {
      await seedKudo(t.deps.db, "T0BER", new Date(at));
    }
    t.clock.set("2026-03-30T06:59:00Z");
    expect((await digestTick(t.deps)).claimed).toEqual([]);
    t.clock.set("2026-03-30T07:00:00Z");
    expect((await digestTick(t.deps)).claimed).toEqual([{ teamId: "T0BER", weekStart: "2026-03-23", recipients: 1 }]);
    await t.deps.queue.drain();
    const [email] = mail.emailsTo("u0beradm@digest.test");
    expect(email?.subject).toBe("Upbeat weekly digest for Team T0BER: Mon 23 Mar – Sun 29 Mar 2026");
    expect(email?.text).toContain("Kudos given: 2");
    expect(email?.text).toContain("Participation: 100% (1 of 1 answers, 1 day)");
  });

  it("skips uninstalled workspaces, and sends nothing for a week in which no standup ran", async () => {
    await workspace("T0GONE", "UTC", "U0GONEADM", ["2026-04-01"]);
    await markUninstalled(t.deps.db, "T0GONE", t.clock.now());
    await workspace("T0IDLE", "UTC", "U0IDLEADM", []);
    t.clock.set("2026-04-06T09:00:00Z");
    const claimed = (await digestTick(t.deps)).claimed;
    expect(claimed.map((c) => c.teamId)).not.toContain("T0GONE");
    expect(claimed).toContainEqual({ teamId: "T0IDLE", weekStart: "2026-03-30", recipients: 1 });
    await t.deps.queue.drain();
    expect(await emailClaims(t.deps.db, "T0GONE")).toEqual([]);
    expect(mail.emailsTo("u0idleadm@digest.test")).toEqual([]);
    expect(await emailClaims(t.deps.db, "T0IDLE")).toEqual([
      expect.objectContaining({ key: "digest:2026-03-30:U0IDLEADM", state: "skipped", attempts: 0 }),
    ]);
  });

  it("does not catch up a Monday it missed, and prunes digest claims after 90 days (the welcome stays)", async () => {
    await workspace("T0LATE", "UTC", "U0LATEADM", ["2026-04-07"]);
    // The whole Monday passed without a tick (the service was down): Tuesday claims nothing.
    t.clock.set("2026-04-14T08:00:00Z");
    expect((await digestTick(t.deps)).claimed.map((c) => c.teamId)).not.toContain("T0LATE");
    await t.deps.db.execute(
      sql`insert into email_sends (team_id, key, kind, user_id, state, created_at, updated_at)
          values ('T0LATE', 'welcome', 'welcome', 'U0LATEADM', 'sent', '2025-01-01T00:00:00Z', '2025-01-01T00:00:00Z'),
                 ('T0LATE', 'digest:2025-12-29:U0LATEADM', 'digest', 'U0LATEADM', 'sent', '2026-01-05T09:00:00Z', '2026-01-05T09:00:00Z'),
                 ('T0LATE', 'digest:2026-01-19:U0LATEADM', 'digest', 'U0LATEADM', 'sent', '2026-01-26T09:00:00Z', '2026-01-26T09:00:00Z')`,
    );
    await t.deps.db.execute(
      sql`insert into email_digest_weeks (team_id, week_start, recipients, claimed_at)
          values ('T0LATE', '2025-12-29', 1, '2026-01-05T09:00:00Z'), ('T0LATE', '2026-01-19', 1, '2026-01-26T09:00:00Z')`,
    );
    t.clock.set("2026-04-20T09:00:00Z");
    expect((await digestTick(t.deps)).claimed).toContainEqual({
      teamId: "T0LATE",
      weekStart: "2026-04-13",
      recipients: 1,
    });
    // 20 April − 90 days = 20 January: the 5 January claim goes, the 26 January one stays.
    expect((await emailClaims(t.deps.db, "T0LATE")).map((c) => c.key)).toEqual([
      "digest:2026-01-19:U0LATEADM",
      "digest:2026-04-13:U0LATEADM",
      "welcome",
    ]);
    const weeks = await rows<{ week_start: string }>(
      t.deps.db,
      sql`select week_start::text from email_digest_weeks where team_id = 'T0LATE' order by week_start`,
    );
    expect(weeks.map((w) => w.week_start)).toEqual(["2026-01-19", "2026-04-13"]);
  });
});

describe("the digest without EMAIL_API_KEY", async () => {
  const mail = await startFakeEmail();
  const t = await useTestApp({ env: { EMAIL_API_URL: mail.url } });

  it("claims and queues nothing on Monday 09:00", async () => {
    await t.installTeam("T0NOKEY");
    await t.addMember("T0NOKEY", "U0NOKEYADM", { role: "admin", email: "nokey@digest.test" });
    t.clock.set("2026-03-09T09:00:00Z");
    expect((await digestTick(t.deps)).claimed).toEqual([]);
    expect(await emailClaims(t.deps.db, "T0NOKEY")).toEqual([]);
    expect(await emailJobCount(t.deps.db)).toBe(0);
    expect(mail.requests).toEqual([]);
    await mail.close();
  });
});
