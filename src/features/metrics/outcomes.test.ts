import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import { useFakeEmail } from "../../../test/support/email.ts";
import { createSchedule } from "../../../test/support/factories.ts";
import { startReceiver } from "../../../test/support/webhook-receiver.ts";
import { ManualClock } from "../../lib/clock.ts";
import type { Metrics } from "../../lib/metrics.ts";
import { queueWelcome } from "../email/index.ts";
import { tick } from "../standups/index.ts";

type CounterName = "webhookDeliveries" | "emailDeliveries" | "runsSkipped" | "dmsSent";

/** The current value of one series of a counter (0 when it has none yet). */
async function counter(metrics: Metrics, name: CounterName, labels: Record<string, string>): Promise<number> {
  const { values } = await metrics[name].get();
  const found = values.find((v) =>
    Object.entries(labels).every(([k, want]) => (v.labels as Record<string, unknown>)[k] === want),
  );
  return found?.value ?? 0;
}

describe("delivery outcomes in the metrics", async () => {
  const { fake: mail, env } = await useFakeEmail();
  const receiver = await startReceiver();
  afterAll(() => receiver.close());
  const t = await useTestApp({
    clock: new ManualClock(Math.floor(Date.now() / 1000) * 1000),
    env: { ...env, WEBHOOK_ALLOW_PRIVATE: "true" },
    outbound: { allowPlainHttp: true },
  });
  const m = t.deps.metrics;

  it("webhook attempts count as delivered, retry_scheduled, and failed for good (a 410)", async () => {
    await t.installTeam("T0WHM", { installer: "U0WHMADMIN" });
    t.fake.addUser("T0WHM", { id: "U0WHMADMIN", name: "admin", real_name: "Ada Admin" });
    const admin = await t.signIn("T0WHM", "U0WHMADMIN");
    const created = await t.inject({
      method: "POST",
      url: "/dashboard/api/webhooks",
      headers: { cookie: admin, "content-type": "application/json" },
      payload: JSON.stringify({ url: `${receiver.origin}/hook` }),
    });
    expect(created.statusCode, created.body).toBe(201);
    const endpointId = (created.json() as { id: number }).id;
    const sendTest = async () => {
      const res = await t.inject({
        method: "POST",
        url: `/dashboard/api/webhooks/${endpointId}/test`,
        headers: { cookie: admin, "content-type": "application/json" },
        payload: "{}",
      });
      expect(res.statusCode, res.body).toBe(202);
      await t.deps.queue.drain();
    };
    const before = {
      delivered: await counter(m, "webhookDeliveries", { outcome: "delivered" }),
      retry: await counter(m, "webhookDeliveries", { outcome: "retry_scheduled" }),
      failed: await counter(m, "webhookDeliveries", { outcome: "failed" }),
    };
    receiver.respond(() => ({ status: 200 }));
    await sendTest();
    expect(await counter(m, "webhookDeliveries", { outcome: "delivered" })).toBe(before.delivered + 1);
    receiver.respond(() => ({ status: 500 }));
    await sendTest();
    expect(await counter(m, "webhookDeliveries", { outcome: "retry_scheduled" })).toBe(before.retry + 1);
    receiver.respond(() => ({ status: 410 }));
    await sendTest();
    expect(await counter(m, "webhookDeliveries", { outcome: "failed" })).toBe(before.failed + 1);
  });

  it("e-mails count as retry then sent after a 429, and as skipped without an address", async () => {
    await t.installTeam("T0EMM");
    await t.addMember("T0EMM", "U0EMMADMIN", { role: "admin", email: "emm.admin@metrics.test" });
    const welcome = { kind: "welcome" };
    const retry = await counter(m, "emailDeliveries", { ...welcome, outcome: "retry" });
    const sent = await counter(m, "emailDeliveries", { ...welcome, outcome: "sent" });
    mail.fail({ status: 429, retryAfter: 1 });
    await t.deps.db.transaction((tx) =>
      queueWelcome(t.deps, tx, { teamId: "T0EMM", userId: "U0EMMADMIN", now: t.clock.now() }),
    );
    await t.deps.queue.drain();
    expect(mail.emailsTo("emm.admin@metrics.test")).toHaveLength(1);
    expect(await counter(m, "emailDeliveries", { ...welcome, outcome: "retry" })).toBe(retry + 1);
    expect(await counter(m, "emailDeliveries", { ...welcome, outcome: "sent" })).toBe(sent + 1);

    await t.installTeam("T0EMN");
    await t.addMember("T0EMN", "U0EMNADMIN", { role: "admin", email: "" });
    const skipped = await counter(m, "emailDeliveries", { ...welcome, outcome: "skipped" });
    await t.deps.db.transaction((tx) =>
      queueWelcome(t.deps, tx, { teamId: "T0EMN", userId: "U0EMNADMIN", now: t.clock.now() }),
    );
    await t.deps.queue.drain();
    expect(await counter(m, "emailDeliveries", { ...welcome, outcome: "skipped" })).toBe(skipped + 1);
  });

  it("a run whose schedule is paused before its fan-out counts as skipped (paused), and asks nobody", async () => {
    await t.deps.db.execute(sql`update schedules set active = false`);
    await t.installTeam("T0PSM");
    t.fake.addUser("T0PSM", { id: "U0PSM1", name: "psm", real_name: "Pat" });
    await t.addMember("T0PSM", "U0PSM1");
    t.fake.addChannel("T0PSM", { id: "C0PSM", name: "psm", members: ["U0PSM1", "B0PSMBOT"] });
    const scheduleId = await createSchedule(t.deps.db, t.clock, {
      teamId: "T0PSM",
      channelId: "C0PSM",
      time: "09:00",
      days: "mon,tue,wed,thu,fri,sat,sun",
    });
    const paused = await counter(m, "runsSkipped", { reason: "paused" });
    const asks = await counter(m, "dmsSent", { kind: "ask" });
    t.clock.set("2026-03-10T09:00:01Z");
    expect((await tick(t.deps)).started).toHaveLength(1);
    await t.deps.db.execute(sql`update schedules set active = false where id = ${scheduleId}`);
    await t.deps.queue.drain();
    expect(await counter(m, "runsSkipped", { reason: "paused" })).toBe(paused + 1);
    expect(await counter(m, "dmsSent", { kind: "ask" })).toBe(asks);
  });
});
