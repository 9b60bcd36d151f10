import { createHmac } from "node:crypto";
import { sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import { startReceiver } from "../../../test/support/webhook-receiver.ts";
import { rows } from "../../db/client.ts";
import { ManualClock } from "../../lib/clock.ts";
import { RETRY_DELAYS_MS } from "./retry-schedule.ts";
import { USER_AGENT } from "./sender.ts";
import { sweepDeliveries } from "./webhooks.jobs.ts";

const TEAM = "T0HOOK";
const ADMIN = "U0HOOKADMIN";

interface DeliveryDb {
  id: number;
  status: string;
  attempts: number;
  message_id: string;
  next_attempt_at: Date | null;
  last_status_code: number | null;
  last_error: string | null;
  payload: string | null;
}

/**
 * Real deliveries to a real HTTP server on 127.0.0.1 (WEBHOOK_ALLOW_PRIVATE=true lets the address through; plain
 * http:// is a test-only allowance of deps.outbound). The clock starts at the real time so the reference verifier's
 * 5-minute tolerance holds for the first attempts.
 */
describe("webhook deliveries", async () => {
  const receiver = await startReceiver();
  afterAll(() => receiver.close());
  const resolved: string[] = [];
  const t = await useTestApp({
    clock: new ManualClock(Math.floor(Date.now() / 1000) * 1000),
    env: { WEBHOOK_ALLOW_PRIVATE: "true" },
    outbound: {
      allowPlainHttp: true,
      // A name only this resolver knows: the system's DNS would not find it, so a delivery that arrives went to
      // the address checked here.
      async resolve(hostname) {
        resolved.push(hostname);
        if (hostname === "hooks.upbeat.test") return [{ address: "127.0.0.1", family: 4 }];
        throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
      },
    },
  });
  await t.installTeam(TEAM, { installer: ADMIN });
  t.fake.addUser(TEAM, { id: ADMIN, name: "admin", real_name: "Ada Admin" });
  const admin = await t.signIn(TEAM, ADMIN);

  const create = async (url: string, events?: string[]) => {
    const res = await t.inject({
      method: "POST",
      url: "/dashboard/api/webhooks",
      headers: { cookie: admin, "content-type": "application/json" },
      payload: JSON.stringify({ url, ...(events ? { events } : {}) }),
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: number; secret: string; url: string };
  };
  const sendTest = async (endpointId: number) => {
    const res = await t.inject({
      method: "POST",
      url: `/dashboard/api/webhooks/${endpointId}/test`,
      headers: { cookie: admin, "content-type": "application/json" },
      payload: "{}",
    });
    expect(res.statusCode, res.body).toBe(202);
    return res.json() as { id: number; status: string; message_id: string };
  };
  const delivery = async (id: number) =>
    (await rows<DeliveryDb>(t.deps.db, sql`select * from webhook_deliveries where id = ${id}`))[0]!;
  const endpointRow = async (id: number) =>
    (
      await rows<{ disabled_at: Date | null; disabled_reason: string | null }>(
        t.deps.db,
        sql`select disabled_at, disabled_reason from webhook_endpoints where id = ${id}`,
      )
    )[0]!;
  const at = (path: string) => receiver.received.filter((r) => r.path === path);
  const ms = (value: Date | string | null) => (value === null ? null : new Date(value).getTime());
  /** Runs what is due by the injected clock: the sweeper without grace, then the queue. */
  const runDue = async () => {
    await sweepDeliveries(t.deps, 0);
    await t.deps.queue.drain();
  };

  it("a delivery carries the Standard Webhooks headers and a body the reference verifier accepts", async () => {
    receiver.respond(() => ({ status: 200, body: "ok" }));
    const endpoint = await create(`${receiver.origin}/hooks/upbeat?token=abc`);
    const queued = await sendTest(endpoint.id);
    expect(queued).toMatchObject({ status: "pending", attempts: 0 });
    await t.deps.queue.drain();
    expect(receiver.received).toHaveLength(1);
    const got = receiver.received[0]!;
    expect(got.method).toBe("POST");
    expect(got.path).toBe("/hooks/upbeat?token=abc");
    expect(got.headers["content-type"]).toBe("application/json");
    expect(got.headers["user-agent"]).toBe(USER_AGENT);
    expect(got.headers["user-agent"]).toMatch(/^Upbeat-Webhooks\/\d+\.\d+\.\d+$/);
    expect(got.headers["webhook-id"]).toBe(queued.message_id);
    expect(got.headers["webhook-id"]).toMatch(/^msg_[0-9A-Za-z]{27}$/);
    expect(got.headers["webhook-timestamp"]).toBe(String(Math.floor(t.clock.now().getTime() / 1000)));
    expect(got.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);

    const verified = new Webhook(endpoint.secret).verify(got.body, {
      "webhook-id": String(got.headers["webhook-id"]),
      "webhook-timestamp": String(got.headers["webhook-timestamp"]),
      "webhook-signature": String(got.headers["webhook-signature"]),
    }) as Record<string, unknown>;
    expect(Object.keys(verified)).toEqual(["id", "type", "created_at", "team_id", "data"]);
    expect(verified).toMatchObject({
      id: queued.message_id,
      type: "webhook.test",
      created_at: t.clock.now().toISOString(),
      team_id: TEAM,
      data: { endpoint_id: endpoint.id, sent_by: { id: ADMIN } },
    });
    // The scheme by hand: base64 HMAC-SHA256 of "id.timestamp.body" keyed with the decoded secret.
    const key = Buffer.from(endpoint.secret.slice("whsec_".length), "base64");
    const mac = createHmac("sha256", key)
      .update(`${got.headers["webhook-id"]}.${got.headers["webhook-timestamp"]}.${got.body}`)
      .digest("base64");
    expect(got.headers["webhook-signature"]).toBe(`v1,${mac}`);
    // A changed body, or another endpoint's secret, does not verify.
    const headers = {
      "webhook-id": String(got.headers["webhook-id"]),
      "webhook-timestamp": String(got.headers["webhook-timestamp"]),
      "webhook-signature": String(got.headers["webhook-signature"]),
    };
    expect(() =>
      new Webhook(endpoint.secret).verify(got.body.replace("webhook.test", "webhook.tost"), headers),
    ).toThrow();
    const other = await create(`${receiver.origin}/other`);
    expect(() => new Webhook(other.secret).verify(got.body, headers)).toThrow();

    const row = await delivery(queued.id);
    expect(row).toMatchObject({ status: "delivered", attempts: 1, last_status_code: 200, last_error: null });
    expect(row.next_attempt_at).toBeNull();
    // A finished delivery keeps no body: the log needs only its outcome.
    expect(row.payload).toBeNull();
  });

  it("a delivery waiting behind a queue backlog gets one rescue job from the sweeper, however many sweeps pass", async () => {
    receiver.respond(() => ({ status: 204 }));
    const endpoint = await create(`${receiver.origin}/backlog`);
    const queued = await sendTest(endpoint.id);
    // Its job waits in the queue (nobody drains it) while the sweeper runs every 30 s for five minutes.
    for (let i = 0; i < 10; i++) {
      t.clock.advance(61_000);
      await sweepDeliveries(t.deps);
    }
    const [jobs] = await rows<{ n: number }>(
      t.deps.db,
      sql`select count(*)::int as n from pgboss.job
          where name = 'webhook.deliver' and state = 'created' and (data->>'deliveryId')::bigint = ${queued.id}`,
    );
    expect(jobs!.n).toBe(2);
    await t.deps.queue.drain();
    expect(at("/backlog")).toHaveLength(1);
    expect(await delivery(queued.id)).toMatchObject({ status: "delivered", attempts: 1 });
  });

  it("connects to the address it checked (no second lookup); Host stays the name", async () => {
    receiver.received.length = 0;
    resolved.length = 0;
    receiver.respond(() => ({ status: 204 }));
    const endpoint = await create(`http://hooks.upbeat.test:${receiver.port}/in`);
    expect(resolved).toEqual(["hooks.upbeat.test"]);
    await sendTest(endpoint.id);
    await t.deps.queue.drain();
    expect(resolved).toEqual(["hooks.upbeat.test", "hooks.upbeat.test"]);
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]!.headers.host).toBe(`hooks.upbeat.test:${receiver.port}`);
  });

  it("retries on the schedule: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h, each to the millisecond; then failed", async () => {
    receiver.respond(() => ({ status: 503, body: "down" }));
    const endpoint = await create(`${receiver.origin}/flaky`);
    const queued = await sendTest(endpoint.id);
    await t.deps.queue.drain();
    const flaky = () => at("/flaky");
    expect(flaky()).toHaveLength(1);
    let failedAt = t.clock.now().getTime();
    expect(await delivery(queued.id)).toMatchObject({ status: "pending", attempts: 1, last_status_code: 503 });

    // The retry job goes to the queue with the same due time (what runs it on time in production).
    const [job] = await rows<{ start_after: Date }>(
      t.deps.db,
      sql`select start_after from pgboss.job where name = 'webhook.deliver' and (data->>'deliveryId')::bigint = ${queued.id}
          order by created_on desc limit 1`,
    );
    expect(new Date(job!.start_after).getTime()).toBe(failedAt + RETRY_DELAYS_MS[0]!);

    for (const [i, delay] of RETRY_DELAYS_MS.entries()) {
      const due = failedAt + delay;
      expect(ms((await delivery(queued.id)).next_attempt_at), `attempt ${i + 2} due`).toBe(due);
      t.clock.set(due - 1);
      await runDue();
      expect(flaky(), `attempt ${i + 2} not before its time`).toHaveLength(i + 1);
      t.clock.set(due);
      await runDue();
      expect(flaky(), `attempt ${i + 2} at its time`).toHaveLength(i + 2);
      const got = flaky()[i + 1]!;
      expect(got.headers["webhook-timestamp"]).toBe(String(Math.floor(due / 1000)));
      // The same message on every attempt: same id, same body.
      expect(got.headers["webhook-id"]).toBe(queued.message_id);
      expect(got.body).toBe(flaky()[0]!.body);
      failedAt = due;
    }
    const final = await delivery(queued.id);
    expect(final).toMatchObject({ status: "failed", attempts: 10, last_status_code: 503, last_error: "answered 503" });
    expect(final.next_attempt_at).toBeNull();
    t.clock.advance(48 * 3600_000);
    await runDue();
    expect(flaky()).toHaveLength(10);
    // About three days of failures does not disable an endpoint (5 days does).
    expect((await endpointRow(endpoint.id)).disabled_at).toBeNull();
  });

  it("a redirect is not followed: the 3xx is a failed attempt, the Location is never requested", async () => {
    receiver.received.length = 0;
    receiver.respond((_n, req) =>
      req.path === "/moved" ? { status: 302, headers: { location: "/elsewhere" } } : { status: 200 },
    );
    const endpoint = await create(`${receiver.origin}/moved`);
    const queued = await sendTest(endpoint.id);
    await t.deps.queue.drain();
    expect(receiver.received.map((r) => r.path)).toEqual(["/moved"]);
    expect(await delivery(queued.id)).toMatchObject({
      status: "pending",
      attempts: 1,
      last_status_code: 302,
      last_error: "redirect (302) not followed: point the endpoint at the final URL",
    });
  });

  it("410 Gone disables the endpoint: its pending deliveries end, nothing more is sent, admins hear once", async () => {
    receiver.respond(() => ({ status: 500 }));
    const endpoint = await create(`${receiver.origin}/going`);
    const first = await sendTest(endpoint.id);
    await t.deps.queue.drain();
    expect(await delivery(first.id)).toMatchObject({ status: "pending", last_status_code: 500 });
    receiver.respond((_n, req) => (req.path === "/going" ? { status: 410 } : { status: 500 }));
    const second = await sendTest(endpoint.id);
    await t.deps.queue.drain();
    expect(await delivery(second.id)).toMatchObject({
      status: "failed",
      attempts: 1,
      last_status_code: 410,
      last_error: "410 Gone: the endpoint asked for no more deliveries",
    });
    expect(await delivery(first.id)).toMatchObject({ status: "failed", last_error: "answered 500; endpoint disabled" });
    expect(await endpointRow(endpoint.id)).toMatchObject({ disabled_reason: "gone" });
    const list = await t.inject({ method: "GET", url: "/dashboard/api/webhooks", headers: { cookie: admin } });
    expect((list.json() as { id: number }[]).find((e) => e.id === endpoint.id)).toMatchObject({
      active: false,
      disabled_reason: "The endpoint answered 410 Gone",
    });
    // The first delivery's retry comes due: nothing is sent.
    t.clock.advance(10_000);
    await runDue();
    expect(at("/going")).toHaveLength(2);
    // A test to a disabled endpoint is refused.
    const refused = await t.inject({
      method: "POST",
      url: `/dashboard/api/webhooks/${endpoint.id}/test`,
      headers: { cookie: admin, "content-type": "application/json" },
      payload: "{}",
    });
    expect(refused.statusCode).toBe(409);
    const dms = t.fake
      .callsTo("chat.postMessage")
      .filter((c) => c.ok && c.args.channel === t.fake.dmFor(TEAM, ADMIN) && String(c.args.text).includes("410 Gone"));
    expect(dms).toHaveLength(1);
    expect(String(dms[0]!.args.text)).toContain(`${receiver.origin}/going`);
  });

  it("an answer body is read up to 64 KB and dropped: a huge 2xx answer is delivered", async () => {
    receiver.received.length = 0;
    receiver.respond(() => ({ status: 200, body: Buffer.alloc(5 * 1024 * 1024, 97) }));
    const endpoint = await create(`${receiver.origin}/chatty`);
    const queued = await sendTest(endpoint.id);
    await t.deps.queue.drain();
    expect(await delivery(queued.id)).toMatchObject({ status: "delivered", last_status_code: 200 });
  });

  it("no answer (connection refused) is a failed attempt with the reason, retried", async () => {
    const gone = await startReceiver();
    const port = gone.port;
    await gone.close();
    const endpoint = await create(`http://127.0.0.1:${port}/nobody`);
    const queued = await sendTest(endpoint.id);
    await t.deps.queue.drain();
    expect(await delivery(queued.id)).toMatchObject({
      status: "pending",
      attempts: 1,
      last_status_code: null,
      last_error: "connection refused",
    });
  });

  it("a receiver slower than 10 s: the attempt times out at 10 s and says so", async () => {
    receiver.received.length = 0;
    receiver.respond(() => ({ status: 200, delayMs: 25_000 }));
    const endpoint = await create(`${receiver.origin}/slow`);
    const queued = await sendTest(endpoint.id);
    const started = Date.now();
    await t.deps.queue.drain();
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(9_900);
    // Well before the receiver would answer (25 s), with room for a busy machine.
    expect(took).toBeLessThan(18_000);
    expect(receiver.received).toHaveLength(1);
    expect(await delivery(queued.id)).toMatchObject({
      status: "pending",
      attempts: 1,
      last_status_code: null,
      last_error: "timed out after 10 s",
    });
  }, 30_000);
});
