import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import type { FakeMessage } from "../../../dev/fake-slack/index.ts";
import { useTestApp } from "../../../test/support/app.ts";
import { createSchedule } from "../../../test/support/factories.ts";
import { standupSubmission, submitStandup } from "../../../test/support/standup-answers.ts";
import { startReceiver } from "../../../test/support/webhook-receiver.ts";
import { rows } from "../../db/client.ts";
import { blockerAgeDays } from "./blocker-items.ts";
import { tick } from "./scheduler.ts";

const TEAM = "T0BLIFE";
const ADMIN = "U0BLADMIN";
const BOT = "BT0BLIFEBOT";
const STANDUP = "C0BLSTAND";
const ALERTS = "C0BLALERT";
const ANA = "U0BLANA";
const BEN = "U0BLBEN";
const CAT = "U0BLCAT";

interface ItemDb {
  id: number;
  user_id: string;
  text: string;
  status: string;
  opened_date: string;
  last_date: string;
  resolved_by: string | null;
  resolved_via: string | null;
}

/** Blockers with a life on Slack: carried day to day, resolved from the DM or the modal, summarised and escalated. */
describe("a blocker's life in Slack, day by day", async () => {
  const receiver = await startReceiver();
  afterAll(() => receiver.close());
  const t = await useTestApp({ env: { WEBHOOK_ALLOW_PRIVATE: "true" }, outbound: { allowPlainHttp: true } });
  t.clock.set("2026-03-01T12:00:00Z"); // Sunday: the schedule exists before Monday's run
  await t.installTeam(TEAM, { installer: ADMIN });
  t.fake.addUser(TEAM, { id: ADMIN, name: "boss", real_name: "Boss" });
  for (const [id, name] of [
    [ANA, "Ana"],
    [BEN, "Ben"],
    [CAT, "Cat"],
  ] as const) {
    t.fake.addUser(TEAM, { id, name: name.toLowerCase(), real_name: name });
    await t.addMember(TEAM, id, { realName: name });
  }
  t.fake.addChannel(TEAM, { id: STANDUP, name: "standup", members: [ANA, BEN, CAT, BOT] });
  t.fake.addChannel(TEAM, { id: ALERTS, name: "alerts", members: [ADMIN, BOT] });
  t.fake.addChannel(TEAM, { id: "C0BLOTHER", name: "other", members: [BOT] });
  const scheduleId = await createSchedule(t.deps.db, t.clock, { teamId: TEAM, channelId: STANDUP, time: "09:00" });
  const otherSchedule = await createSchedule(t.deps.db, t.clock, {
    teamId: TEAM,
    channelId: "C0BLOTHER",
    time: "09:00",
  });
  const admin = await t.signIn(TEAM, ADMIN);
  const postRule = (body: Record<string, unknown>) =>
    t.inject({
      method: "POST",
      url: "/dashboard/api/rules",
      headers: { cookie: admin, "content-type": "application/json" },
      payload: JSON.stringify({
        trigger: "blocker_open_days",
        action: "post_to_channel",
        action_target: ALERTS,
        ...body,
      }),
    });
  const escalate = await postRule({ trigger_threshold: 2, schedule_id: scheduleId });
  expect(escalate.statusCode, escalate.body).toBe(201);
  const ruleId = (escalate.json() as { id: number }).id;
  // Limited to another standup: never fires for this one's blockers.
  expect((await postRule({ trigger_threshold: 1, schedule_id: otherSchedule })).statusCode).toBe(201);
  const hook = await t.inject({
    method: "POST",
    url: "/dashboard/api/webhooks",
    headers: { cookie: admin, "content-type": "application/json" },
    payload: JSON.stringify({ url: `${receiver.origin}/hook`, events: ["blocker.resolved"] }),
  });
  expect(hook.statusCode, hook.body).toBe(201);

  const dm = (u: string) => t.fake.dmFor(TEAM, u);
  const items = (userId?: string) =>
    rows<ItemDb>(
      t.deps.db,
      sql`select id::int as id, user_id, text, status, opened_date::text as opened_date, last_date::text as last_date,
            resolved_by, resolved_via from blockers
          where team_id = ${TEAM} ${userId ? sql`and user_id = ${userId}` : sql``} order by id`,
    );
  const openItem = async (u: string) => (await items(u)).find((i) => i.status === "open")!;
  /** The ask DM of the member's latest run, as it stands in Slack (after any update). */
  const askOf = (u: string): FakeMessage =>
    t.fake
      .messages(dm(u))
      .filter((m) => m.text.startsWith("Time for standup"))
      .at(-1)!;
  const firings = () =>
    rows<{ rule_id: number; blocker_id: number; outcome: string | null }>(
      t.deps.db,
      sql`select rule_id, blocker_id::int as blocker_id, outcome from rule_firings
          where team_id = ${TEAM} and blocker_id is not null order by id`,
    );
  /** The latest close summary in the standup's thread (one a day). */
  const lastSummary = () =>
    JSON.stringify(
      t.fake
        .messages(STANDUP)
        .filter((m) => m.text.startsWith("Standup closed"))
        .at(-1)?.blocks ?? [],
    );
  let runId = 0;
  const startDay = async (date: string) => {
    t.clock.set(`${date}T09:00:10Z`);
    expect((await tick(t.deps)).started).toHaveLength(2); // this standup's run and the other one's
    const [run] = await rows<{ id: number }>(
      t.deps.db,
      sql`select id::int as id from standup_runs where schedule_id = ${scheduleId} and local_date = ${date}::date`,
    );
    runId = run!.id;
    await t.deps.queue.drain();
  };
  const closeDay = async (next: string) => {
    t.clock.set(`${next}T00:00:30Z`);
    // Two instances' scheduler passes at the close: the run closes (and its rules are claimed) once.
    const passes = await Promise.all([tick(t.deps), tick(t.deps)]);
    expect(passes.reduce((n, p) => n + p.closed, 0)).toBe(2); // both standups' runs, each closed once
    await t.deps.queue.drain();
  };
  const click = (user: string, owner: string, action: "blocker_resolved" | "blocker_still_blocked", id: number) => {
    const ask = askOf(owner);
    return t.sendInteraction({
      type: "block_actions",
      team: { id: TEAM, domain: "blife" },
      user: { id: user, team_id: TEAM },
      api_app_id: "A0UPBEAT",
      token: "legacy",
      trigger_id: `trigger.${user}`,
      channel: { id: dm(owner) },
      container: { type: "message", channel_id: dm(owner), message_ts: ask.ts },
      message: { ts: ask.ts, text: ask.text, blocks: ask.blocks },
      actions: [{ type: "button", action_id: action, block_id: "blocker_actions", value: String(id), action_ts: "1" }],
    });
  };
  const updates = () => t.fake.callsTo("chat.update").filter((c) => c.ok);

  it("refuses a blocker_open_days rule without whole days from 1 to 90", async () => {
    for (const threshold of [null, 0, 2.5, 91]) {
      const res = await postRule({ trigger_threshold: threshold });
      expect(res.statusCode, String(threshold)).toBe(400);
      expect((res.json() as { error: string }).error).toContain("blocker_open_days");
    }
  });

  it("day 1: each blocker answer opens one item; the summary lists them as new", async () => {
    await startDay("2026-03-02");
    expect(JSON.stringify(askOf(ANA).blocks)).not.toContain("Still blocked");
    await submitStandup(t, TEAM, ANA, runId, ["Specs", "Build", "Waiting on API keys"]);
    await submitStandup(t, TEAM, BEN, runId, ["Docs", "Deploy", "Need access to prod"]);
    await submitStandup(t, TEAM, CAT, runId, ["Tests", "More tests", "Flaky CI"]);
    await closeDay("2026-03-03");
    expect((await items()).map((i) => [i.user_id, i.status, i.opened_date])).toEqual([
      [ANA, "open", "2026-03-02"],
      [BEN, "open", "2026-03-02"],
      [CAT, "open", "2026-03-02"],
    ]);
    expect(lastSummary()).toContain("• *Ana*: Waiting on API keys (new)");
    expect(await firings()).toEqual([]);
  });

  it("day 2: the ask DM starts with 'Still blocked on …?' and the blocker's buttons", async () => {
    await startDay("2026-03-03");
    const ana = await openItem(ANA);
    const blocks = askOf(ANA).blocks as { block_id?: string; text?: { text: string }; elements?: unknown[] }[];
    expect(blocks[0]?.text?.text).toBe(":construction: Still blocked on “Waiting on API keys” (reported 1 day ago)?");
    expect(blocks[1]?.elements).toEqual([
      expect.objectContaining({ action_id: "blocker_resolved", value: String(ana.id) }),
      expect.objectContaining({ action_id: "blocker_still_blocked", value: String(ana.id) }),
    ]);
    expect(JSON.stringify(blocks)).toContain("standup_answer");
    // Reported again: the same item, its text following the answer, its age counting from the first report.
    await submitStandup(t, TEAM, ANA, runId, ["Build", "Build", "Waiting on API keys"]);
    expect((await items(ANA)).map((i) => [i.id, i.status, i.opened_date, i.last_date])).toEqual([
      [ana.id, "open", "2026-03-02", "2026-03-03"],
    ]);
  });

  it("day 2: 'Still blocked' keeps the item open, counts as reported today and says so in place", async () => {
    const ben = await openItem(BEN);
    const before = updates().length;
    await click(BEN, BEN, "blocker_still_blocked", ben.id);
    await t.fake.waitFor(() => updates().length > before);
    const update = updates().at(-1)!;
    expect(update.args.channel).toBe(dm(BEN));
    expect(update.args.ts).toBe(askOf(BEN).ts);
    const body = JSON.stringify(askOf(BEN).blocks);
    expect(body).toContain("Noted: still blocked on “Need access to prod”");
    expect(body).not.toContain("blocker_resolved");
    expect(body).toContain("standup_answer");
    expect(await openItem(BEN)).toMatchObject({ id: ben.id, opened_date: "2026-03-02", last_date: "2026-03-03" });
  });

  it("day 2: the modal shows the open blocker with a Resolved checkbox; ticked, it resolves that item once", async () => {
    const cat = await openItem(CAT);
    await t.sendInteraction({
      type: "block_actions",
      team: { id: TEAM },
      user: { id: CAT, team_id: TEAM },
      trigger_id: "trigger.cat",
      channel: { id: dm(CAT) },
      actions: [{ type: "button", action_id: "standup_answer", value: String(runId), action_ts: "2" }],
    });
    await t.fake.waitFor((calls) => calls.some((c) => c.method === "views.open"));
    const view = t.fake.callsTo("views.open").at(-1)!.args.view as {
      blocks: { block_id?: string; elements?: { text: string }[]; element?: { options?: { value: string }[] } }[];
    };
    expect(JSON.stringify(view.blocks[1])).toContain("Open blocker: “Flaky CI” (reported 1 day ago)");
    const box = view.blocks.find((b) => b.block_id === "blocker_resolve");
    expect(box?.element?.options?.map((o) => o.value)).toEqual([String(cat.id)]);
    // Ticked, with a new blocker in the answer: the old item is resolved, the new blocker is a new item.
    const submission = standupSubmission(TEAM, CAT, runId, ["CI", "Design", "Waiting on design review"]);
    const values = (submission.view as { state: { values: Record<string, unknown> } }).state.values;
    values.blocker_resolve = {
      resolved: { type: "checkboxes", selected_options: [{ value: String(cat.id), text: { type: "plain_text" } }] },
    };
    expect((await t.sendInteraction(submission)).statusCode).toBe(200);
    // A second save with the box still ticked changes nothing more.
    expect((await t.sendInteraction(submission)).statusCode).toBe(200);
    const catItems = await items(CAT);
    expect(catItems.map((i) => [i.text, i.status, i.resolved_by, i.resolved_via, i.opened_date])).toEqual([
      ["Flaky CI", "resolved", CAT, "modal", "2026-03-02"],
      ["Waiting on design review", "open", null, null, "2026-03-03"],
    ]);
  });

  it("day 2's close: the summary lists every open item with its age and the one resolved today; no escalation", async () => {
    await closeDay("2026-03-04");
    const summary = lastSummary();
    expect(summary).toContain("*Blockers (3):*");
    expect(summary).toContain("• *Ana*: Waiting on API keys (1 day)");
    // Ben did not answer today: his open blocker is listed all the same.
    expect(summary).toContain("• *Ben*: Need access to prod (1 day)");
    expect(summary).toContain("• *Cat*: Waiting on design review (new)");
    expect(summary).toContain("*Resolved today (1):*\\n• *Cat*: Flaky CI");
    expect(await firings()).toEqual([]);
  });

  it("day 3: carried for 3 days, one item of age 2; another member's click is refused", async () => {
    await startDay("2026-03-04");
    expect(JSON.stringify(askOf(ANA).blocks)).toContain("(reported 2 days ago)");
    await submitStandup(t, TEAM, ANA, runId, ["Build", "Build", "Waiting on API keys"]);
    const [ana, ...more] = await items(ANA);
    expect(more).toEqual([]);
    expect(blockerAgeDays(ana!.opened_date, "2026-03-04")).toBe(2);
    const refusals = t.fake.callsTo("chat.postEphemeral").length;
    const before = updates().length;
    await click(BEN, ANA, "blocker_resolved", ana!.id);
    await t.fake.waitFor((calls) => calls.filter((c) => c.method === "chat.postEphemeral").length > refusals);
    const refusal = t.fake.callsTo("chat.postEphemeral").at(-1)!;
    expect(refusal.args).toMatchObject({ user: BEN, text: expect.stringContaining("Only the person who reported") });
    expect(updates()).toHaveLength(before);
    expect((await openItem(ANA)).id).toBe(ana!.id);
  });

  it("day 3: Ana resolves from the DM button: resolved via dm, the DM says so, blocker.resolved delivered once", async () => {
    const ana = await openItem(ANA);
    const resolvedDeliveries = () =>
      rows<{ n: number }>(
        t.deps.db,
        sql`select count(*)::int as n from webhook_deliveries where team_id = ${TEAM} and type = 'blocker.resolved'`,
      ).then((r) => Number(r[0]!.n));
    const deliveredBefore = await resolvedDeliveries();
    let before = updates().length;
    await click(ANA, ANA, "blocker_resolved", ana.id);
    await t.fake.waitFor(() => updates().length > before);
    expect((await items(ANA))[0]).toMatchObject({ status: "resolved", resolved_by: ANA, resolved_via: "dm" });
    let body = JSON.stringify(askOf(ANA).blocks);
    expect(body).toContain("Resolved: “Waiting on API keys”");
    expect(body).toContain("standup_answer");
    // A second click (a double click, a redelivery) records nothing more and says it is already resolved.
    before = updates().length;
    await click(ANA, ANA, "blocker_resolved", ana.id);
    await t.fake.waitFor(() => updates().length > before);
    body = JSON.stringify(askOf(ANA).blocks);
    expect(body).toContain("“Waiting on API keys” is already resolved.");
    await t.deps.queue.drain();
    expect(await resolvedDeliveries()).toBe(deliveredBefore + 1);
    const sent = receiver.received
      .map((r) => JSON.parse(r.body) as { type: string; data: { blocker_id: number } })
      .filter((b) => b.type === "blocker.resolved" && b.data.blocker_id === ana.id);
    expect(sent).toHaveLength(1);
  });

  it("day 3's close: Ben's blocker, open 2 days, escalates once (not on day 2, not with a replayed close)", async () => {
    await closeDay("2026-03-05");
    const ben = await openItem(BEN);
    expect(await firings()).toEqual([{ rule_id: ruleId, blocker_id: ben.id, outcome: "posted" }]);
    const alerts = t.fake.messages(ALERTS);
    expect(alerts.map((m) => m.text)).toEqual([
      "Blocker from Ben open for 2 days in #standup standup: Need access to prod",
    ]);
    expect(JSON.stringify(alerts[0]!.blocks)).toContain(">Need access to prod");
    // The same close seen again (another instance, a redelivered event): claimed under (rule, blocker), no second.
    const [run] = await rows<{ id: number }>(
      t.deps.db,
      sql`select id::int as id from standup_runs where schedule_id = ${scheduleId} and local_date = '2026-03-04'`,
    );
    await Promise.all(
      [1, 2].map(() =>
        t.deps.db.transaction((tx) =>
          t.deps.events.emit(tx, {
            type: "standup.completed",
            teamId: TEAM,
            data: { runId: run!.id, scheduleId, standupDate: "2026-03-04" },
            at: t.clock.now(),
          }),
        ),
      ),
    );
    await t.deps.queue.drain();
    expect(await firings()).toHaveLength(1);
    expect(t.fake.messages(ALERTS)).toHaveLength(1);
  });

  it("day 4's close: Ben's blocker does not fire again; Cat's, now 2 days old, fires once", async () => {
    await startDay("2026-03-05");
    await closeDay("2026-03-06");
    const ben = await openItem(BEN);
    const cat = await openItem(CAT);
    expect(await firings()).toEqual([
      { rule_id: ruleId, blocker_id: ben.id, outcome: "posted" },
      { rule_id: ruleId, blocker_id: cat.id, outcome: "posted" },
    ]);
    expect(t.fake.messages(ALERTS).map((m) => m.text)).toEqual([
      "Blocker from Ben open for 2 days in #standup standup: Need access to prod",
      "Blocker from Cat open for 2 days in #standup standup: Waiting on design review",
    ]);
    expect(t.fake.unexpected).toEqual([]);
  });
});
