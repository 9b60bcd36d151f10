import { type FormEvent, useId, useState } from "react";
import { FormError } from "../components/states.tsx";
import type { ProfileFields } from "../lib/mutations.ts";
import type { Profile } from "../lib/types.ts";

export const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
] as const;

const DAYS = Array.from({ length: 31 }, (_, i) => i + 1);

/** "29 February", or "–" without a birthday. */
export function birthdayLabel(p: Pick<Profile, "birth_month" | "birth_day">): string {
  return p.birth_month && p.birth_day ? `${p.birth_day} ${MONTHS[p.birth_month - 1]}` : "–";
}

/**
 * The profile fields as a form, for the member's own page and an admin editing someone's. Every field is sent
 * on save; the server's 400 (it names the field) shows under the form.
 */
export function ProfileForm({
  profile,
  onSave,
  saving,
  error,
  submitLabel = "Save profile",
  onCancel,
  celebrateLocked = false,
}: {
  profile: Profile;
  onSave: (fields: ProfileFields) => void;
  saving: boolean;
  error: unknown;
  submitLabel?: string;
  onCancel?: () => void;
  /** An admin editing someone who opted out: only the member can opt back in. */
  celebrateLocked?: boolean;
}) {
  const id = useId();
  const [month, setMonth] = useState(profile.birth_month ? String(profile.birth_month) : "");
  const [day, setDay] = useState(profile.birth_day ? String(profile.birth_day) : "");
  const [startDate, setStartDate] = useState(profile.start_date ?? "");
  const [role, setRole] = useState(profile.role);
  const [location, setLocation] = useState(profile.location);
  const [askMeAbout, setAskMeAbout] = useState(profile.ask_me_about);
  const [celebrate, setCelebrate] = useState(profile.celebrate);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSave({
      birth_month: month ? Number(month) : null,
      birth_day: day ? Number(day) : null,
      start_date: startDate || null,
      role,
      location,
      ask_me_about: askMeAbout,
      celebrate,
    });
  };
  return (
    <form onSubmit={submit} noValidate aria-label="Profile">
      <fieldset className="field">
        <legend>Birthday</legend>
        <div className="field-row">
          <div className="field">
            <label htmlFor={`${id}-month`}>Month</label>
            <select id={`${id}-month`} className="input" value={month} onChange={(e) => setMonth(e.target.value)}>
              <option value="">–</option>
              {MONTHS.map((m, i) => (
                <option key={m} value={String(i + 1)}>
                  {m}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor={`${id}-day`}>Day</label>
            <select id={`${id}-day`} className="input" value={day} onChange={(e) => setDay(e.target.value)}>
              <option value="">–</option>
              {DAYS.map((d) => (
                <option key={d} value={String(d)}>
                  {d}
                </option>
              ))}
            </select>
          </div>
        </div>
        <p className="field-help">Only the month and day are kept, never the year.</p>
      </fieldset>
      <div className="field">
        <label htmlFor={`${id}-start`}>First day at work</label>
        <input
          id={`${id}-start`}
          type="date"
          className="input"
          value={startDate}
          onChange={(e) => setStartDate(e.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor={`${id}-role`}>Role</label>
        <input
          id={`${id}-role`}
          className="input"
          maxLength={80}
          value={role}
          onChange={(e) => setRole(e.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor={`${id}-location`}>Location</label>
        <input
          id={`${id}-location`}
          className="input"
          maxLength={80}
          value={location}
          onChange={(e) => setLocation(e.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor={`${id}-ask`}>Ask me about</label>
        <textarea
          id={`${id}-ask`}
          className="input"
          maxLength={200}
          rows={2}
          value={askMeAbout}
          onChange={(e) => setAskMeAbout(e.target.value)}
        />
      </div>
      <div className="field">
        <div className="field-check">
          <input
            id={`${id}-celebrate`}
            type="checkbox"
            checked={celebrate}
            disabled={celebrateLocked}
            onChange={(e) => setCelebrate(e.target.checked)}
          />
          <label htmlFor={`${id}-celebrate`}>Celebrate birthday and work anniversary in the channel</label>
        </div>
        {celebrateLocked ? <p className="field-help">They opted out; only they can opt back in.</p> : null}
      </div>
      <FormError error={error} />
      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={saving}>
          {saving ? "Saving…" : submitLabel}
        </button>
        {onCancel ? (
          <button type="button" className="button" onClick={onCancel}>
            Cancel
          </button>
        ) : null}
      </div>
    </form>
  );
}
