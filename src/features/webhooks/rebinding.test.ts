import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import { startReceiver } from "../../../test/support/webhook-receiver.ts";
import { rows } from "../../db/client.ts";
import type { ResolvedAddress } from "../../lib/outbound.ts";

const TEAM = "T0REBIND";
const ADMIN = "U0REBINDADMIN";
const PUBLIC: ResolvedAddress = { address: "93.184.216.34", family: 4 };
const LOOPBACK: ResolvedAddress = { address: "127.0.0.1", family: 4 };

/**
 * DNS rebinding: a name that resolves to a public address when the endpoint is added, and to an address inside
 * when a delivery goes out. Private addresses are refused (WEBHOOK_ALLOW_PRIVATE is off); the receiver listening
 * on 127.0.0.1 stands for the internal service an attacker would reach.
 */
describe("webhooks and DNS rebinding", async () => {
  const receiver = await startReceiver();
  afterAll(() => receiver.close());
  let answer: ResolvedAddress[] = [PUBLIC];
  const lookups: string[] = [];
  const t = await useTestApp({
    outbound: {
      allowPlainHttp: true,
      async resolve(hostname) {
        lookups.push(hostname);
        return answer;
      },
    },
  });
  await t.installTeam(TEAM, { installer: ADMIN });
  const admin = await t.signIn(TEAM, ADMIN);
  const post = (url: string, payload: unknown) =>
    t.inject({
      method: "POST",
      url,
      headers: { cookie: admin, "content-type": "application/json" },
      payload: JSON.stringify(payload),
    });
  const delivery = async (id: number) =>
    (
      await rows<{ status: string; attempts: number; last_status_code: number | null; last_error: string | null }>(
        t.deps.db,
        sql`select status, attempts, last_status_code, last_error from webhook_deliveries where id = ${id}`,
      )
    )[0]!;

  let endpointId = 0;

  it("the name resolves to a public address when the endpoint is added: accepted", async () => {
    const res = await post("/dashboard/api/webhooks", { url: `http://rebind.example.com:${receiver.port}/in` });
    expect(res.statusCode, res.body).toBe(201);
    endpointId = (res.json() as { id: number }).id;
    expect(lookups).toEqual(["rebind.example.com"]);
  });

  it("at delivery it resolves inside: nothing is sent, the delivery records the refusal and retries later", async () => {
    answer = [LOOPBACK];
    const res = await post(`/dashboard/api/webhooks/${endpointId}/test`, {});
    expect(res.statusCode).toBe(202);
    const { id } = res.json() as { id: number };
    await t.deps.queue.drain();
    expect(receiver.received).toEqual([]);
    expect(lookups).toEqual(["rebind.example.com", "rebind.example.com"]);
    expect(await delivery(id)).toEqual({
      status: "pending",
      attempts: 1,
      last_status_code: null,
      last_error: "refused: rebind.example.com resolves to a non-public address: webhooks go only to public addresses",
    });
  });

  it("one inside address among public ones is enough to refuse", async () => {
    answer = [PUBLIC, { address: "10.0.0.7", family: 4 }];
    const res = await post(`/dashboard/api/webhooks/${endpointId}/test`, {});
    const { id } = res.json() as { id: number };
    await t.deps.queue.drain();
    expect(receiver.received).toEqual([]);
    expect((await delivery(id)).last_error).toBe(
      "refused: rebind.example.com resolves to a non-public address: webhooks go only to public addresses",
    );
  });

  it("an IPv6 answer that maps to an inside IPv4 address is refused too", async () => {
    answer = [{ address: "::ffff:127.0.0.1", family: 6 }];
    const res = await post(`/dashboard/api/webhooks/${endpointId}/test`, {});
    const { id } = res.json() as { id: number };
    await t.deps.queue.drain();
    expect(receiver.received).toEqual([]);
    expect((await delivery(id)).last_error).toBe(
      "refused: rebind.example.com resolves to a non-public address: webhooks go only to public addresses",
    );
  });

  it("a name that resolves inside when the endpoint is added is refused then", async () => {
    answer = [LOOPBACK];
    const res = await post("/dashboard/api/webhooks", { url: "https://sneaky.example.com/in" });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: "url host sneaky.example.com resolves to a non-public address: webhooks go only to public addresses",
      refusal: "resolves_non_public",
    });
  });
});
