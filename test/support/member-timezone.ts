import { sql } from "drizzle-orm";
import { rows } from "../../src/db/client.ts";
import { tick } from "../../src/features/standups/index.ts";
import type { TestApp } from "./app.ts";
import { createSchedule } from "./factories.ts";

const ALL_DAYS = "mon,tue,wed,thu,fri,sat,sun";

interface ParticipantDb {
  user_id: string;
  status: string;
  ask_at: Date | null;
  remind_at: Date | null;
  closes_at: Date | null;
  local_date: string | null;
}

export const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/**
 * A workspace whose channel has these people (id → Slack timezone) and a member-timezone schedule
 * (09:30, ask_in_member_timezone) for it, with what the member-timezone tests read and do.
 */
export async function memberTimezoneTeam(
  t: TestApp,
  teamId: string,
  people: Record<string, string>,
  s: { time?: string; days?: string; reminderMinutes?: number | null } = {},
) {
  const channelId = `C${teamId.slice(1)}`;
  await t.installTeam(teamId);
  for (const [id, tz] of Object.entries(people)) {
    t.fake.addUser(teamId, { id, name: id.toLowerCase(), real_name: id.slice(2), tz });
    await t.addMember(teamId, id, { tz });
  }
  t.fake.addChannel(teamId, {
    id: channelId,
    name: "global",
    members: [...Object.keys(people), `B${teamId.slice(1)}BOT`],
  });
  const scheduleId = await createSchedule(t.deps.db, t.clock, {
    teamId,
    channelId,
    time: s.time ?? "09:30",
    tz: "Europe/Berlin",
    days: s.days ?? ALL_DAYS,
  });
  await t.deps.db.execute(
    sql`update schedules set ask_in_member_timezone = true,
          reminder_minutes = ${s.reminderMinutes === undefined ? 120 : s.reminderMinutes}
        where id = ${scheduleId}`,
  );
  const runs = () =>
    rows<{ id: number; local_date: string; status: string; member_timezone: boolean; closes_at: Date }>(
      t.deps.db,
      sql`select id, local_date::text as local_date, status, member_timezone, closes_at from standup_runs
          where schedule_id = ${scheduleId} order by local_date`,
    );
  const participants = (runId: number) =>
    rows<ParticipantDb>(
      t.deps.db,
      sql`select user_id, status, ask_at, remind_at, closes_at, local_date::text as local_date
          from run_participants where run_id = ${runId} order by ask_at, user_id`,
    );
  const dms = (userId: string, startsWith = "Time for standup") =>
    t.fake.messages(t.fake.dmFor(teamId, userId)).filter((m) => m.text.startsWith(startsWith));
  const parents = () => t.fake.messages(channelId).filter((m) => !m.thread_ts);
  const submit = (userId: string, runId: number, answers: string[]) =>
    t.sendInteraction({
      type: "view_submission",
      team: { id: teamId, domain: "mtz" },
      user: { id: userId, team_id: teamId },
      api_app_id: "A0UPBEAT",
      token: "legacy",
      trigger_id: `trigger.${userId}`,
      view: {
        id: "V0MODAL",
        type: "modal",
        team_id: teamId,
        callback_id: "standup_modal",
        private_metadata: JSON.stringify({ runId }),
        state: {
          values: Object.fromEntries(
            answers.map((a, i) => [`q${i}`, { answer: { type: "plain_text_input", value: a } }]),
          ),
        },
      },
    });
  /** Ticks at each instant (UTC), draining the jobs after each; returns the summed results. */
  const tickAt = async (...instants: string[]) => {
    const sum = { started: [] as number[], membersAsked: 0, membersReminded: 0, closed: 0 };
    for (const at of instants) {
      t.clock.set(at);
      const r = await tick(t.deps);
      await t.deps.queue.drain();
      sum.started.push(...r.started);
      sum.membersAsked += r.membersAsked;
      sum.membersReminded += r.membersReminded;
      sum.closed += r.closed;
    }
    return sum;
  };
  return { teamId, channelId, scheduleId, runs, participants, dms, parents, submit, tickAt };
}
