import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import { createSchedule } from "../../../test/support/factories.ts";
import { startReceiver } from "../../../test/support/webhook-receiver.ts";
import { rows } from "../../db/client.ts";
import { schedules } from "../../db/schema.ts";
import type { DomainEvent } from "../../jobs/events.ts";
import { tick } from "../standups/index.ts";

const TEAM = "T0WHEV";
const OTHER = "T0WHEVOTHER";
const ADMIN = "U0WHEVADMIN";
const CHANNEL = "C0WHEV";
const QUESTIONS = ["What did you do yesterday?", "What will you do today?", "Anything blocking you?"];

interface Body {
  id: string;
  type: string;
  created_at: string;
  team_id: string;
  data: Record<string, unknown>;
}

/** Deliveries made by the product's own flows: a real run, real modal submissions, the real close. */
describe("webhook deliveries from the domain events", async () => {
  const receiver = await startReceiver();
  afterAll(() => receiver.close());
  const t = await useTestApp({ env: { WEBHOOK_ALLOW_PRIVATE: "true" }, outbound: { allowPlainHttp: true } });
  t.clock.set("2026-03-02T08:59:30Z"); // a Monday
  await t.installTeam(TEAM, { installer: ADMIN });
  await t.installTeam(OTHER, { installer: "U0WHEVOTHERADMIN" });
  for (const [id, name] of [
    ["U0ANA", "Ana Lima"],
    ["U0BEN", "Ben Ito"],
    ["U0CAT", "Cat Roy"],
  ] as const) {
    t.fake.addUser(TEAM, { id, name: name.toLowerCase(), real_name: name });
    await t.addMember(TEAM, id, { realName: name });
  }
  t.fake.addChannel(TEAM, { id: CHANNEL, name: "standup", members: ["U0ANA", "U0BEN", "U0CAT"] });
  const scheduleId = await createSchedule(t.deps.db, t.clock, {
    teamId: TEAM,
    channelId: CHANNEL,
    time: "09:00",
    questions: QUESTIONS,
  });
  await t.deps.db.execute(sql`update ${schedules} set name = 'Platform sync' where id = ${scheduleId}`);
  const admin = await t.signIn(TEAM, ADMIN);
  const otherAdmin = await t.signIn(OTHER, "U0WHEVOTHERADMIN");

  const addEndpoint = async (cookie: string, path: string, events?: string[]) => {
    const res = await t.inject({
      method: "POST",
      url: "/dashboard/api/webhooks",
      headers: { cookie, "content-type": "application/json" },
      payload: JSON.stringify({ url: `${receiver.origin}${path}`, ...(events ? { events } : {}) }),
    });
    expect(res.statusCode, res.body).toBe(201);
    return (res.json() as { id: number }).id;
  };
  await addEndpoint(admin, "/all");
  await addEndpoint(admin, "/blockers", ["blocker.reported"]);
  const disabled = await addEndpoint(admin, "/disabled");
  await t.deps.db.execute(
    sql`update webhook_endpoints set disabled_at = now(), disabled_reason = 'gone' where id = ${disabled}`,
  );
  await addEndpoint(otherAdmin, "/other-team");

  const bodies = (path: string) =>
    receiver.received.filter((r) => r.path === path).map((r) => JSON.parse(r.body) as Body);
  /** Deliveries of one event are sent concurrently, and webhooks promise no order: compared as sorted lists. */
  const typesAt = (path: string) =>
    bodies(path)
      .map((b) => `${b.type}:${(b.data.user as { id?: string })?.id ?? ""}`)
      .sort();

  t.clock.set("2026-03-02T09:00:10Z");
  const [runId] = (await tick(t.deps)).started;
  await t.deps.queue.drain();

  const submit = (user: string, answers: string[], mood: string | null) =>
    t.sendInteraction({
      type: "view_submission",
      team: { id: TEAM, domain: "whev" },
      user: { id: user, team_id: TEAM },
      api_app_id: "A0UPBEAT",
      token: "legacy",
      trigger_id: `trigger.${user}`,
      view: {
        id: "V0MODAL",
        type: "modal",
        team_id: TEAM,
        callback_id: "standup_modal",
        private_metadata: JSON.stringify({ runId }),
        state: {
          values: {
            ...Object.fromEntries(answers.map((a, i) => [`q${i}`, { answer: { type: "plain_text_input", value: a } }])),
            mood: {
              mood: {
                type: "static_select",
                selected_option: mood ? { value: mood, text: { type: "plain_text", text: mood } } : null,
              },
            },
          },
        },
      },
    });

  it("answering a standup delivers standup.submitted with the answers, their questions, the member and the mood", async () => {
    expect((await submit("U0ANA", ["Shipped the login page", "Billing", "none"], "🙂")).statusCode).toBe(200);
    await t.deps.queue.drain();
    expect(typesAt("/all")).toEqual(["standup.submitted:U0ANA"]);
    expect(bodies("/blockers")).toEqual([]);
    const [body] = bodies("/all");
    expect(body).toMatchObject({ type: "standup.submitted", team_id: TEAM, created_at: t.clock.now().toISOString() });
    expect(body!.id).toMatch(/^msg_/);
    expect(body!.data).toEqual({
      response_id: expect.any(Number),
      run_id: runId,
      standup: { id: scheduleId, name: "Platform sync", channel_id: CHANNEL },
      standup_date: "2026-03-02",
      user: { id: "U0ANA", name: "Ana Lima" },
      answers: [
        { question: QUESTIONS[0], answer: "Shipped the login page" },
        { question: QUESTIONS[1], answer: "Billing" },
        { question: QUESTIONS[2], answer: "none" },
      ],
      mood: "🙂",
      mood_score: 4,
      has_blocker: false,
      blockers: null,
      submitted_at: t.clock.now().toISOString(),
      edited_at: null,
    });
  });

  it("an edit that adds a blocker delivers standup.updated and blocker.reported; the blockers endpoint gets only that", async () => {
    t.clock.advance(60_000);
    expect((await submit("U0ANA", ["Shipped the login page", "Billing", "Waiting on API keys"], "😕")).statusCode).toBe(
      200,
    );
    await t.deps.queue.drain();
    expect(typesAt("/all")).toEqual(["blocker.reported:U0ANA", "standup.submitted:U0ANA", "standup.updated:U0ANA"]);
    expect(typesAt("/blockers")).toEqual(["blocker.reported:U0ANA"]);
    const reported = bodies("/blockers")[0]!;
    expect(reported.data).toMatchObject({
      has_blocker: true,
      blockers: "Waiting on API keys",
      mood: "😕",
      mood_score: 2,
      edited_at: t.clock.now().toISOString(),
    });
    // Two messages, two ids; each endpoint's copy of one message has the same id.
    const all = bodies("/all");
    expect(new Set(all.map((b) => b.id)).size).toBe(3);
    expect(all.find((b) => b.type === "blocker.reported")!.id).toBe(reported.id);
  });

  it("a first answer with a blocker delivers standup.submitted and blocker.reported", async () => {
    await submit("U0BEN", ["Reviews", "More reviews", "No access to prod"], null);
    await t.deps.queue.drain();
    expect(typesAt("/all").filter((x) => x.endsWith("U0BEN"))).toEqual([
      "blocker.reported:U0BEN",
      "standup.submitted:U0BEN",
    ]);
    const ben = bodies("/all").find(
      (b) => b.type === "standup.submitted" && (b.data.user as { id: string }).id === "U0BEN",
    );
    expect(ben!.data).toMatchObject({ user: { id: "U0BEN", name: "Ben Ito" }, mood: null, mood_score: null });
  });

  it("the run closing delivers standup.completed with who was asked, who answered and the blockers", async () => {
    t.clock.set("2026-03-03T00:00:30Z");
    await tick(t.deps);
    await t.deps.queue.drain();
    const completed = bodies("/all").filter((b) => b.type === "standup.completed");
    expect(completed).toHaveLength(1);
    expect(completed[0]!.data).toEqual({
      run_id: runId,
      standup: { id: scheduleId, name: "Platform sync", channel_id: CHANNEL },
      standup_date: "2026-03-02",
      asked: 3,
      answered: 2,
      participation_pct: 67,
      mood_average: 2,
      blockers: [
        { user_id: "U0ANA", user_name: "Ana Lima", text: "Waiting on API keys" },
        { user_id: "U0BEN", user_name: "Ben Ito", text: "No access to prod" },
      ],
    });
  });

  it("a kudos message in the channel delivers kudos.given with both people named; Slack's retry adds none", async () => {
    const event = {
      type: "message",
      channel: CHANNEL,
      channel_type: "channel",
      user: "U0ANA",
      text: "kudos <@U0CAT> for the <great> demo & docs",
      ts: "1772441000.000100",
      team: TEAM,
    };
    // Acknowledged before it is handled: the test waits for the listener before it runs the jobs it queued.
    expect((await t.sendEvent(TEAM, event, { eventId: "Ev0WHEVKUDO" })).statusCode).toBe(200);
    await t.app.settle();
    await t.deps.queue.drain();
    expect((await t.sendEvent(TEAM, event, { eventId: "Ev0WHEVKUDO2" })).statusCode).toBe(200);
    await t.app.settle();
    await t.deps.queue.drain();
    const given = bodies("/all").filter((b) => b.type === "kudos.given");
    expect(given).toHaveLength(1);
    const [kudo] = await rows<{ id: number; created_at: string }>(
      t.deps.db,
      sql`select id, created_at from kudos where team_id = ${TEAM}`,
    );
    expect(given[0]!.data).toEqual({
      kudo_id: Number(kudo!.id),
      from: { id: "U0ANA", name: "Ana Lima" },
      to: { id: "U0CAT", name: "Cat Roy" },
      message: "kudos <@U0CAT> for the <great> demo & docs",
      channel_id: CHANNEL,
      created_at: new Date(kudo!.created_at).toISOString(),
    });
    expect(bodies("/other-team").filter((b) => b.type === "kudos.given")).toEqual([]);
  });

  it("a rolled-back change leaves no delivery; types no endpoint can take make none", async () => {
    const before = await rows<{ n: number }>(t.deps.db, sql`select count(*)::int as n from webhook_deliveries`);
    await expect(
      t.deps.db.transaction(async (tx) => {
        await t.deps.events.emit(tx, {
          type: "standup.completed",
          teamId: TEAM,
          at: t.clock.now(),
          data: { runId: runId!, scheduleId, standupDate: "2026-03-02" },
        });
        throw new Error("the change failed");
      }),
    ).rejects.toThrow("the change failed");
    await t.deps.db.transaction((tx) =>
      t.deps.events.emit(tx, {
        type: "rule.fired",
        teamId: TEAM,
        at: t.clock.now(),
        data: {},
      } as unknown as DomainEvent),
    );
    const after = await rows<{ n: number }>(t.deps.db, sql`select count(*)::int as n from webhook_deliveries`);
    expect(after[0]!.n).toBe(before[0]!.n);
  });

  it("a disabled endpoint and another workspace's endpoint got nothing; every delivery was delivered", async () => {
    expect(bodies("/disabled")).toEqual([]);
    expect(bodies("/other-team")).toEqual([]);
    const statuses = await rows<{ status: string; n: number }>(
      t.deps.db,
      sql`select status, count(*)::int as n from webhook_deliveries group by status`,
    );
    expect(statuses).toEqual([{ status: "delivered", n: receiver.received.length }]);
  });
});
