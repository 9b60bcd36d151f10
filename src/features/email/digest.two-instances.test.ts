import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeEmailProvider, startFakeEmail } from "../../../dev/fake-email/index.ts";
import type { TestApp } from "../../../test/support/app.ts";
import { onPostgres } from "../../../test/support/database.ts";
import { emailClaims, emailEnv } from "../../../test/support/email.ts";
import { createSchedule, seedRun, setWorkspaceTimezone } from "../../../test/support/factories.ts";
import { startTwoInstances } from "../../../test/support/two-instances.ts";
import { ManualClock } from "../../lib/clock.ts";
import { digestTick } from "./digest.scheduler.ts";

/** Needs a database server that two processes share; CI runs the suite once more on PostgreSQL. */
describe.runIf(onPostgres)("the weekly digest with two app instances on one PostgreSQL", () => {
  const admins = Array.from({ length: 12 }, (_, i) => `U0TWOADM${String(i).padStart(2, "0")}`);
  const teams = ["T0TWOA", "T0TWOB", "T0TWOC"];
  const clock = new ManualClock("2026-03-09T07:00:00Z");
  let mail: FakeEmailProvider;
  let a: TestApp;
  let b: TestApp;
  let close: () => Promise<void>;

  beforeAll(async () => {
    mail = await startFakeEmail();
    ({ a, b, close } = await startTwoInstances({ clock, env: emailEnv(mail) }));
    for (const teamId of teams) {
      await a.installTeam(teamId);
      await setWorkspaceTimezone(a.deps.db, teamId, "Europe/Paris");
      for (const u of admins) {
        await a.addMember(teamId, u, { role: "admin", email: `${u.toLowerCase()}@${teamId.toLowerCase()}.test` });
      }
      const scheduleId = await createSchedule(a.deps.db, clock, { teamId, channelId: `C${teamId}`, time: "09:00" });
      await seedRun(a.deps.db, { teamId, scheduleId, date: "2026-03-03", asked: admins, answers: {} });
    }
  });
  afterAll(async () => {
    await close?.();
    await mail?.close();
  });

  it("both ticking at once, again and again, send one digest per workspace, week and recipient", async () => {
    clock.set("2026-03-09T08:00:00Z"); // 09:00 in Paris
    const results = await Promise.all([digestTick(a.deps), digestTick(b.deps), digestTick(a.deps), digestTick(b.deps)]);
    const claimed = results.flatMap((r) => r.claimed);
    expect(claimed.map((c) => c.teamId).sort()).toEqual(teams);
    expect(claimed.every((c) => c.recipients === admins.length && c.weekStart === "2026-03-02")).toBe(true);
    clock.set("2026-03-09T08:01:00Z");
    await Promise.all([digestTick(a.deps), digestTick(b.deps)]);
    await Promise.all([a.deps.queue.drain(), b.deps.queue.drain()]);
    await Promise.all([a.deps.queue.drain(), b.deps.queue.drain()]);

    for (const teamId of teams) {
      for (const u of admins) {
        expect(mail.emailsTo(`${u.toLowerCase()}@${teamId.toLowerCase()}.test`), `${teamId} ${u}`).toHaveLength(1);
      }
      const claims = await emailClaims(a.deps.db, teamId);
      expect(claims).toHaveLength(admins.length);
      expect(claims.every((c) => c.state === "sent" && c.attempts === 1)).toBe(true);
    }
    // One request per e-mail: no instance sent one that the other had sent.
    expect(mail.requests).toHaveLength(teams.length * admins.length);
  });
});
