import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import { emailClaims, useFakeEmail } from "../../../test/support/email.ts";
import { createSchedule, seedRun } from "../../../test/support/factories.ts";
import { rows } from "../../db/client.ts";
import { createLogger } from "../../deps.ts";
import { digestTick } from "./digest.scheduler.ts";
import { deliverEmail, EMAIL_SEND_WINDOW_MS } from "./email.jobs.ts";
import { queueWelcome } from "./welcome.service.ts";

describe("delivery through the provider", async () => {
  const { fake: mail, env } = await useFakeEmail();
  const lines: string[] = [];
  const log = createLogger({ logLevel: "debug" }, { write: (line: string) => void lines.push(line) });
  const t = await useTestApp({ env: { ...env, LOG_LEVEL: "DEBUG" }, log });

  /** A workspace whose installer has an address, with the welcome claimed and queued as the install does. */
  async function welcomeQueued(teamId: string): Promise<string> {
    await t.installTeam(teamId, { name: "Delivery Co" });
    const address = `${teamId.toLowerCase()}.secret.person@delivery.test`;
    await t.addMember(teamId, `U${teamId.slice(1)}ADMIN`, { role: "admin", realName: "Private Name", email: address });
    await t.deps.db.transaction((tx) =>
      queueWelcome(t.deps, tx, { teamId, userId: `U${teamId.slice(1)}ADMIN`, now: t.clock.now() }),
    );
    return address;
  }
  const requestsFor = (address: string) =>
    mail.requests.filter((r) => JSON.stringify((r.body as { to?: unknown }).to ?? "").includes(address));
  const jobStates = (teamId: string) =>
    rows<{ state: string; retry_count: number }>(
      t.deps.db,
      sql`select state, retry_count from pgboss.job where name = 'email.send' and data->>'teamId' = ${teamId}`,
    );

  it("a 429 is retried with the same Idempotency-Key, and one e-mail goes out", async () => {
    const address = await welcomeQueued("T0RATE");
    mail.fail({ status: 429, retryAfter: 1 });
    await t.deps.queue.drain();
    const tries = requestsFor(address);
    expect(tries.map((r) => r.status)).toEqual([429, 200]);
    expect(tries[0]!.idempotencyKey).toBe(tries[1]!.idempotencyKey);
    expect(mail.emailsTo(address)).toHaveLength(1);
    expect(await emailClaims(t.deps.db, "T0RATE")).toEqual([expect.objectContaining({ state: "sent", attempts: 2 })]);
    expect(await jobStates("T0RATE")).toEqual([{ state: "completed", retry_count: 1 }]);
  });

  it("5xx answers and a dropped connection are retried too", async () => {
    const address = await welcomeQueued("T0FLAKY");
    mail.fail({ status: 503 }, 2);
    mail.fail({ drop: true });
    await t.deps.queue.drain();
    // The dropped connection got no answer at all (status 0 in the record).
    expect(requestsFor(address).map((r) => [r.status, r.faulted])).toEqual([
      [503, true],
      [503, true],
      [0, true],
      [200, false],
    ]);
    expect(mail.emailsTo(address)).toHaveLength(1);
    expect(await emailClaims(t.deps.db, "T0FLAKY")).toEqual([expect.objectContaining({ state: "sent", attempts: 4 })]);
  });

  it("after the queue's last retry a still failing e-mail is dropped, not left queued", async () => {
    await t.installTeam("T0SPENT");
    await t.addMember("T0SPENT", "U0SPENTADMIN", { role: "admin", email: "spent.secret.person@delivery.test" });
    await t.deps.db.transaction((tx) =>
      queueWelcome(t.deps, tx, { teamId: "T0SPENT", userId: "U0SPENTADMIN", now: t.clock.now() }),
    );
    const last = t.deps.queue.settings.retryLimit;
    mail.fail({ status: 502 }, 2);
    await expect(deliverEmail(t.deps, "T0SPENT", "welcome", last - 1)).rejects.toThrow("e-mail provider answered 502");
    expect(await emailClaims(t.deps.db, "T0SPENT")).toEqual([
      expect.objectContaining({ state: "queued", attempts: 1 }),
    ]);
    await deliverEmail(t.deps, "T0SPENT", "welcome", last);
    expect(await emailClaims(t.deps.db, "T0SPENT")).toEqual([
      expect.objectContaining({ state: "dropped", attempts: 2 }),
    ]);
    expect(lines.some((l) => l.includes("e-mail not sent after every retry; dropped"))).toBe(true);
    await t.deps.queue.drain();
    expect(mail.emailsTo("spent.secret.person@delivery.test")).toEqual([]);
  });

  it("an e-mail still unsent 20 hours after its claim is dropped: the provider's Idempotency-Key would have expired", async () => {
    const address = await welcomeQueued("T0LATE");
    mail.fail({ status: 503 });
    await expect(deliverEmail(t.deps, "T0LATE", "welcome")).rejects.toThrow("e-mail provider answered 503");
    const late = EMAIL_SEND_WINDOW_MS + 60_000;
    t.clock.advance(late);
    try {
      await deliverEmail(t.deps, "T0LATE", "welcome", 1);
    } finally {
      t.clock.advance(-late);
    }
    expect(requestsFor(address).map((r) => r.status)).toEqual([503]);
    expect(await emailClaims(t.deps.db, "T0LATE")).toEqual([
      expect.objectContaining({ state: "dropped", attempts: 1 }),
    ]);
    expect(lines.some((l) => l.includes("e-mail not sent within 20 hours of its claim; dropped"))).toBe(true);
    await t.deps.queue.drain();
    expect(mail.emailsTo(address)).toEqual([]);
  });

  it("an attempt whose answer was lost, retried with a changed text: the provider's 409 means it was sent, not a retry", async () => {
    const address = await welcomeQueued("T0LOST");
    await t.deps.queue.drain();
    expect(mail.emailsTo(address)).toHaveLength(1);
    // As if that answer never arrived: the claim is still queued, and the greeting changed since.
    await t.deps.db.execute(sql`update email_sends set state = 'queued' where team_id = 'T0LOST'`);
    await t.deps.db.execute(sql`update members set real_name = 'Renamed Person' where team_id = 'T0LOST'`);
    await deliverEmail(t.deps, "T0LOST", "welcome", 1);
    expect(requestsFor(address).map((r) => r.status)).toEqual([200, 409]);
    expect(mail.emailsTo(address)).toHaveLength(1);
    expect(await emailClaims(t.deps.db, "T0LOST")).toEqual([expect.objectContaining({ state: "sent" })]);
    expect(lines.some((l) => l.includes("e-mail was sent by an earlier attempt"))).toBe(true);
  });

  it("a 400 is dropped at once, not retried", async () => {
    const address = await welcomeQueued("T0BAD");
    mail.fail({ status: 400 });
    await t.deps.queue.drain();
    await t.deps.queue.drain();
    expect(requestsFor(address).map((r) => r.status)).toEqual([400]);
    expect(mail.emailsTo(address)).toEqual([]);
    expect(await emailClaims(t.deps.db, "T0BAD")).toEqual([expect.objectContaining({ state: "dropped", attempts: 1 })]);
    expect(await jobStates("T0BAD")).toEqual([{ state: "completed", retry_count: 0 }]);
    expect(lines.some((l) => l.includes("e-mail refused by the provider") && l.includes('"status":400'))).toBe(true);
  });

  it("a worker that died after the provider took the digest sends the same body and key again: still one e-mail", async () => {
    await t.installTeam("T0AGAIN", { name: "Again Co" });
    const address = "again.secret.person@delivery.test";
    await t.addMember("T0AGAIN", "U0AGAINADA", { role: "admin", realName: "Private Name", email: address });
    const scheduleId = await createSchedule(t.deps.db, t.clock, {
      teamId: "T0AGAIN",
      channelId: "C0AGAIN",
      time: "09:00",
    });
    await seedRun(t.deps.db, {
      teamId: "T0AGAIN",
      scheduleId,
      date: "2026-03-04",
      asked: ["U0AGAINADA"],
      answers: { U0AGAINADA: { answers: ["secret work", "more secret work", "a secret blocker"], mood: "🙂" } },
    });
    t.clock.set("2026-03-09T09:00:00Z");
    await digestTick(t.deps);
    await t.deps.queue.drain();
    expect(mail.emailsTo(address)).toHaveLength(1);
    // As if the claim had never been marked sent: the provider recognises the request.
    await t.deps.db.execute(sql`update email_sends set state = 'queued' where team_id = 'T0AGAIN'`);
    t.clock.set("2026-03-09T09:20:00Z");
    await deliverEmail(t.deps, "T0AGAIN", "digest:2026-03-02:U0AGAINADA");
    const tries = requestsFor(address);
    expect(tries.map((r) => r.status)).toEqual([200, 200]);
    expect(tries[1]!.idempotencyKey).toBe(tries[0]!.idempotencyKey);
    expect(JSON.stringify(tries[1]!.body)).toBe(JSON.stringify(tries[0]!.body));
    expect(mail.emailsTo(address)).toHaveLength(1);
    expect(await emailClaims(t.deps.db, "T0AGAIN")).toEqual([expect.objectContaining({ state: "sent" })]);
  });

  it("logs no address, name, subject or content at DEBUG", async () => {
    const text = lines.join("\n");
    expect(text).toContain('"job":"email.send"');
    for (const secret of [
      "@delivery.test",
      "secret.person",
      "Private Name",
      "Welcome to Upbeat",
      "secret work",
      "secret blocker",
    ]) {
      expect(text, secret).not.toContain(secret);
    }
  });
});
