import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import { createSchedule } from "../../../test/support/factories.ts";
import { rows } from "../../db/client.ts";
import { runMaintenance } from "../maintenance/index.ts";
import { resolveBlocker, trackBlocker } from "./blocker-items.ts";
import { summaryBlockers } from "./blocker-summary.ts";
import { isActiveBlocker } from "./blockers.ts";

const TEAM = "T0BEDGE";
const ADMIN = "U0BEADMIN";
const ANA = "U0BEANA";
const BEN = "U0BEBEN";
const CAT = "U0BECAT";
const DAN = "U0BEDAN";

/** Blocker items under answers out of order, members who left, deleted standups and the firings' retention. */
describe("blocker items at the edges", async () => {
  const t = await useTestApp();
  t.clock.set("2026-03-01T12:00:00Z");
  await t.installTeam(TEAM, { installer: ADMIN });
  for (const [id, name] of [
    [ANA, "Ana"],
    [BEN, "Ben"],
    [CAT, "Cat"],
    [DAN, "Dan"],
  ] as const) {
    t.fake.addUser(TEAM, { id, name: name.toLowerCase(), real_name: name });
    await t.addMember(TEAM, id, { realName: name });
  }
  const scheduleId = await createSchedule(t.deps.db, t.clock, { teamId: TEAM, channelId: "C0BEA", time: "09:00" });
  const goneSchedule = await createSchedule(t.deps.db, t.clock, { teamId: TEAM, channelId: "C0BEB", time: "09:00" });
  // A workspace-wide escalation after 2 days (it outlives any one standup).
  await t.deps.db.execute(sql`insert into rules (team_id, trigger, trigger_threshold, action, action_target,
      active, created_by, created_at, updated_at)
    select ${TEAM}, 'blocker_open_days', 2, 'post_to_channel', 'C0BEALERT', true, ${ADMIN}, now(), now()`);

  let responseId = 1000;
  const track = (userId: string, date: string, text: string, schedule = scheduleId) =>
    t.deps.db.transaction((tx) =>
      trackBlocker(t.deps, tx, {
        teamId: TEAM,
        scheduleId: schedule,
        userId,
        responseId: ++responseId,
        standupDate: date,
        text,
        hasBlocker: isActiveBlocker(text),
        at: t.clock.now(),
      }),
    );
  const items = (userId: string) =>
    rows<{
      id: number;
      text: string;
      status: string;
      opened_date: string;
      last_date: string;
      last_response_id: number;
    }>(
      t.deps.db,
      sql`select id::int as id, text, status, opened_date::text as opened_date, last_date::text as last_date,
            last_response_id::int as last_response_id
          from blockers where team_id = ${TEAM} and user_id = ${userId} order by id`,
    );
  /** A standup's close as the rules see it (they claim blocker_open_days firings on it). */
  const close = (schedule: string, runId: number, date: string) =>
    t.deps.db.transaction((tx) =>
      t.deps.events.emit(tx, {
        type: "standup.completed",
        teamId: TEAM,
        data: { runId, scheduleId: schedule, standupDate: date },
        at: t.clock.now(),
      }),
    );
  const blockerFirings = () =>
    rows<{ blocker_id: number }>(
      t.deps.db,
      sql`select blocker_id::int as blocker_id from rule_firings where team_id = ${TEAM} and blocker_id is not null
          order by id`,
    );

  it("an empty blocker answer leaves the open item open; one saying 'none' resolves it", async () => {
    t.clock.set("2026-03-02T10:00:00Z");
    await track(ANA, "2026-03-02", "Waiting on keys");
    t.clock.set("2026-03-03T10:00:00Z");
    await track(ANA, "2026-03-03", "");
    await track(ANA, "2026-03-03", "   ");
    expect((await items(ANA)).map((i) => i.status)).toEqual(["open"]);
    await track(ANA, "2026-03-03", "none");
    expect((await items(ANA)).map((i) => i.status)).toEqual(["resolved"]);
  });

  it("an older day's blocker answer does not move the open item back", async () => {
    t.clock.set("2026-03-04T10:00:00Z");
    await track(BEN, "2026-03-04", "Need prod access");
    const [before] = await items(BEN);
    // Day 3's answer, given late (or edited) after day 4's: the item keeps day 4's text and report.
    await track(BEN, "2026-03-03", "Old problem");
    expect(await items(BEN)).toEqual([before]);
    // The same day or a later one does follow the answer.
    await track(BEN, "2026-03-05", "Need prod access (ticket 12)");
    expect(await items(BEN)).toEqual([
      expect.objectContaining({
        id: before!.id,
        text: "Need prod access (ticket 12)",
        opened_date: "2026-03-04",
        last_date: "2026-03-05",
        last_response_id: responseId,
      }),
    ]);
  });

  it("opens no item for a day its member already settled (resolved by answer or by hand)", async () => {
    t.clock.set("2026-03-02T10:00:00Z");
    await track(CAT, "2026-03-02", "Flaky CI");
    t.clock.set("2026-03-03T10:00:00Z");
    await track(CAT, "2026-03-03", "nothing");
    t.clock.set("2026-03-03T11:00:00Z");
    // Day 2's answer edited afterwards, still reporting the blocker: it was resolved by day 3's answer.
    expect(await track(CAT, "2026-03-02", "Flaky CI again")).toBeUndefined();
    expect((await items(CAT)).map((i) => i.status)).toEqual(["resolved"]);
    // Day 3 itself is after the item's last report: a new blocker that day is a new item.
    const opened = await track(CAT, "2026-03-03", "Design review");
    expect((await items(CAT)).map((i) => [i.text, i.status])).toEqual([
      ["Flaky CI", "resolved"],
      ["Design review", "open"],
    ]);
    // Resolved by hand on day 6: a late answer for day 5 reopens nothing; day 6's new blocker is a new item.
    t.clock.set("2026-03-06T08:00:00Z");
    const done = await resolveBlocker(t.deps, {
      teamId: TEAM,
      blockerId: opened!,
      by: CAT,
      asAdmin: false,
      via: "dm",
    });
    expect(done.ok).toBe(true);
    t.clock.set("2026-03-06T10:00:00Z");
    expect(await track(CAT, "2026-03-05", "Design review")).toBeUndefined();
    expect((await items(CAT)).filter((i) => i.status === "open")).toEqual([]);
    await track(CAT, "2026-03-06", "Waiting on legal");
    expect((await items(CAT)).map((i) => [i.text, i.status, i.opened_date])).toEqual([
      ["Flaky CI", "resolved", "2026-03-02"],
      ["Design review", "resolved", "2026-03-03"],
      ["Waiting on legal", "open", "2026-03-06"],
    ]);
  });

  it("a member who left or a deleted standup: no longer in the close summary nor escalated", async () => {
    t.clock.set("2026-03-10T10:00:00Z");
    await track(DAN, "2026-03-07", "Blocked by vendor");
    await track(DAN, "2026-03-07", "Blocked elsewhere", goneSchedule);
    await t.deps.db.execute(sql`update members set active = false where team_id = ${TEAM} and user_id = ${BEN}`);
    await t.deps.db.execute(
      sql`update schedules set deleted_at = now() where team_id = ${TEAM} and id = ${goneSchedule}`,
    );
    const run = { teamId: TEAM, scheduleId, localDate: "2026-03-10", scheduleTz: "UTC" };
    const summary = await summaryBlockers(t.deps.db, run);
    // Ben left with his item open: not listed, not even as an untracked answer of the day.
    const listed = summary.forSummary(
      [{ userId: BEN, hasBlocker: true, blockers: "Need prod access (ticket 12)" }],
      (u) => u,
    );
    expect(listed.blockers.map((b) => b.name)).toEqual([CAT, DAN]);
    expect(summary.userIds).not.toContain(BEN);
    await close(scheduleId, 1, "2026-03-10");
    await close(goneSchedule, 2, "2026-03-10");
    const [cat] = (await items(CAT)).filter((i) => i.status === "open");
    const [dan] = (await items(DAN)).filter((i) => i.text === "Blocked by vendor");
    expect((await blockerFirings()).map((f) => f.blocker_id).sort()).toEqual([cat!.id, dan!.id].sort());
  });

  it("keeps an open item's firing past the 90 days' retention, so it never escalates twice", async () => {
    const [dan] = (await items(DAN)).filter((i) => i.text === "Blocked by vendor");
    const [cat] = (await items(CAT)).filter((i) => i.status === "open");
    // Cat's item is resolved on day 20; Dan's stays open.
    t.clock.set("2026-03-20T10:00:00Z");
    expect(
      (await resolveBlocker(t.deps, { teamId: TEAM, blockerId: cat!.id, by: CAT, asAdmin: false, via: "dm" })).ok,
    ).toBe(true);
    t.clock.set("2026-06-20T04:00:00Z"); // 102 days after the firings
    const result = await runMaintenance(t.deps, t.clock.now());
    expect(result.pruned.rule_firings).toBe(1);
    expect((await blockerFirings()).map((f) => f.blocker_id)).toEqual([dan!.id]);
    await close(scheduleId, 3, "2026-06-19");
    expect((await blockerFirings()).map((f) => f.blocker_id)).toEqual([dan!.id]);
  });
});
