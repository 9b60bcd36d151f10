import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import { seedBlocker } from "../../../test/support/blockers.ts";
import { emailClaims, useFakeEmail } from "../../../test/support/email.ts";
import { createSchedule, seedRun, setWorkspaceTimezone } from "../../../test/support/factories.ts";
import { seedKudo } from "../../../test/support/kudos.ts";
import { schedules } from "../../db/schema.ts";
import { upsertPeople } from "../members/index.ts";
import { digestTick } from "./digest.scheduler.ts";

const HOSTILE_NAME = `<script>alert("x")</script> & Ops`;
const HOSTILE_BLOCKER = `<img src=x onerror=alert(1)> waiting on "ops" & infra`;

describe("the weekly digest", async () => {
  const { fake: mail, env } = await useFakeEmail();
  const t = await useTestApp({ env, clock: undefined });

  // New York: the clocks went forward on Sunday 8 March 2026, inside the week the digest of Monday 9 March reports.
  const NY = "T0NY";
  await t.installTeam(NY, { name: "New York Rockets" }); // its installer U0NYADMIN is an admin without an address
  await setWorkspaceTimezone(t.deps.db, NY, "America/New_York");
  await t.addMember(NY, "U0ADA", { role: "admin", realName: "Ada Admin", email: "ada@ny.test" });
  await t.addMember(NY, "U0BEN", { role: "member", realName: "Ben Member", email: "ben@ny.test" });
  await t.addMember(NY, "U0CAT", { role: "admin", realName: "Cat Quiet", email: "cat@ny.test" });
  await upsertPeople(
    t.deps.db,
    NY,
    [
      {
        userId: "U0DAN",
        realName: "Dan Gone",
        displayName: "dan",
        email: "dan@ny.test",
        tz: "UTC",
        active: false,
        slackAdmin: true,
      },
    ],
    t.clock.now(),
  );
  t.fake.addChannel(NY, { id: "C0NYTEAM", name: "ny-team", members: ["U0ADA", "U0BEN", "U0CAT"] });
  const hostile = await createSchedule(t.deps.db, t.clock, { teamId: NY, channelId: "C0NYOPS", time: "09:00" });
  await t.deps.db.update(schedules).set({ name: HOSTILE_NAME }).where(eq(schedules.id, hostile));
  const plain = await createSchedule(t.deps.db, t.clock, { teamId: NY, channelId: "C0NYTEAM", time: "10:00" });
  const everyone = ["U0ADA", "U0BEN", "U0CAT"];
  await seedRun(t.deps.db, {
    teamId: NY,
    scheduleId: hostile,
    date: "2026-03-02",
    asked: everyone,
    answers: {
      U0ADA: { answers: ["a", "b", "Need VPN access"], mood: "😀" },
      U0BEN: { answers: ["a", "b", "none"], mood: "😐" },
    },
  });
  await seedRun(t.deps.db, {
    teamId: NY,
    scheduleId: hostile,
    date: "2026-03-04",
    asked: everyone,
    answers: {
      U0ADA: { answers: ["a", "b", "nothing"], mood: "😕" },
      U0BEN: { answers: ["a", "b", HOSTILE_BLOCKER], mood: "😫" },
      U0CAT: { answers: ["a", "b", "Blocked by the release freeze"], mood: "😐" },
    },
  });
  // The blocker items those answers leave: Ada's resolved by her "nothing", Ben's and Cat's open.
  await seedBlocker(t.deps.db, {
    teamId: NY,
    scheduleId: hostile,
    userId: "U0ADA",
    text: "Need VPN access",
    openedDate: "2026-03-02",
    resolved: { by: "U0ADA", at: "2026-03-04T14:10:00Z", via: "answer" },
  });
  for (const [userId, text] of [
    ["U0BEN", HOSTILE_BLOCKER],
    ["U0CAT", "Blocked by the release freeze"],
  ] as const) {
    await seedBlocker(t.deps.db, { teamId: NY, scheduleId: hostile, userId, text, openedDate: "2026-03-04" });
  }
  await seedRun(t.deps.db, { teamId: NY, scheduleId: plain, date: "2026-03-06", asked: ["U0ADA"], answers: {} });
  // Outside the week (the Sunday before, the Monday after): not counted.
  for (const date of ["2026-03-01", "2026-03-09"]) {
    await seedRun(t.deps.db, {
      teamId: NY,
      scheduleId: plain,
      date,
      asked: ["U0ADA"],
      answers: { U0ADA: { answers: ["a", "b", "Outside the week"], mood: "😀" } },
    });
  }
  // The week in New York runs from Mon 2 March 00:00 EST (05:00Z) to Mon 9 March 00:00 EDT (04:00Z).
  for (const at of ["2026-03-02T04:59:00Z", "2026-03-02T05:00:00Z", "2026-03-09T03:59:00Z", "2026-03-09T04:00:00Z"]) {
    await seedKudo(t.deps.db, NY, new Date(at));
  }

  it("is not due at 08:59 on Monday in the workspace timezone, and is claimed at 09:00 for last week's recipients", async () => {
    // A cookie of Cat's, who switched the digest off in the dashboard.
    const cat = await t.signIn(NY, "U0CAT");
    const off = await t.inject({
      method: "PUT",
      url: "/dashboard/api/email/preferences",
      headers: { cookie: cat },
      payload: { digest: false },
    });
    expect(off.statusCode).toBe(200);

    // 08:59 EDT (with a fixed EST offset this would still be 07:59).
    t.clock.set("2026-03-09T12:59:00Z");
    expect((await digestTick(t.deps)).claimed.filter((c) => c.teamId === NY)).toEqual([]);
    t.clock.set("2026-03-09T13:00:00Z");
    expect((await digestTick(t.deps)).claimed.filter((c) => c.teamId === NY)).toEqual([
      { teamId: NY, weekStart: "2026-03-02", recipients: 1 },
    ]);
    // The scheduler ticking again (this instance or another) claims nothing more, that day or the next.
    t.clock.set("2026-03-09T13:00:30Z");
    expect((await digestTick(t.deps)).claimed).toEqual([]);
    t.clock.set("2026-03-09T20:00:00Z");
    expect((await digestTick(t.deps)).claimed).toEqual([]);
    await t.deps.queue.drain();
    await t.deps.queue.drain();

    // Only Ada: not the installer (no address), Ben (a member), Cat (switched off) or Dan (gone).
    for (const who of ["ben@ny.test", "cat@ny.test", "dan@ny.test"]) expect(mail.emailsTo(who)).toEqual([]);
    expect(mail.emailsTo("ada@ny.test")).toHaveLength(1);
    expect((await emailClaims(t.deps.db, NY)).filter((c) => c.kind === "digest")).toEqual([
      {
        key: "digest:2026-03-02:U0ADA",
        kind: "digest",
        user_id: "U0ADA",
        state: "sent",
        attempts: 1,
        week_start: "2026-03-02",
      },
    ]);
  });

  it("reports each standup's participation, mood and open blockers of Monday to Sunday, with every value escaped", async () => {
    const email = mail.emailsTo("ada@ny.test")[0]!;
    expect(email.subject).toBe("Upbeat weekly digest for New York Rockets: Mon 2 Mar – Sun 8 Mar 2026");
    expect(email.headers["List-Unsubscribe"]).toMatch(/^<http:\/\/localhost:3000\/email\/unsubscribe\?t=.+>$/);
    expect(email.headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");

    // The hostile standup name and blocker never reach the HTML as markup.
    expect(email.html).not.toContain("<script>");
    expect(email.html).not.toContain("<img");
    expect(email.html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Ops");
    expect(email.html).toContain("&lt;img src=x onerror=alert(1)&gt; waiting on &quot;ops&quot; &amp; infra");

    const text = email.text;
    expect(text).toContain(
      "Hi Ada Admin, here is last week in New York Rockets (Mon 2 Mar – Sun 8 Mar 2026, America/New_York).",
    );
    // Hostile standup: 5 of 6 answers over two days; mood 4.0 on Monday, 2.0 on Wednesday, 2.8 over the five moods.
    expect(text).toContain(
      [
        HOSTILE_NAME,
        "  Participation: 83% (5 of 6 answers, 2 days)",
        "  Mood: 2.8 of 5, falling (Mon 4.0 · Wed 2.0)",
        "  Open blockers: 2",
        `    - Ben Member (Wed 4 Mar): ${HOSTILE_BLOCKER}`,
        "    - Cat Quiet (Wed 4 Mar): Blocked by the release freeze",
      ].join("\n"),
    );
    // Ada's Monday blocker was followed by "nothing" on Wednesday: not open any more.
    expect(text).not.toContain("Need VPN access");
    // The unnamed standup is named after its channel; its runs outside the week are left out.
    expect(text).toContain(
      [
        "#ny-team standup",
        "  Participation: 0% (0 of 1 answers, 1 day)",
        "  Mood: no moods given",
        "  Open blockers: none",
      ].join("\n"),
    );
    expect(text).not.toContain("Outside the week");
    // Kudos from Monday 00:00 EST to Monday 00:00 EDT: the two inside, not the minute before or the one after.
    expect(text).toContain("Kudos given: 2");
    expect(email.html).toContain("Kudos given: 2");
  });
});
