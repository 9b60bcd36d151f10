import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import { startReceiver } from "../../../test/support/webhook-receiver.ts";
import { rows } from "../../db/client.ts";
import { installations } from "../../db/schema.ts";
import { pruneWebhookDeliveries, sweepDeliveries } from "./webhooks.jobs.ts";

const TEAM = "T0WHDIS";
const ADMIN = "U0WHDISADMIN";
const ADMIN2 = "U0WHDISADM2";
const MEMBER = "U0WHDISMEMBER";
const DAY = 24 * 3600_000;

describe("disabling failing endpoints, and retention", async () => {
  const receiver = await startReceiver((_n, req) => ({ status: req.path.startsWith("/ok") ? 200 : 500 }));
  afterAll(() => receiver.close());
  const t = await useTestApp({ env: { WEBHOOK_ALLOW_PRIVATE: "true" }, outbound: { allowPlainHttp: true } });
  t.clock.set("2026-03-02T10:00:00Z");
  await t.installTeam(TEAM, { installer: ADMIN });
  await t.addMember(TEAM, ADMIN2, { role: "admin" });
  await t.addMember(TEAM, MEMBER);
  for (const id of [ADMIN, ADMIN2, MEMBER]) t.fake.addUser(TEAM, { id, name: id.toLowerCase(), real_name: id });
  const admin = await t.signIn(TEAM, ADMIN);

  const create = async (path: string) => {
    const res = await t.inject({
      method: "POST",
      url: "/dashboard/api/webhooks",
      headers: { cookie: admin, "content-type": "application/json" },
      payload: JSON.stringify({ url: `${receiver.origin}${path}` }),
    });
    expect(res.statusCode, res.body).toBe(201);
    return (res.json() as { id: number }).id;
  };
  const sendTest = async (id: number) => {
    const res = await t.inject({
      method: "POST",
      url: `/dashboard/api/webhooks/${id}/test`,
      headers: { cookie: admin, "content-type": "application/json" },
      payload: "{}",
    });
    return res;
  };
  /** One delivery now: a test message, attempted once. */
  const deliverOnce = async (id: number) => {
    const res = await sendTest(id);
    expect(res.statusCode, res.body).toBe(202);
    await sweepDeliveries(t.deps, 0);
    await t.deps.queue.drain();
    return (res.json() as { id: number }).id;
  };
  const endpoint = async (id: number) =>
    (
      await rows<{ disabled_at: string | null; disabled_reason: string | null; failing_since: string | null }>(
        t.deps.db,
        sql`select disabled_at, disabled_reason, failing_since from webhook_endpoints where id = ${id}`,
      )
    )[0]!;
  const noticesTo = (userId: string) =>
    t.fake
      .callsTo("chat.postMessage")
      .filter((c) => c.ok && c.args.channel === t.fake.dmFor(TEAM, userId) && String(c.args.text).includes("disabled"));

  it("an endpoint failing every attempt for 5 days is disabled, and each admin is told once by DM", async () => {
    const start = t.clock.now().getTime();
    const id = await create("/down?secret-token=abc");
    await deliverOnce(id);
    expect(new Date((await endpoint(id)).failing_since!).getTime()).toBe(start);
    // Tried at least daily (the retries of pending deliveries see to that), failing every time.
    for (const day of [1, 2, 3, 4]) {
      t.clock.set(start + day * DAY);
      await deliverOnce(id);
    }
    t.clock.set(start + 5 * DAY - 60_000);
    const pending = await deliverOnce(id);
    expect((await endpoint(id)).disabled_at).toBeNull();
    t.clock.set(start + 5 * DAY);
    await deliverOnce(id);
    expect(await endpoint(id)).toMatchObject({ disabled_reason: "failing" });
    expect(new Date((await endpoint(id)).disabled_at!).getTime()).toBe(start + 5 * DAY);
    // The delivery still waiting for its retry ends with the endpoint.
    const [ended] = await rows<{ status: string; last_error: string }>(
      t.deps.db,
      sql`select status, last_error from webhook_deliveries where id = ${pending}`,
    );
    expect(ended).toEqual({ status: "failed", last_error: "answered 500; endpoint disabled" });

    for (const who of [ADMIN, ADMIN2]) {
      const dms = noticesTo(who);
      expect(dms, who).toHaveLength(1);
      const text = String(dms[0]!.args.text);
      expect(text).toContain(`${receiver.origin}/down`);
      expect(text).toContain("every delivery to it failed for 5 days");
      // The address's query may hold the receiver's own token: never in Slack.
      expect(text).not.toContain("secret-token");
    }
    expect(noticesTo(MEMBER)).toEqual([]);

    // However often the notice job runs again, nobody hears twice.
    const disabledAt = new Date((await endpoint(id)).disabled_at!).toISOString();
    await t.deps.queue.enqueue("webhook.disabled", { teamId: TEAM, endpointId: id, disabledAt });
    await t.deps.queue.enqueue("webhook.disabled", { teamId: TEAM, endpointId: id, disabledAt });
    await t.deps.queue.drain();
    expect(noticesTo(ADMIN)).toHaveLength(1);
    expect(noticesTo(ADMIN2)).toHaveLength(1);

    // Disabled: later retries and new events send nothing.
    const before = receiver.received.length;
    t.clock.advance(DAY);
    await sweepDeliveries(t.deps, 0);
    await t.deps.queue.drain();
    expect(receiver.received).toHaveLength(before);
    expect((await sendTest(id)).statusCode).toBe(409);
  });

  it("a success in between starts the 5 days again", async () => {
    const start = t.clock.now().getTime();
    const id = await create("/sometimes");
    await deliverOnce(id);
    t.clock.set(start + 2 * DAY);
    receiver.respond(() => ({ status: 200 }));
    await deliverOnce(id);
    expect((await endpoint(id)).failing_since).toBeNull();
    receiver.respond((_n, req) => ({ status: req.path.startsWith("/ok") ? 200 : 500 }));
    for (const day of [3, 4, 5, 6, 7]) {
      t.clock.set(start + day * DAY);
      await deliverOnce(id);
    }
    expect((await endpoint(id)).disabled_at).toBeNull();
    t.clock.set(start + 8 * DAY);
    await deliverOnce(id);
    expect((await endpoint(id)).disabled_reason).toBe("failing");
  });

  it("one failure, days of silence, then one more failure: a new streak, not 5 days of failing", async () => {
    const start = t.clock.now().getTime();
    const id = await create("/blip");
    await deliverOnce(id);
    t.clock.set(start + 6 * DAY);
    await deliverOnce(id);
    const after = await endpoint(id);
    expect(after.disabled_at).toBeNull();
    expect(new Date(after.failing_since!).getTime()).toBe(start + 6 * DAY);
    expect(noticesTo(ADMIN).filter((c) => String(c.args.text).includes("/blip"))).toEqual([]);
  });

  it("finished deliveries are kept 30 days, and each endpoint keeps its newest 100 finished ones; pending ones stay", async () => {
    const id = await create("/ok/kept");
    const now = t.clock.now().getTime();
    const at = (msAgo: number) => new Date(now - msAgo).toISOString();
    await t.deps.db.execute(sql`
      insert into webhook_deliveries (team_id, endpoint_id, message_id, type, status, attempts, created_at)
      select ${TEAM}, ${id}, 'msg_f' || n, 'standup.submitted', 'delivered', 1, ${at(DAY)}::timestamptz + n * interval '1 second'
      from generate_series(1, 120) as n`);
    await t.deps.db.execute(sql`
      insert into webhook_deliveries (team_id, endpoint_id, message_id, type, status, attempts, created_at, next_attempt_at, payload)
      values (${TEAM}, ${id}, 'msg_pending_old', 'standup.submitted', 'pending', 3, ${at(2 * DAY)}, ${at(-DAY)}, '{}'),
             (${TEAM}, ${id}, 'msg_pending_ancient', 'standup.submitted', 'pending', 9, ${at(40 * DAY)}, ${at(-DAY)}, '{}'),
             (${TEAM}, ${id}, 'msg_too_old', 'standup.submitted', 'failed', 10, ${at(31 * DAY)}, null, null)`);
    const removed = await pruneWebhookDeliveries(t.deps);
    expect(removed).toBe(21);
    const left = await rows<{ message_id: string }>(
      t.deps.db,
      sql`select message_id from webhook_deliveries where endpoint_id = ${id} order by created_at desc, id desc`,
    );
    expect(left).toHaveLength(102);
    expect(left[0]!.message_id).toBe("msg_f120");
    expect(left.some((d) => d.message_id === "msg_pending_old")).toBe(true);
    // A retry is still scheduled: never pruned, however old.
    expect(left.some((d) => d.message_id === "msg_pending_ancient")).toBe(true);
    expect(left.some((d) => d.message_id === "msg_too_old")).toBe(false);
    expect(left.some((d) => d.message_id === "msg_f20")).toBe(false);
    expect(left.some((d) => d.message_id === "msg_f21")).toBe(true);
  });

  it("a workspace that uninstalled the app sends nothing more: its pending deliveries end", async () => {
    const id = await create("/ok/uninstalled");
    const res = await sendTest(id);
    const deliveryId = (res.json() as { id: number }).id;
    const before = receiver.received.length;
    await t.deps.db.update(installations).set({ uninstalledAt: t.clock.now() }).where(sql`team_id = ${TEAM}`);
    await t.deps.queue.drain();
    expect(receiver.received).toHaveLength(before);
    const [d] = await rows<{ status: string; last_error: string }>(
      t.deps.db,
      sql`select status, last_error from webhook_deliveries where id = ${deliveryId}`,
    );
    expect(d).toEqual({ status: "failed", last_error: "the app was uninstalled from the workspace" });
  });
});
