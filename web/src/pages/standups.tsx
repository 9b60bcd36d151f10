import { useState } from "react";
import { ConfirmDialog } from "../components/confirm-dialog.tsx";
import { PageHeader } from "../components/layout.tsx";
import { Empty, ErrorState, Loading, Notice } from "../components/states.tsx";
import { api, errorMessage } from "../lib/api.ts";
import { describeDays, plural } from "../lib/format.ts";
import { Link } from "../lib/router.tsx";
import type { Channel, Schedule } from "../lib/types.ts";
import { useApi } from "../lib/use-api.ts";

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
  const schedules = useApi<Schedule[]>("/standups");
  const channels = useApi<Channel[]>("/channels");
  const [notice, setNotice] = useState<{ kind: "success" | "error"; text: string } | undefined>(() => {
    const text = flash;
    flash = undefined;
    return text ? { kind: "success", text } : undefined;
  });
  const [busyId, setBusyId] = useState<string | undefined>();
  const [deleting, setDeleting] = useState<Schedule | undefined>();
  const [deleteError, setDeleteError] = useState<string | undefined>();

  const toggle = async (s: Schedule) => {
    setBusyId(s.id);
    setNotice(undefined);
    try {
      const updated = await api.put<Schedule>(`/standups/${encodeURIComponent(s.id)}`, { active: !s.active });
      schedules.setData((list) => list?.map((x) => (x.id === s.id ? { ...x, ...updated } : x)));
      setNotice({
        kind: "success",
        text: `${updated.active ? "Resumed" : "Paused"} the standup in ${channelLabel(channels.data, s.channel_id)}.`,
      });
    } catch (err) {
      setNotice({ kind: "error", text: errorMessage(err) });
    } finally {
      setBusyId(undefined);
    }
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    setBusyId(deleting.id);
    setDeleteError(undefined);
    try {
      await api.delete(`/standups/${encodeURIComponent(deleting.id)}`);
      schedules.setData((list) => list?.filter((x) => x.id !== deleting.id));
      setNotice({
        kind: "success",
        text: `Deleted the standup in ${channelLabel(channels.data, deleting.channel_id)}.`,
      });
      setDeleting(undefined);
    } catch (err) {
      setDeleteError(errorMessage(err));
    } finally {
      setBusyId(undefined);
    }
  };

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
      {schedules.error ? (
        <ErrorState error={schedules.error} onRetry={schedules.reload} />
      ) : !schedules.data ? (
        <Loading label="Loading standups…" />
      ) : schedules.data.length === 0 ? (
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
          {schedules.data.map((s) => (
            <ScheduleCard
              key={s.id}
              schedule={s}
              channels={channels.data}
              isAdmin={isAdmin}
              busy={busyId === s.id}
              onToggle={() => toggle(s)}
              onDelete={() => {
                setDeleteError(undefined);
                setDeleting(s);
              }}
            />
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={deleting !== undefined}
        title="Delete this standup?"
        confirmLabel="Delete standup"
        danger
        busy={busyId !== undefined && busyId === deleting?.id}
        error={deleteError}
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
