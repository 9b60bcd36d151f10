import { useState } from "react";
import { ConfirmDialog } from "../components/confirm-dialog.tsx";
import { PageHeader } from "../components/layout.tsx";
import { Empty, Notice, type NoticeMessage, QueryView } from "../components/states.tsx";
import { errorMessage } from "../lib/api.ts";
import {
  dayInZone,
  describeDays,
  formatClock,
  formatDay,
  formatStandupInstant,
  formatStandupTime,
  plural,
  standupTimeParts,
} from "../lib/format.ts";
import { useDeleteStandup, useRunStandup, useUpdateStandup } from "../lib/mutations.ts";
import { lastRunAnsweredWords, notAskedWords } from "../lib/participation.ts";
import { useChannels, useStandups } from "../lib/queries.ts";
import { Link } from "../lib/router.tsx";
import type { Channel, Schedule } from "../lib/types.ts";
import { PauseStandupDialog } from "./pause-dialog.tsx";

export function channelLabel(channels: Channel[] | undefined, id: string): string {
  const name = channels?.find((c) => c.id === id)?.name;
  // A channel Slack no longer lists (archived, Upbeat removed) is described, never shown by its id.
  return name ? `#${name}` : id ? "a channel Upbeat cannot see" : "";
}

/** Set by the editor after a save, shown once by the list. */
let flash: string | undefined;
export function setStandupsFlash(message: string): void {
  flash = message;
}

/**
 * "Tue 3 Mar, 09:30 Berlin · 08:30 your time". A standup asked on each person's own clock has no one time: its day
 * alone.
 */
function describeNextRun(schedule: Schedule): string {
  if (!schedule.next_run_at) return schedule.active ? "Not scheduled" : "None while paused";
  if (schedule.ask_in_member_timezone)
    return formatDay(dayInZone(new Date(schedule.next_run_at), schedule.schedule_tz));
  return formatStandupInstant(schedule.next_run_at, schedule.schedule_tz);
}

/** "09:30 Berlin · 08:30 your time", or "09:30 (each person's own timezone)". */
function ScheduleTime({ schedule }: { schedule: Schedule }) {
  if (schedule.ask_in_member_timezone) {
    return (
      <>
        <strong>{formatClock(schedule.schedule_time)}</strong>{" "}
        <span className="muted">(each person's own timezone)</span>
      </>
    );
  }
  const time = standupTimeParts(schedule.schedule_time, schedule.schedule_tz);
  return (
    <>
      <strong>{time.standup}</strong>
      {time.yours ? <span className="muted"> · {time.yours}</span> : null}
    </>
  );
}

function describeLastRun(schedule: Schedule): string {
  const last = schedule.last_run;
  if (!last) return "None yet";
  const day = formatDay(last.local_date);
  if (last.status === "skipped") return `${day}: skipped (the service was down)`;
  const notAsked = notAskedWords(last);
  return `${day}${last.trigger === "manual" ? " (run now)" : ""}: ${lastRunAnsweredWords(last)}${notAsked ? ` · ${notAsked}` : ""}`;
}

function ScheduleCard({
  schedule,
  channels,
  isAdmin,
  onToggle,
  onDelete,
  onRun,
  busy,
}: {
  schedule: Schedule;
  channels: Channel[] | undefined;
  isAdmin: boolean;
  onToggle: () => void;
  onDelete: () => void;
  onRun: () => void;
  busy: boolean;
}) {
  const channel = channelLabel(channels, schedule.channel_id);
  return (
    <li className={`card schedule${schedule.active ? "" : " schedule-paused"}`}>
      <div className="schedule-main">
        <div className="schedule-title">
          <h2 className="schedule-channel">{schedule.name}</h2>
          <span className={`badge ${schedule.active ? "badge-active" : "badge-paused"}`}>
            {schedule.active ? "Active" : "Paused"}
          </span>
        </div>
        <p className="schedule-when">
          <span className="muted">{channel}</span> · <strong>{describeDays(schedule.schedule_days)}</strong> at{" "}
          <ScheduleTime schedule={schedule} />
        </p>
        <dl className="schedule-facts">
          <div>
            <dt>Next run</dt>
            <dd>{describeNextRun(schedule)}</dd>
          </div>
          <div>
            <dt>Last run</dt>
            <dd>{describeLastRun(schedule)}</dd>
          </div>
          <div>
            <dt>Participants</dt>
            <dd>
              {plural(schedule.participant_count, "person", "people")}
              {schedule.last_run && schedule.last_run.asked !== schedule.participant_count ? (
                <span className="muted fact-note">
                  {schedule.ask_in_member_timezone
                    ? " in the channel now; people away, and those whose own time has not come, are not asked"
                    : " in the channel now; people away are not asked"}
                </span>
              ) : null}
            </dd>
          </div>
        </dl>
        <details className="schedule-questions">
          <summary>{plural(schedule.questions.length, "question")}</summary>
          <ol>
            {schedule.questions.map((q, i) => (
              // Questions may repeat; their position is their identity.
              // biome-ignore lint/suspicious/noArrayIndexKey: the list is static here
              <li key={i}>{q}</li>
            ))}
          </ol>
        </details>
      </div>
      {isAdmin ? (
        <div className="schedule-actions">
          {schedule.active ? (
            <button type="button" className="button button-small" onClick={onRun} disabled={busy}>
              Run now<span className="sr-only"> standup in {channel}</span>
            </button>
          ) : null}
          <Link to={`/standups/${encodeURIComponent(schedule.id)}`} className="button button-small">
            Edit<span className="sr-only"> standup in {channel}</span>
          </Link>
          <button type="button" className="button button-small" onClick={onToggle} disabled={busy}>
            {schedule.active ? "Pause" : "Resume"}
            <span className="sr-only"> standup in {channel}</span>
          </button>
          <button
            type="button"
            className="button button-small button-danger-outline"
            onClick={onDelete}
            disabled={busy}
          >
            Delete<span className="sr-only"> standup in {channel}</span>
          </button>
        </div>
      ) : null}
    </li>
  );
}

export function StandupsPage({ isAdmin }: { isAdmin: boolean }) {
  const schedules = useStandups();
  const channels = useChannels();
  const update = useUpdateStandup();
  const remove = useDeleteStandup();
  const run = useRunStandup();
  const [notice, setNotice] = useState<NoticeMessage | undefined>(() => {
    const text = flash;
    flash = undefined;
    return text ? { kind: "success", text } : undefined;
  });
  const [deleting, setDeleting] = useState<Schedule | undefined>();
  const [running, setRunning] = useState<Schedule | undefined>();
  const [pausing, setPausing] = useState<Schedule | undefined>();

  const toggle = (s: Schedule) => {
    setNotice(undefined);
    update.mutate(
      { id: s.id, changes: { active: !s.active } },
      {
        onSuccess: (updated) => {
          setPausing(undefined);
          setNotice({
            kind: "success",
            text: `${updated.active ? "Resumed" : "Paused"} the standup in ${channelLabel(channels.data, s.channel_id)}.`,
          });
        },
        // A pause that failed says why in its dialog; a resume (no dialog) in the notice.
        onError: (err) => (s.active ? undefined : setNotice({ kind: "error", text: errorMessage(err) })),
      },
    );
  };

  const confirmDelete = () => {
    if (!deleting) return;
    remove.mutate(deleting.id, {
      onSuccess: () => {
        setNotice({
          kind: "success",
          text: `Deleted the standup in ${channelLabel(channels.data, deleting.channel_id)}.`,
        });
        setDeleting(undefined);
      },
    });
  };

  const confirmRun = () => {
    if (!running) return;
    const chosen = running;
    run.mutate(chosen.id, {
      onSuccess: (started) => {
        setNotice({
          kind: "success",
          text: `Started today's run of ${chosen.name}: asking ${plural(started.asked, "person", "people")}.`,
        });
        setRunning(undefined);
      },
    });
  };

  const isBusy = (s: Schedule) =>
    (update.isPending && update.variables.id === s.id) ||
    (remove.isPending && remove.variables === s.id) ||
    (run.isPending && run.variables === s.id);

  return (
    <>
      <PageHeader
        title="Standups"
        lead="Each standup asks its channel's members the questions on the days and time you choose."
      >
        {isAdmin ? (
          <Link to="/standups/new" className="button button-primary">
            New standup
          </Link>
        ) : null}
      </PageHeader>
      {notice ? (
        <Notice kind={notice.kind} onDismiss={() => setNotice(undefined)}>
          {notice.text}
        </Notice>
      ) : null}
      <QueryView query={schedules} loading="Loading standups…">
        {(list) =>
          list.length === 0 ? (
            <Empty title="No standups yet">
              {isAdmin ? (
                <p>
                  <Link to="/standups/new">Create the first standup</Link> for a channel.
                </p>
              ) : (
                <p>An admin can set one up for your channel.</p>
              )}
            </Empty>
          ) : (
            <ul className="schedules">
              {list.map((s) => (
                <ScheduleCard
                  key={s.id}
                  schedule={s}
                  channels={channels.data}
                  isAdmin={isAdmin}
                  busy={isBusy(s)}
                  onToggle={() => {
                    // Pausing stops today's open run, so it is confirmed first; resuming is not.
                    if (!s.active) return toggle(s);
                    update.reset();
                    setPausing(s);
                  }}
                  onDelete={() => {
                    remove.reset();
                    setDeleting(s);
                  }}
                  onRun={() => {
                    run.reset();
                    setNotice(undefined);
                    setRunning(s);
                  }}
                />
              ))}
            </ul>
          )
        }
      </QueryView>
      <ConfirmDialog
        open={deleting !== undefined}
        title="Delete this standup?"
        confirmLabel="Delete standup"
        danger
        busy={remove.isPending}
        error={remove.error}
        onConfirm={confirmDelete}
        onCancel={() => setDeleting(undefined)}
      >
        <p>
          The standup in <strong>{deleting ? channelLabel(channels.data, deleting.channel_id) : ""}</strong> stops
          running. Answers already given stay in reports.
        </p>
      </ConfirmDialog>
      <PauseStandupDialog
        schedule={pausing}
        channel={pausing ? channelLabel(channels.data, pausing.channel_id) : ""}
        busy={update.isPending}
        error={pausing ? update.error : undefined}
        onConfirm={() => pausing && toggle(pausing)}
        onCancel={() => setPausing(undefined)}
      />
      <ConfirmDialog
        open={running !== undefined}
        title="Run this standup now?"
        confirmLabel="Run now"
        busy={run.isPending}
        error={run.error}
        onConfirm={confirmRun}
        onCancel={() => setRunning(undefined)}
      >
        {running ? (
          <>
            <p>
              <strong>{running.name}</strong> asks{" "}
              <strong>{plural(running.participant_count, "person", "people")}</strong> in{" "}
              {channelLabel(channels.data, running.channel_id)} now, by direct message (people on time off today are not
              asked).
            </p>
            <p className="muted">
              This is today's run: the scheduled time today (
              {running.ask_in_member_timezone
                ? `${formatClock(running.schedule_time)} on each person's clock`
                : formatStandupTime(running.schedule_time, running.schedule_tz)}
              ) will not run it again.
            </p>
          </>
        ) : null}
      </ConfirmDialog>
    </>
  );
}
