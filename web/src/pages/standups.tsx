import { useState } from "react";
import { ConfirmDialog } from "../components/confirm-dialog.tsx";
import { PageHeader } from "../components/layout.tsx";
import { Empty, Notice, type NoticeMessage, QueryView } from "../components/states.tsx";
import { errorMessage } from "../lib/api.ts";
import { describeDays, plural } from "../lib/format.ts";
import { useDeleteStandup, useUpdateStandup } from "../lib/mutations.ts";
import { useChannels, useStandups } from "../lib/queries.ts";
import { Link } from "../lib/router.tsx";
import type { Channel, Schedule } from "../lib/types.ts";

export function channelLabel(channels: Channel[] | undefined, id: string): string {
  const name = channels?.find((c) => c.id === id)?.name;
  return name ? `#${name}` : id;
}

/** Set by the editor after a save, shown once by the list. */
let flash: string | undefined;
export function setStandupsFlash(message: string): void {
  flash = message;
}

function ScheduleCard({
  schedule,
  channels,
  isAdmin,
  onToggle,
  onDelete,
  busy,
}: {
  schedule: Schedule;
  channels: Channel[] | undefined;
  isAdmin: boolean;
  onToggle: () => void;
  onDelete: () => void;
  busy: boolean;
}) {
  const channel = channelLabel(channels, schedule.channel_id);
  return (
    <li className={`card schedule${schedule.active ? "" : " schedule-paused"}`}>
      <div className="schedule-main">
        <div className="schedule-title">
          <h2 className="schedule-channel">{channel}</h2>
          <span className={`badge ${schedule.active ? "badge-active" : "badge-paused"}`}>
            {schedule.active ? "Active" : "Paused"}
          </span>
        </div>
        <p className="schedule-when">
          <strong>{describeDays(schedule.schedule_days)}</strong> at <strong>{schedule.schedule_time}</strong>{" "}
          <span className="muted">({schedule.schedule_tz.replace(/_/g, " ")})</span>
        </p>
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
  const [notice, setNotice] = useState<NoticeMessage | undefined>(() => {
    const text = flash;
    flash = undefined;
    return text ? { kind: "success", text } : undefined;
  });
  const [deleting, setDeleting] = useState<Schedule | undefined>();

  const toggle = (s: Schedule) => {
    setNotice(undefined);
    update.mutate(
      { id: s.id, changes: { active: !s.active } },
      {
        onSuccess: (updated) =>
          setNotice({
            kind: "success",
            text: `${updated.active ? "Resumed" : "Paused"} the standup in ${channelLabel(channels.data, s.channel_id)}.`,
          }),
        onError: (err) => setNotice({ kind: "error", text: errorMessage(err) }),
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

  const isBusy = (s: Schedule) =>
    (update.isPending && update.variables.id === s.id) || (remove.isPending && remove.variables === s.id);

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
                  onToggle={() => toggle(s)}
                  onDelete={() => {
                    remove.reset();
                    setDeleting(s);
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
    </>
  );
}
