import { useMemo } from "react";
import { useMe, usePeople, useStandups } from "../lib/queries.ts";
import { useStandupLabel } from "../lib/standup-label.ts";
import { Empty } from "./states.tsx";

/**
 * The standup and member filters of Reports and Analytics, labelled by name. An id from the address that the
 * lists do not hold stays selected under a plain "no longer exists" label, so the page never pretends to show
 * everyone while it shows one (removed) standup or person.
 */

export const MISSING_STANDUP = "A standup that no longer exists";
export const MISSING_PERSON = "Someone no longer in this workspace";

export function StandupFilter({ value, onChange }: { value?: string | undefined; onChange: (id?: string) => void }) {
  const standups = useStandups();
  const label = useStandupLabel();
  const known = standups.data?.some((s) => s.id === value);
  return (
    <div className="field">
      <label htmlFor="standup-filter">Standup</label>
      <select
        id="standup-filter"
        className="input"
        value={value ?? ""}
        onChange={(e) => onChange(e.target.value || undefined)}
      >
        <option value="">All standups</option>
        {value && !known ? (
          <option value={value}>{standups.data ? MISSING_STANDUP : "Loading standups…"}</option>
        ) : null}
        {(standups.data ?? []).map((s) => (
          <option key={s.id} value={s.id}>
            {label(s.id)}
          </option>
        ))}
      </select>
    </div>
  );
}

export function MemberFilter({ value, onChange }: { value?: string | undefined; onChange: (id?: string) => void }) {
  // /people, not the admin-only /members: members see this filter too.
  const people = usePeople();
  const me = useMe().data;
  const sorted = useMemo(
    () =>
      [...(people.data ?? [])].sort(
        (a, b) => Number(b.active) - Number(a.active) || a.real_name.localeCompare(b.real_name),
      ),
    [people.data],
  );
  const known = people.data?.some((p) => p.user_id === value);
  return (
    <div className="field">
      <label htmlFor="member-filter">Member</label>
      <select
        id="member-filter"
        className="input"
        value={value ?? ""}
        onChange={(e) => onChange(e.target.value || undefined)}
      >
        <option value="">Everyone</option>
        {value && !known ? <option value={value}>{people.data ? MISSING_PERSON : "Loading names…"}</option> : null}
        {sorted.map((p) => (
          <option key={p.user_id} value={p.user_id}>
            {`${p.real_name}${p.user_id === me?.user_id ? " (you)" : ""}${p.active ? "" : " (left)"}`}
          </option>
        ))}
      </select>
    </div>
  );
}

/** What a page shows for a link that names a standup this workspace does not have, with the way back. */
export function MissingStandup({ onShowAll }: { onShowAll: () => void }) {
  return (
    <Empty title="This standup no longer exists">
      <p>The link names a standup this workspace does not have (it may have been removed).</p>
      <button type="button" className="button" onClick={onShowAll}>
        Show all standups
      </button>
    </Empty>
  );
}
