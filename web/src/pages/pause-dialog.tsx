import { ConfirmDialog } from "../components/confirm-dialog.tsx";
import { plural } from "../lib/format.ts";
import type { Schedule } from "../lib/types.ts";

/**
 * What pausing does, said before it happens. A paused schedule's open run stops where it stands (see
 * src/features/standups/stopped-run.ts): no more asks or reminders and no summary; answers given stay, and someone
 * already asked may still answer. Resumed before the run closes, it carries on for those it asked.
 */
export function PauseStandupDialog(props: {
  schedule: Schedule | undefined;
  channel: string;
  busy: boolean;
  error: unknown;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const { schedule, channel, busy, error, onConfirm, onCancel } = props;
  const open = schedule?.last_run?.status === "open" ? schedule.last_run : undefined;
  return (
    <ConfirmDialog
      open={schedule !== undefined}
      title={`Pause ${schedule?.name ?? "this standup"}?`}
      confirmLabel="Pause standup"
      busy={busy}
      error={error}
      onConfirm={onConfirm}
      onCancel={onCancel}
    >
      {open ? (
        <>
          <p>
            <strong>Today's run is stopped now.</strong> Nobody else is asked, no reminder goes out and no summary is
            posted in {channel}.
          </p>
          <p>
            {open.answered > 0 ? `Answers given so far (${open.answered}) stay in reports. ` : ""}
            {open.asked > 0
              ? `The ${plural(open.asked, "person", "people")} already asked can still answer; resume before the run closes and it carries on for them.`
              : "Nobody has been asked yet."}
          </p>
        </>
      ) : (
        <p>No run is open now. While paused, no run starts in {channel}; the questions and history are kept.</p>
      )}
      <p className="muted">Resume at any time to run on the chosen days again.</p>
    </ConfirmDialog>
  );
}
