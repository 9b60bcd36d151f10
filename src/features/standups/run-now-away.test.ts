import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import { createSchedule } from "../../../test/support/factories.ts";

describe("Run now with someone away", async () => {
  const t = await useTestApp();
  const TEAM = "T0RNAWAY";
  const ADMIN = "U0RNADMIN";
  await t.installTeam(TEAM, { installer: ADMIN });
  for (const id of ["U0RNANA", "U0RNBEN"]) {
    t.fake.addUser(TEAM, { id, name: id.toLowerCase(), real_name: id });
    await t.addMember(TEAM, id);
  }
  t.fake.addChannel(TEAM, { id: "C0RNAWAY", name: "standup", members: ["U0RNANA", "U0RNBEN", "B0RNBOT"] });
  const scheduleId = await createSchedule(t.deps.db, t.clock, { teamId: TEAM, channelId: "C0RNAWAY", time: "09:00" });
  const admin = await t.signIn(TEAM, ADMIN);

  it("answers the number of people actually asked: those away today are not counted", async () => {
    const today = t.clock.now().toISOString().slice(0, 10);
    const away = await t.inject({
      method: "POST",
      url: "/dashboard/api/time-off",
      headers: { cookie: admin, "content-type": "application/json" },
      payload: JSON.stringify({ user_id: "U0RNBEN", start_date: today, end_date: today }),
    });
    expect(away.statusCode, away.body).toBe(201);
    const run = await t.inject({
      method: "POST",
      url: `/dashboard/api/standups/${scheduleId}/run`,
      headers: { cookie: admin, "content-type": "application/json" },
      payload: "{}",
    });
    expect(run.statusCode, run.body).toBe(201);
    expect(run.json()).toMatchObject({ asked: 1 });
    await t.deps.queue.drain();
    expect(t.fake.callsTo("chat.postMessage").filter((c) => c.args.channel === t.fake.dmFor(TEAM, "U0RNBEN"))).toEqual(
      [],
    );
  });
});
