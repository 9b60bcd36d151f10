/**
 * A standup run every minute, through the dashboard API as an admin does it, rotating over the workspaces
 * and their soak channels: a new schedule (POST /dashboard/api/schedules), then either "Run now"
 * (POST …/:id/run, 201) or — every other minute — a schedule due at the next whole minute at least 40 s away,
 * which the app's own scheduler must open (its 30 s tick). A schedule runs at most once per local date, hence
 * a fresh one each time; it is deleted three runs later (DELETE …/:id; past runs and answers stay).
 *
 * Each run is checked against the fake: every member of the channel must get an ask DM within DEADLINE_MS of
 * the run's start (Run now: the 201; scheduled: the due minute). The time to the last ask DM is recorded as
 * the pseudo-route "run now → all ask DMs" / "scheduled → all ask DMs"; a run short of DMs at its deadline
 * is an error there.
 */
import type { Ask } from "./answers.ts";
import type { AppClient, Check, Recorder } from "./stats.ts";
import { expectStatus } from "./stats.ts";
import type { Team } from "./world.ts";

const DEADLINE_MS = 120_000;
const SCHEDULE_LEAD_MS = 40_000;
const KEEP_SCHEDULES = 3;
const WEEKDAYS = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"];

type Kind = "run now" | "scheduled";

interface PlannedRun {
  kind: Kind;
  teamId: string;
  channelId: string;
  /** Epoch ms: the Run now answer, or the due minute. */
  startMs: number;
  expected: number;
  runId?: number;
  asks: number;
  lastAskMs: number;
  done: boolean;
}

function json<T>(text: string): T | undefined {
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
}

function hhmm(ms: number): string {
  return new Date(ms).toISOString().slice(11, 16);
}

export class RunDriver {
  readonly #planned: PlannedRun[] = [];
  readonly #byRunId = new Map<number, PlannedRun>();
  readonly #schedules: { teamId: string; id: string }[] = [];
  #iteration = 0;
  /** Ask DMs of runs this driver did not start (the seeded 09:00 schedules, if they come due). */
  otherAsks = 0;

  constructor(
    private readonly teams: Team[],
    private readonly client: AppClient,
    private readonly recorder: Recorder,
  ) {}

  get started(): number {
    return this.#planned.length;
  }

  /** Starts one run (see the file comment); never throws: failures are recorded as errors of their route. */
  async next(): Promise<void> {
    const i = this.#iteration++;
    const team = this.teams[i % this.teams.length]!;
    const channel = team.soakChannels[Math.floor(i / this.teams.length) % team.soakChannels.length]!;
    const kind: Kind = i % 2 === 0 ? "run now" : "scheduled";
    const cookie = team.cookies[i % team.cookies.length]!;
    const headers = { cookie, "content-type": "application/json" };
    const now = Date.now();
    const dueMs = Math.ceil((now + SCHEDULE_LEAD_MS) / 60_000) * 60_000;
    // Run now ignores the days; a day two days ahead keeps the scheduler away from it during the soak.
    const body =
      kind === "scheduled"
        ? { channel_id: channel.id, schedule_time: hhmm(dueMs), schedule_tz: "UTC", schedule_days: WEEKDAYS.join(",") }
        : {
            channel_id: channel.id,
            schedule_time: "12:00",
            schedule_tz: "UTC",
            schedule_days: WEEKDAYS[(new Date(now).getUTCDay() + 2) % 7]!,
          };
    const created = await this.client.send(
      "POST /dashboard/api/schedules",
      {
        method: "POST",
        path: "/dashboard/api/schedules",
        headers,
        body: JSON.stringify({ ...body, name: `soak ${i}` }),
      },
      expectStatus(201),
    );
    const scheduleId = created?.status === 201 ? json<{ id?: string }>(created.text)?.id : undefined;
    if (!scheduleId) return;
    this.#schedules.push({ teamId: team.id, id: scheduleId });

    if (kind === "scheduled") {
      this.#plan({ kind, teamId: team.id, channelId: channel.id, startMs: dueMs, expected: channel.members.length });
    } else {
      const check: Check = expectStatus(201, (text) =>
        json<{ run_id?: number }>(text)?.run_id === undefined ? "no run_id" : undefined,
      );
      const res = await this.client.send(
        "POST /dashboard/api/standups/:id/run",
        { method: "POST", path: `/dashboard/api/standups/${scheduleId}/run`, headers: { cookie } },
        check,
      );
      const started = res?.status === 201 ? json<{ run_id: number; asked: number }>(res.text) : undefined;
      if (started) {
        this.#plan({
          kind,
          teamId: team.id,
          channelId: channel.id,
          startMs: Date.now(),
          expected: started.asked,
          runId: Number(started.run_id),
        });
      }
    }
    await this.#deleteOld();
  }

  #plan(run: Omit<PlannedRun, "asks" | "lastAskMs" | "done">): void {
    const planned: PlannedRun = { ...run, asks: 0, lastAskMs: 0, done: false };
    this.#planned.push(planned);
    if (planned.runId !== undefined) this.#byRunId.set(planned.runId, planned);
  }

  async #deleteOld(): Promise<void> {
    while (this.#schedules.length > KEEP_SCHEDULES) {
      const old = this.#schedules.shift()!;
      const team = this.teams.find((t) => t.id === old.teamId)!;
      await this.client.send(
        "DELETE /dashboard/api/schedules/:id",
        { method: "DELETE", path: `/dashboard/api/schedules/${old.id}`, headers: { cookie: team.cookies[0]! } },
        expectStatus(200),
      );
    }
  }

  /** An ask DM seen at the fake (answers.ts): counts it for its run, binding a scheduled run by team and channel. */
  onAsk(ask: Ask): void {
    let run = this.#byRunId.get(ask.runId);
    if (!run) {
      run = this.#planned.find(
        (p) => p.runId === undefined && p.teamId === ask.teamId && p.channelId === ask.channelId && !p.done,
      );
      if (run) {
        run.runId = ask.runId;
        this.#byRunId.set(ask.runId, run);
      }
    }
    if (!run) {
      this.otherAsks += 1;
      return;
    }
    run.asks += 1;
    run.lastAskMs = Math.max(run.lastAskMs, ask.at);
    if (!run.done && run.asks >= run.expected) {
      run.done = true;
      this.recorder.record(`${run.kind} → all ask DMs`, run.lastAskMs - run.startMs, undefined, undefined, false);
    }
  }

  /** Records every run past its deadline without all its ask DMs as an error; returns how many are still within it. */
  check(): number {
    const now = Date.now();
    let open = 0;
    for (const run of this.#planned) {
      if (run.done) continue;
      if (now < run.startMs + DEADLINE_MS) {
        open += 1;
        continue;
      }
      run.done = true;
      this.recorder.record(
        `${run.kind} → all ask DMs`,
        now - run.startMs,
        `${run.asks} of ${run.expected} ask DMs after ${DEADLINE_MS / 1000} s`,
        undefined,
        false,
      );
    }
    return open;
  }
}
