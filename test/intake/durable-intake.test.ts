import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { eventEnvelope } from "../../dev/slack-signing.ts";
import { findInstallation } from "../../src/chat/installations.repo.ts";
import { INTAKE_BACKOFF_BASE_MS, INTAKE_LEASE_MS, INTAKE_MAX_ATTEMPTS } from "../../src/chat/intake/intake.ts";
import { rows } from "../../src/db/client.ts";
import { tick } from "../../src/features/standups/index.ts";
import { useTestApp } from "../support/app.ts";
import { createSchedule } from "../support/factories.ts";
import { failWrites } from "../support/faults.ts";
import { submitStandup } from "../support/standup-answers.ts";

const TEAM = "T0INTAKE";
const CHANNEL = "C0INTAKE";
const PEOPLE = ["U0ANA", "U0BEN", "U0CAT", "U0DAN"];

describe("durable intake: stored before the ack, processed until done", async () => {
  const t = await useTestApp();
  t.clock.set("2026-03-02T08:59:30Z"); // a Monday
  await t.installTeam(TEAM);
  for (const id of PEOPLE) {
    t.fake.addUser(TEAM, { id, name: id.toLowerCase(), real_name: id });
    await t.addMember(TEAM, id);
  }
  t.fake.addChannel(TEAM, { id: CHANNEL, name: "intake", members: [...PEOPLE, "BT0INTAKEBOT"] });
  await createSchedule(t.deps.db, t.clock, {
    teamId: TEAM,
    channelId: CHANNEL,
    time: "09:00",
    questions: ["What did you do yesterday?", "What will you do today?"],
  });
  t.clock.set("2026-03-02T09:00:10Z");
  const [runId] = (await tick(t.deps)).started;
  await t.deps.queue.drain();

  let seq = 0;
  const dm = (user: string, text: string) => ({
    type: "message",
    channel_type: "im",
    channel: t.fake.dmFor(TEAM, user),
    user,
    text,
    ts: `1772442010.${String(++seq).padStart(6, "0")}`,
  });
  const responsesOf = (user: string) =>
    rows<{ answers: string[] }>(
      t.deps.db,
      sql`select answers from responses where run_id = ${runId} and user_id = ${user}`,
    );
  const draftOf = async (user: string) =>
    (
      await rows<{ draft: [string, string][] | null }>(
        t.deps.db,
        sql`select draft from run_participants where run_id = ${runId} and user_id = ${user}`,
      )
    )[0]?.draft?.map(([, text]) => text) ?? null;
  const delivery = async (key: string) =>
    (
      await rows<{ state: string; attempts: number; last_error: string | null; payload: string | null }>(
        t.deps.db,
        sql`select state, attempts, last_error, payload from chat_events where event_id = ${key}`,
      )
    )[0];
  /** Past the backoff after failed attempt `n` (or past the lease, for an attempt that never reported). */
  const afterBackoff = (n: number) => t.clock.advance(INTAKE_BACKOFF_BASE_MS * 4 ** (n - 1) + 1_000);

  it("a DM answer whose processing fails after the ack is stored by the sweep, exactly once; Slack's retry is not processed again", async () => {
    expect((await t.sendEvent(TEAM, dm("U0ANA", "Reviewed PRs"), { eventId: "EvANA1" })).statusCode).toBe(200);
    await t.app.settle();
    // The second answer completes the draft; saving the response fails once, after the 200.
    const fault = await failWrites(t.deps.db, "responses");
    try {
      const last = dm("U0ANA", "Ship the release");
      expect((await t.sendEvent(TEAM, last, { eventId: "EvANA2" })).statusCode).toBe(200);
      await t.app.settle();
      expect(await responsesOf("U0ANA")).toEqual([]);
      expect(await delivery("EvANA2")).toMatchObject({
        state: "pending",
        attempts: 1,
        last_error: expect.stringContaining("injected fault writing responses"),
      });
      // The failed statement's parameters (the answer text) are not kept with the error.
      expect((await delivery("EvANA2"))?.last_error).not.toContain("Ship the release");
      // Slack retrying the delivery meanwhile is acknowledged without a second processing.
      expect((await t.sendEvent(TEAM, last, { eventId: "EvANA2", retryNum: 1 })).statusCode).toBe(200);
      await t.app.settle();
      expect((await delivery("EvANA2"))?.attempts).toBe(1);
      // Before its backoff ends the sweep leaves it alone.
      expect(await t.app.intake.sweep()).toBe(0);
      afterBackoff(1);
      expect(await t.app.intake.sweep()).toBe(1);
    } finally {
      await fault.remove();
    }
    expect(await responsesOf("U0ANA")).toEqual([{ answers: ["Reviewed PRs", "Ship the release"] }]);
    // Done: the body (answer text) is no longer kept.
    expect(await delivery("EvANA2")).toMatchObject({ state: "done", attempts: 2, payload: null });
    afterBackoff(4);
    expect(await t.app.intake.sweep()).toBe(0);
    expect(await responsesOf("U0ANA")).toHaveLength(1);
  });

  it("the same DM message processed twice (its done mark lost) answers one question, not two", async () => {
    const first = dm("U0BEN", "Planning");
    await t.sendEvent(TEAM, first, { eventId: "EvBEN1" });
    await t.app.settle();
    expect(await draftOf("U0BEN")).toEqual(["Planning"]);
    // As if the instance died between the listener's success and the done mark: the delivery is taken again.
    const body = JSON.stringify(eventEnvelope(TEAM, first, { eventId: "EvBEN1" }));
    await t.deps.db.execute(
      sql`update chat_events set state = 'pending', payload = ${body}, retry_at = ${t.clock.now().toISOString()}
          where event_id = 'EvBEN1'`,
    );
    expect(await t.app.intake.sweep()).toBe(1);
    expect(await draftOf("U0BEN")).toEqual(["Planning"]);
    await t.sendEvent(TEAM, dm("U0BEN", "Retro"), { eventId: "EvBEN2" });
    await t.app.settle();
    expect(await responsesOf("U0BEN")).toEqual([{ answers: ["Planning", "Retro"] }]);
  });

  it("a modal answer whose first save fails closes the modal and is stored by the sweep", async () => {
    const fault = await failWrites(t.deps.db, "responses");
    try {
      const res = await submitStandup(t, TEAM, "U0CAT", runId!, ["Docs", "Tests"]);
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe("");
      await t.app.settle();
      expect(await responsesOf("U0CAT")).toEqual([]);
      const [pending] = await rows<{ kind: string; type: string; state: string }>(
        t.deps.db,
        sql`select kind, type, state from chat_events where team_id = ${TEAM} and kind = 'interaction'`,
      );
      expect(pending).toEqual({ kind: "interaction", type: "view_submission", state: "pending" });
      afterBackoff(1);
      expect(await t.app.intake.sweep()).toBe(1);
    } finally {
      await fault.remove();
    }
    expect(await responsesOf("U0CAT")).toEqual([{ answers: ["Docs", "Tests"] }]);
  });

  it("a delivery recorded by an instance that stopped before processing it is processed by a sweep after its lease", async () => {
    const body = eventEnvelope(TEAM, dm("U0DAN", "Triage"), { eventId: "EvDAN1" });
    // What receive() stores before the 200, without the processing that follows it.
    expect(await t.app.intake.record({ kind: "event", body, raw: JSON.stringify(body) })).toBe(true);
    expect(await draftOf("U0DAN")).toBeNull();
    t.clock.advance(INTAKE_LEASE_MS - 5_000);
    expect(await t.app.intake.sweep()).toBe(0);
    t.clock.advance(10_000);
    expect(await t.app.intake.sweep()).toBe(1);
    expect(await draftOf("U0DAN")).toEqual(["Triage"]);
    expect((await delivery("EvDAN1"))?.state).toBe("done");
  });

  it("app_uninstalled whose first processing fails still uninstalls", async () => {
    await t.installTeam("T0UNINST");
    const fault = await failWrites(t.deps.db, "installations");
    try {
      expect((await t.sendEvent("T0UNINST", { type: "app_uninstalled" }, { eventId: "EvUNINST" })).statusCode).toBe(
        200,
      );
      await t.app.settle();
      expect((await findInstallation(t.deps.db, "T0UNINST"))?.uninstalledAt).toBeNull();
      afterBackoff(1);
      expect(await t.app.intake.sweep()).toBe(1);
    } finally {
      await fault.remove();
    }
    expect((await findInstallation(t.deps.db, "T0UNINST"))?.uninstalledAt).toBeInstanceOf(Date);
    expect((await delivery("EvUNINST"))?.state).toBe("done");
  });

  it("a button whose modal could not open (after its ack) is kept as failed at once, not run again with a dead trigger", async () => {
    t.fake.fail("views.open", { error: "expired_trigger_id" });
    const res = await t.sendInteraction({
      type: "block_actions",
      team: { id: TEAM, domain: "intake" },
      user: { id: "U0DAN", team_id: TEAM },
      api_app_id: "A0UPBEAT",
      token: "legacy",
      trigger_id: "trigger.dan.button",
      channel: { id: t.fake.dmFor(TEAM, "U0DAN") },
      actions: [{ type: "button", action_id: "standup_answer", block_id: "b", value: String(runId), action_ts: "1" }],
    });
    expect(res.statusCode).toBe(200);
    await t.app.settle();
    const [row] = await rows<{ state: string; attempts: number; last_error: string }>(
      t.deps.db,
      sql`select state, attempts, last_error from chat_events where event_id like 'trigger.dan.button/%'`,
    );
    expect(row).toEqual({ state: "failed", attempts: 1, last_error: expect.stringContaining("expired_trigger_id") });
    afterBackoff(4);
    expect(await t.app.intake.sweep()).toBe(0);
    const metrics = (await t.inject({ method: "GET", url: "/metrics" })).body;
    expect(metrics).toMatch(/upbeat_chat_event_failures_total\{kind="interaction",outcome="not_rerun"\} 1\n/);
  });

  it(`a delivery that fails all ${INTAKE_MAX_ATTEMPTS} attempts is kept as failed, counted in /metrics and listed for admins only`, async () => {
    await t.installTeam("T0BROKEN");
    await t.addMember("T0BROKEN", "U0PLAIN");
    const fault = await failWrites(t.deps.db, "installations", INTAKE_MAX_ATTEMPTS);
    try {
      await t.sendEvent("T0BROKEN", { type: "tokens_revoked", tokens: { bot: ["B0X"] } }, { eventId: "EvBROKEN" });
      await t.app.settle();
      for (let n = 1; n < INTAKE_MAX_ATTEMPTS; n++) {
        afterBackoff(n);
        expect(await t.app.intake.sweep()).toBe(1);
      }
    } finally {
      await fault.remove();
    }
    const failedAt = t.clock.now().toISOString();
    expect(await delivery("EvBROKEN")).toMatchObject({
      state: "failed",
      attempts: INTAKE_MAX_ATTEMPTS,
      last_error: expect.stringContaining("injected fault writing installations"),
      // Nothing runs it again: its body (answer text, user ids) is not kept.
      payload: null,
    });
    afterBackoff(INTAKE_MAX_ATTEMPTS);
    expect(await t.app.intake.sweep()).toBe(0);

    const metrics = (await t.inject({ method: "GET", url: "/metrics" })).body;
    // Earlier tests of this file retried too; this is the only delivery that ran out of attempts.
    expect(metrics).toMatch(/upbeat_chat_event_failures_total\{kind="event",outcome="retry"\} ([4-9]|\d\d)\n/);
    expect(metrics).toMatch(/upbeat_chat_event_failures_total\{kind="event",outcome="exhausted"\} 1\n/);

    const admin = await t.signIn("T0BROKEN", "U0BROKENADMIN");
    const list = await t.inject({
      method: "GET",
      url: "/dashboard/api/chat/failed-events",
      headers: { cookie: admin },
    });
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual([
      {
        kind: "event",
        type: "tokens_revoked",
        received_at: expect.any(String),
        attempts: INTAKE_MAX_ATTEMPTS,
        last_error: expect.stringContaining("injected fault writing installations"),
        failed_at: failedAt,
      },
    ]);
    // Another workspace's admin sees only its own (the button above); a member is refused.
    const other = await t.signIn(TEAM, "U0INTAKEADMIN");
    const theirs = await t.inject({
      method: "GET",
      url: "/dashboard/api/chat/failed-events",
      headers: { cookie: other },
    });
    expect((theirs.json() as { type: string }[]).map((e) => e.type)).toEqual(["block_actions"]);
    const member = await t.signIn("T0BROKEN", "U0PLAIN");
    const refused = await t.inject({
      method: "GET",
      url: "/dashboard/api/chat/failed-events",
      headers: { cookie: member },
    });
    expect(refused.statusCode).toBe(403);
  });

  it("a slash command that fails before its ack is told nothing was done, and is never run again", async () => {
    const kudos = () =>
      rows<{ n: number }>(t.deps.db, sql`select count(*)::int as n from kudos where team_id = ${TEAM}`);
    const fault = await failWrites(t.deps.db, "kudos", 1);
    const res = await t.sendCommand(TEAM, "U0DAN", "kudos <@U0BEN> thanks for the review");
    await fault.remove();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      response_type: "ephemeral",
      text: expect.stringContaining("nothing was changed"),
    });
    await t.app.settle();
    const [failed] = await rows<{ state: string }>(
      t.deps.db,
      sql`select state from chat_events where kind = 'command' and team_id = ${TEAM}`,
    );
    expect(failed?.state).toBe("failed");
    // The member types it again (a new trigger id): given once; the first one is not run again by any sweep.
    expect((await t.sendCommand(TEAM, "U0DAN", "kudos <@U0BEN> thanks for the review")).statusCode).toBe(200);
    await t.app.settle();
    t.clock.advance(INTAKE_LEASE_MS + INTAKE_BACKOFF_BASE_MS * 4 ** INTAKE_MAX_ATTEMPTS);
    expect(await t.app.intake.sweep()).toBe(0);
    expect((await kudos())[0]?.n).toBe(1);
  });
});
