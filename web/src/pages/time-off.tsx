import { type FormEvent, useState } from "react";
import { ConfirmDialog } from "../components/confirm-dialog.tsx";
import { PageHeader } from "../components/layout.tsx";
import { Empty, FormError, Notice, QueryView } from "../components/states.tsx";
import { formatDayRange } from "../lib/format.ts";
import { useAddTimeOff, useRemoveTimeOff } from "../lib/mutations.ts";
import { FORMER_MEMBER } from "../lib/people.ts";
import { useMembers, useTimeOff } from "../lib/queries.ts";
import type { Me, TimeOffRange } from "../lib/types.ts";

const REASON_MAX = 200;

/** "21 Dec 2026 – 4 Jan 2027"; one day alone. */
function days(r: TimeOffRange): string {
  return formatDayRange(r.start_date, r.end_date);
}

/** Admins choose whose time off; members add their own. */
function MemberChoice({ value, onChange }: { value: string; onChange: (userId: string) => void }) {
  const members = useMembers();
  return (
    <div className="field">
      <label htmlFor="time-off-member">Member</label>
      <select
        id="time-off-member"
        className="input"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        disabled={!members.data}
      >
        <option value="">Me</option>
        {(members.data ?? [])
          .filter((m) => m.active)
          .map((m) => (
            <option key={m.user_id} value={m.user_id}>
              {m.real_name || FORMER_MEMBER}
            </option>
          ))}
      </select>
    </div>
  );
}

function AddRange({ isAdmin, onAdded }: { isAdmin: boolean; onAdded: (range: TimeOffRange) => void }) {
  const [userId, setUserId] = useState("");
  const [start, setStart] = useState("");
  const [end, setEnd] = useState("");
  const [reason, setReason] = useState("");
  const [problem, setProblem] = useState<string | undefined>();
  const add = useAddTimeOff();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = !start ? "Choose the first day away." : undefined;
    setProblem(found);
    if (found) return add.reset();
    add.mutate(
      {
        ...(userId ? { user_id: userId } : {}),
        start_date: start,
        end_date: end || start,
        ...(reason.trim() ? { reason: reason.trim() } : {}),
      },
      {
        onSuccess: (range) => {
          setStart("");
          setEnd("");
          setReason("");
          onAdded(range);
        },
      },
    );
  };
  return (
    <form className="card" onSubmit={submit} noValidate aria-labelledby="time-off-add-title">
      <h2 id="time-off-add-title">Add time off</h2>
      {isAdmin ? <MemberChoice value={userId} onChange={setUserId} /> : null}
      <div className="field">
        <label htmlFor="time-off-start">First day away</label>
        <input
          id="time-off-start"
          className="input"
          type="date"
          value={start}
          onChange={(e) => setStart(e.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor="time-off-end">Last day away</label>
        <input
          id="time-off-end"
          className="input"
          type="date"
          value={end}
          min={start || undefined}
          onChange={(e) => setEnd(e.target.value)}
          aria-describedby="time-off-end-help"
        />
        <p id="time-off-end-help" className="field-help">
          Both days included; leave empty for one day. Up to 366 days at once.
        </p>
      </div>
      <div className="field">
        <label htmlFor="time-off-reason">Reason (optional)</label>
        <input
          id="time-off-reason"
          className="input"
          value={reason}
          maxLength={REASON_MAX}
          onChange={(e) => setReason(e.target.value)}
        />
      </div>
      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={add.isPending}>
          {add.isPending ? "Adding…" : "Add time off"}
        </button>
      </div>
      <FormError error={problem ?? add.error} />
    </form>
  );
}

function RangeTable({ ranges, showMember }: { ranges: TimeOffRange[]; showMember: boolean }) {
  const remove = useRemoveTimeOff();
  const [removing, setRemoving] = useState<TimeOffRange | undefined>();
  const who = removing && showMember ? removing.real_name : "you";
  return (
    <>
      <ConfirmDialog
        open={removing !== undefined}
        title={`Remove time off ${removing ? days(removing) : ""}?`}
        confirmLabel="Remove time off"
        danger
        busy={remove.isPending}
        error={remove.error}
        onConfirm={() => removing && remove.mutate(removing.id, { onSuccess: () => setRemoving(undefined) })}
        onCancel={() => setRemoving(undefined)}
      >
        <p>
          Standups ask {who} again on those days, reminders go out, and days not answered count as missed in
          participation. To be away again, add the time off again.
        </p>
      </ConfirmDialog>
      <div className="table-wrap">
        <table className="table">
          <thead>
            <tr>
              {showMember ? (
                <th scope="col" className="hide-narrow">
                  Member
                </th>
              ) : null}
              <th scope="col">Days</th>
              <th scope="col">Reason</th>
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {ranges.map((r) => (
              <tr key={r.id}>
                {showMember ? <td className="hide-narrow">{r.real_name}</td> : null}
                <td>
                  {/* At 390 px the member's name heads the days, so the Remove button fits beside them. */}
                  {showMember ? <strong className="show-narrow">{r.real_name}</strong> : null}
                  {days(r)} {r.current ? <span className="badge badge-active">Away now</span> : null}{" "}
                  {r.via === "mcp" ? (
                    <span className="badge" title="Set from an AI client through MCP">
                      via MCP
                    </span>
                  ) : null}
                </td>
                <td>{r.reason}</td>
                <td>
                  <button
                    type="button"
                    className="button button-small button-danger-outline"
                    disabled={remove.isPending && remove.variables === r.id}
                    onClick={() => {
                      remove.reset();
                      setRemoving(r);
                    }}
                  >
                    Remove<span className="sr-only"> time off {days(r)}</span>
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

export function TimeOffPage({ me }: { me: Me }) {
  const isAdmin = me.role === "admin";
  const [includePast, setIncludePast] = useState(false);
  const ranges = useTimeOff({ include_past: includePast });
  const [notice, setNotice] = useState<string | undefined>();
  return (
    <>
      <PageHeader
        title="Time off"
        lead={
          isAdmin
            ? "Everyone's time off. While away, a member is not asked or reminded, the days do not count against their participation, and summaries list them as away."
            : "Your time off. While away you are not asked or reminded, and the days do not count against your participation. In Slack: /upbeat away and /upbeat back."
        }
      />
      {notice ? (
        <Notice kind="success" onDismiss={() => setNotice(undefined)}>
          {notice}
        </Notice>
      ) : null}
      <AddRange
        isAdmin={isAdmin}
        onAdded={(r) => setNotice(`Saved: ${r.real_name} away ${days(r)} (ranges next to each other are merged).`)}
      />
      <section className="card" aria-labelledby="time-off-list-title">
        <h2 id="time-off-list-title">{isAdmin ? "Everyone's time off" : "Your time off"}</h2>
        <div className="field-check">
          <input
            id="time-off-past"
            type="checkbox"
            checked={includePast}
            onChange={(e) => setIncludePast(e.target.checked)}
          />
          <label htmlFor="time-off-past">Include past time off (kept for a year)</label>
        </div>
        <QueryView query={ranges} loading="Loading time off…">
          {(list) =>
            list.items.length === 0 ? (
              <Empty title="No time off planned" />
            ) : (
              <>
                <RangeTable ranges={list.items} showMember={isAdmin} />
                {list.truncated ? <p className="muted">Only the first {list.items.length} are shown.</p> : null}
              </>
            )
          }
        </QueryView>
      </section>
    </>
  );
}
