import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import { rows } from "../../db/client.ts";
import { decryptSecret } from "../../lib/crypto.ts";

const TEAM = "T0WHR";
const OTHER = "T0WHROTHER";
const ADMIN = "U0WHRADMIN";
const MEMBER = "U0WHRMEMBER";
const ALL = [
  "standup.submitted",
  "standup.updated",
  "blocker.reported",
  "standup.completed",
  "kudos.given",
  "blocker.resolved",
];

interface EndpointJson {
  id: number;
  url: string;
  created_at: string;
  events: string[];
  active: boolean;
  disabled_reason: string | null;
  disabled_at: string | null;
}

function expectError(res: { statusCode: number; json(): unknown }, status: number): string {
  expect(res.statusCode).toBe(status);
  const body = res.json() as Record<string, unknown>;
  expect(Object.keys(body)).toEqual(["error"]);
  return String(body.error);
}

describe("webhook endpoints API", async () => {
  const t = await useTestApp({
    outbound: { resolve: async () => [{ address: "93.184.216.34", family: 4 }] },
  });
  await t.installTeam(TEAM, { installer: ADMIN });
  await t.addMember(TEAM, MEMBER);
  await t.installTeam(OTHER, { installer: "U0WHROTHERADMIN" });
  const admin = await t.signIn(TEAM, ADMIN);
  const member = await t.signIn(TEAM, MEMBER);
  const otherAdmin = await t.signIn(OTHER, "U0WHROTHERADMIN");

  const send = (method: "GET" | "POST" | "DELETE", url: string, cookie?: string, payload?: string) =>
    t.inject({
      method,
      url,
      headers: {
        ...(cookie ? { cookie } : {}),
        ...(payload === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(payload === undefined ? {} : { payload }),
    });
  const create = (cookie: string, body: unknown) =>
    send("POST", "/dashboard/api/webhooks", cookie, JSON.stringify(body));
  const list = async (cookie: string): Promise<EndpointJson[]> => {
    const res = await send("GET", "/dashboard/api/webhooks", cookie);
    expect(res.statusCode).toBe(200);
    return res.json() as EndpointJson[];
  };

  let firstId = 0;

  it("creates an endpoint: 201 with a whsec_ secret (32 random bytes) once, every event by default", async () => {
    const res = await create(admin, { url: "https://hooks.example.com/upbeat" });
    expect(res.statusCode).toBe(201);
    expect(res.headers["cache-control"]).toBe("no-store");
    const body = res.json() as Record<string, unknown> & { id: number; secret: string };
    expect(Object.keys(body).sort()).toEqual(["active", "created_at", "events", "id", "secret", "url"]);
    expect(body).toMatchObject({
      url: "https://hooks.example.com/upbeat",
      created_at: t.clock.now().toISOString(),
      events: ALL,
      active: true,
    });
    expect(Number.isInteger(body.id)).toBe(true);
    expect(body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(body.secret.slice(6), "base64")).toHaveLength(32);
    firstId = body.id;
    // Stored encrypted (signing needs it back), never in the clear.
    const [stored] = await rows<Record<string, unknown>>(
      t.deps.db,
      sql`select * from webhook_endpoints where id = ${body.id}`,
    );
    expect(JSON.stringify(stored)).not.toContain(body.secret.slice(6, 30));
    expect(decryptSecret(t.deps.keys.tokenEncryption, String(stored!.secret_enc))).toBe(body.secret);
    expect(stored).toMatchObject({ team_id: TEAM, created_by: ADMIN });
    // Another endpoint gets another secret.
    const again = (await create(admin, { url: "https://hooks.example.com/two" })).json() as { secret: string };
    expect(again.secret).not.toBe(body.secret);
  });

  it("takes a subset of events, in any order, and answers them in the canonical order", async () => {
    const res = await create(admin, {
      url: "https://hooks.example.com/blockers",
      events: ["blocker.reported", "standup.submitted", "blocker.reported"],
    });
    expect(res.statusCode).toBe(201);
    expect((res.json() as EndpointJson).events).toEqual(["standup.submitted", "blocker.reported"]);
  });

  it("lists endpoints newest first, with events and status, never a secret", async () => {
    const endpoints = await list(admin);
    expect(endpoints.map((e) => e.url)).toEqual([
      "https://hooks.example.com/blockers",
      "https://hooks.example.com/two",
      "https://hooks.example.com/upbeat",
    ]);
    for (const e of endpoints) {
      expect(Object.keys(e).sort()).toEqual([
        "active",
        "created_at",
        "disabled_at",
        "disabled_reason",
        "events",
        "id",
        "url",
      ]);
      expect(e).toMatchObject({ active: true, disabled_reason: null, disabled_at: null });
    }
    expect(JSON.stringify(endpoints)).not.toContain("whsec_");
    expect(await list(otherAdmin)).toEqual([]);
  });

  it("refuses bad input with 400 naming the field, and unknown events naming the allowed ones", async () => {
    const allowed = ALL.join(", ");
    expect(expectError(await create(admin, {}), 400)).toBe("url is required");
    expect(expectError(await create(admin, { url: 42 }), 400)).toBe("url must be a string");
    expect(expectError(await create(admin, { url: null }), 400)).toBe("url must be a string");
    expect(expectError(await create(admin, ["https://hooks.example.com"]), 400)).toBe(
      "Request body must be a JSON object",
    );
    expect(expectError(await create(admin, "https://hooks.example.com"), 400)).toBe(
      "Request body must be a JSON object",
    );
    expect(
      expectError(await create(admin, { url: "https://hooks.example.com/x", events: ["standup.deleted"] }), 400),
    ).toBe(`events[0] ("standup.deleted") must be one of: ${allowed}`);
    expect(
      expectError(await create(admin, { url: "https://hooks.example.com/x", events: ["kudos.given", 7] }), 400),
    ).toBe(`events[1] (number) must be one of: ${allowed}`);
    expect(expectError(await create(admin, { url: "https://hooks.example.com/x", events: [] }), 400)).toBe(
      `events must list at least one of: ${allowed}`,
    );
    expect(
      expectError(await create(admin, { url: "https://hooks.example.com/x", events: "standup.submitted" }), 400),
    ).toBe(`events must be an array of event types from: ${allowed}`);
    expect(expectError(await send("POST", "/dashboard/api/webhooks", admin, '{"url": "https://'), 400)).toBe(
      "Malformed JSON body",
    );
    const plain = await t.inject({
      method: "POST",
      url: "/dashboard/api/webhooks",
      headers: { cookie: admin, "content-type": "text/plain" },
      payload: "https://hooks.example.com",
    });
    expectError(plain, 415);
    // Nothing was stored by any of these.
    expect(await list(admin)).toHaveLength(3);
  });

  it("401 without a session and 403 for members, on every webhook route", async () => {
    const routes: [method: "GET" | "POST" | "DELETE", url: string][] = [
      ["GET", "/dashboard/api/webhooks"],
      ["POST", "/dashboard/api/webhooks"],
      ["DELETE", `/dashboard/api/webhooks/${firstId}`],
      ["POST", `/dashboard/api/webhooks/${firstId}/test`],
      ["GET", `/dashboard/api/webhooks/${firstId}/deliveries`],
    ];
    for (const [method, url] of routes) {
      const payload = method === "POST" ? JSON.stringify({ url: "https://hooks.example.com/m" }) : undefined;
      expect(expectError(await send(method, url, undefined, payload), 401), `${method} ${url}`).toBe("Unauthorized");
      expect(expectError(await send(method, url, member, payload), 403), `${method} ${url}`).toBe("Admin required");
    }
    expect(await list(admin)).toHaveLength(3);
  });

  it("another workspace's ids, and ids that cannot exist, answer 404", async () => {
    for (const id of [String(firstId), "999999", "0", "-1", "abc", "1.5", "99999999999"]) {
      for (const [method, url] of [
        ["DELETE", `/dashboard/api/webhooks/${id}`],
        ["POST", `/dashboard/api/webhooks/${id}/test`],
        ["GET", `/dashboard/api/webhooks/${id}/deliveries`],
      ] as const) {
        const res = await send(method, url, otherAdmin, method === "POST" ? "{}" : undefined);
        expect(expectError(res, 404), `${method} ${url}`).toBe("Webhook endpoint not found");
      }
    }
    expect(await list(admin)).toHaveLength(3);
  });

  it("Send test answers 202 with the pending delivery; the log lists it", async () => {
    const res = await send("POST", `/dashboard/api/webhooks/${firstId}/test`, admin, "{}");
    expect(res.statusCode).toBe(202);
    const queued = res.json() as Record<string, unknown>;
    expect(Object.keys(queued).sort()).toEqual([
      "attempts",
      "created_at",
      "id",
      "last_attempt_at",
      "last_error",
      "last_status_code",
      "message_id",
      "next_attempt_at",
      "status",
      "type",
    ]);
    expect(queued).toMatchObject({
      type: "webhook.test",
      status: "pending",
      attempts: 0,
      last_status_code: null,
      last_error: null,
      created_at: t.clock.now().toISOString(),
    });
    const log = await send("GET", `/dashboard/api/webhooks/${firstId}/deliveries`, admin);
    expect(log.statusCode).toBe(200);
    expect(log.json()).toEqual([queued]);
    // A bodiless POST works too (the dashboard sends {}).
    expect((await send("POST", `/dashboard/api/webhooks/${firstId}/test`, admin)).statusCode).toBe(202);
  });

  it("the log shows the last 100 deliveries, newest first", async () => {
    const base = t.clock.now().getTime();
    await t.deps.db.execute(sql`
      insert into webhook_deliveries (team_id, endpoint_id, message_id, type, status, attempts, created_at)
      select ${TEAM}, ${firstId}, 'msg_seed' || n, 'standup.submitted', 'delivered', 1,
             ${new Date(base - 3600_000).toISOString()}::timestamptz + n * interval '1 second'
      from generate_series(1, 130) as n`);
    const log = (await send("GET", `/dashboard/api/webhooks/${firstId}/deliveries`, admin).then((r) => r.json())) as {
      message_id: string;
      created_at: string;
    }[];
    expect(log).toHaveLength(100);
    const times = log.map((d) => d.created_at);
    expect([...times].sort().reverse()).toEqual(times);
    expect(log.slice(2, 4).map((d) => d.message_id)).toEqual(["msg_seed130", "msg_seed129"]);
  });

  it("deletes an endpoint with its deliveries: {ok: true}, then 404", async () => {
    const res = await send("DELETE", `/dashboard/api/webhooks/${firstId}`, admin);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    expect((await list(admin)).map((e) => e.id)).not.toContain(firstId);
    const [left] = await rows<{ n: number }>(
      t.deps.db,
      sql`select count(*)::int as n from webhook_deliveries where endpoint_id = ${firstId}`,
    );
    expect(left!.n).toBe(0);
    // The queued test deliveries find nothing and do nothing.
    await t.deps.queue.drain();
    expectError(await send("DELETE", `/dashboard/api/webhooks/${firstId}`, admin), 404);
  });

  it("a workspace has at most 20 endpoints, however many creations arrive at once", async () => {
    const have = (await list(admin)).length;
    for (let i = have; i < 17; i++) await create(admin, { url: `https://hooks.example.com/n${i}` });
    expect(await list(admin)).toHaveLength(17);
    const burst = await Promise.all(
      Array.from({ length: 6 }, (_, i) => create(admin, { url: `https://hooks.example.com/burst${i}` })),
    );
    expect(burst.filter((r) => r.statusCode === 201)).toHaveLength(3);
    for (const r of burst.filter((x) => x.statusCode !== 201)) {
      expect(expectError(r, 409)).toBe("A workspace can have at most 20 webhook endpoints: delete one first");
    }
    expect(await list(admin)).toHaveLength(20);
    // The other workspace has its own 20.
    expect((await create(otherAdmin, { url: "https://hooks.example.com/other" })).statusCode).toBe(201);
  });
});
