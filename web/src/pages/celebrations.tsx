import { type FormEvent, useEffect, useMemo, useState } from "react";
import { ChannelPicker } from "../components/channel-picker.tsx";
import { PageHeader } from "../components/layout.tsx";
import { PeopleMultiPicker } from "../components/people-picker.tsx";
import { Notice, type NoticeMessage, QueryView } from "../components/states.tsx";
import { errorMessage } from "../lib/api.ts";
import { useCelebrationSettings, useSaveCelebrationSettings } from "../lib/celebrations.ts";
import { usePeopleById, usePersonName } from "../lib/people.ts";
import { useChannels, usePeople } from "../lib/queries.ts";
import type { CelebrationSettings } from "../lib/types.ts";
import { AskDates, Upcoming } from "./celebrations-lists.tsx";

export const WEEKDAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] as const;
export const WEEKDAY_LABELS: Record<(typeof WEEKDAYS)[number], string> = {
  mon: "Monday",
  tue: "Tuesday",
  wed: "Wednesday",
  thu: "Thursday",
  fri: "Friday",
  sat: "Saturday",
  sun: "Sunday",
};

const ZONES: string[] = (() => {
  try {
    return (Intl as unknown as { supportedValuesOf(k: string): string[] }).supportedValuesOf("timeZone");
  } catch {
    return [];
  }
})();

/** The workspace calendar's timezone and working days, shared by the Celebrations and Calendar pages. */
export function CalendarFields({
  timezone,
  onTimezone,
  days,
  onDays,
  disabled,
  idPrefix,
}: {
  timezone: string;
  onTimezone: (tz: string) => void;
  days: string[];
  onDays: (days: string[]) => void;
  disabled: boolean;
  idPrefix: string;
}) {
  return (
    <>
      <div className="field">
        <label htmlFor={`${idPrefix}-timezone`}>Timezone</label>
        <input
          id={`${idPrefix}-timezone`}
          className="input"
          list={`${idPrefix}-zones`}
          value={timezone}
          disabled={disabled}
          onChange={(e) => onTimezone(e.target.value)}
        />
        <datalist id={`${idPrefix}-zones`}>
          {ZONES.map((z) => (
            <option key={z} value={z} />
          ))}
        </datalist>
      </div>
      <fieldset className="field">
        <legend>Working days</legend>
        {WEEKDAYS.map((d) => (
          <span key={d} className="field-check">
            <input
              id={`${idPrefix}-day-${d}`}
              type="checkbox"
              checked={days.includes(d)}
              disabled={disabled}
              onChange={(e) => onDays(e.target.checked ? [...days, d] : days.filter((x) => x !== d))}
            />
            <label htmlFor={`${idPrefix}-day-${d}`}>{WEEKDAY_LABELS[d]}</label>
          </span>
        ))}
      </fieldset>
    </>
  );
}

function SettingsForm({
  settings,
  setNotice,
}: {
  settings: CelebrationSettings;
  setNotice: (n: NoticeMessage | undefined) => void;
}) {
  const channels = useChannels();
  const save = useSaveCelebrationSettings();
  const [channelId, setChannelId] = useState(settings.channel_id ?? "");
  const [postTime, setPostTime] = useState(settings.post_time);
  const [birthdays, setBirthdays] = useState(settings.birthdays);
  const [anniversaries, setAnniversaries] = useState(settings.anniversaries);
  const [admins, setAdmins] = useState<string[]>(settings.admins);
  const people = usePeople();
  const activePeople = useMemo(() => (people.data ?? []).filter((p) => p.active), [people.data]);
  const knownPeople = usePeopleById();
  const [timezone, setTimezone] = useState(settings.timezone);
  const [days, setDays] = useState<string[]>(settings.working_days);
  const [problem, setProblem] = useState<string | undefined>();
  const disabled = !settings.can_manage || save.isPending;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!channelId) return setProblem("Choose the channel to post in.");
    if (days.length === 0) return setProblem("Choose at least one working day.");
    setProblem(undefined);
    save.mutate(
      {
        channel_id: channelId,
        timezone: timezone.trim(),
        working_days: WEEKDAYS.filter((d) => days.includes(d)),
        post_time: postTime,
        birthdays,
        anniversaries,
        admins,
      },
      {
        onSuccess: () => setNotice({ kind: "success", text: "Celebrations settings saved." }),
        onError: (err) => setNotice({ kind: "error", text: errorMessage(err) }),
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate aria-labelledby="celebrations-settings-title">
      <div className="field">
        <label htmlFor="celebrations-channel">Channel</label>
        <ChannelPicker
          id="celebrations-channel"
          value={channelId}
          channels={channels.data}
          disabled={disabled}
          onChange={setChannelId}
          placeholder="Search channels"
        />
      </div>
      <CalendarFields
        timezone={timezone}
        onTimezone={setTimezone}
        days={days}
        onDays={setDays}
        disabled={disabled}
        idPrefix="celebrations"
      />
      <div className="field">
        <label htmlFor="celebrations-time">Post time</label>
        <input
          id="celebrations-time"
          type="time"
          className="input"
          value={postTime}
          disabled={disabled}
          onChange={(e) => setPostTime(e.target.value)}
          aria-describedby="celebrations-time-help"
        />
        <p id="celebrations-time-help" className="field-help">
          In the workspace calendar's timezone, on working days that are not holidays (holidays are on the Calendar
          page).
        </p>
      </div>
      <div className="field field-check">
        <input
          id="celebrations-birthdays"
          type="checkbox"
          checked={birthdays}
          disabled={disabled}
          onChange={(e) => setBirthdays(e.target.checked)}
        />
        <label htmlFor="celebrations-birthdays">Celebrate birthdays</label>
      </div>
      <div className="field field-check">
        <input
          id="celebrations-anniversaries"
          type="checkbox"
          checked={anniversaries}
          disabled={disabled}
          onChange={(e) => setAnniversaries(e.target.checked)}
        />
        <label htmlFor="celebrations-anniversaries">Celebrate work anniversaries</label>
      </div>
      <div className="field">
        <label htmlFor="celebrations-admins">Celebrations admins</label>
        <PeopleMultiPicker
          id="celebrations-admins"
          people={activePeople}
          known={knownPeople}
          value={admins}
          disabled={disabled}
          onChange={setAdmins}
          placeholder="Search by name or @handle"
          describedBy="celebrations-admins-help"
        />
        <p id="celebrations-admins-help" className="field-help">
          People who may manage Celebrations and the calendar without being workspace admins.
        </p>
      </div>
      <p className="muted">
        {settings.can_react
          ? "Each post gets a 🎉 reaction."
          : "Posts go without the 🎉 reaction: reinstall the app to grant it the reactions permission."}
      </p>
      {problem ? (
        <p className="form-error" role="alert">
          {problem}
        </p>
      ) : null}
      {settings.can_manage ? (
        <button type="submit" className="button button-primary" disabled={save.isPending}>
          {save.isPending ? "Saving…" : "Save settings"}
        </button>
      ) : (
        <p className="muted">Only workspace admins and Celebrations admins can change these.</p>
      )}
    </form>
  );
}

/** A member's view of the settings: what they are, in words; only admins get the form. */
function SettingsSummary({ settings }: { settings: CelebrationSettings }) {
  const channels = useChannels();
  const name = usePersonName();
  const channel = settings.channel_id
    ? `#${channels.data?.find((c) => c.id === settings.channel_id)?.name ?? "a channel"}`
    : "none set: nothing is posted";
  const kinds = [settings.birthdays ? "birthdays" : "", settings.anniversaries ? "work anniversaries" : ""].filter(
    Boolean,
  );
  const rows: [string, string][] = [
    ["Channel", channel],
    ["Celebrates", kinds.length > 0 ? kinds.join(" and ") : "nothing (both are off)"],
    ["Post time", `${settings.post_time} (${settings.timezone})`],
    ["Working days", settings.working_days.map((d) => WEEKDAY_LABELS[d]).join(", ") || "none"],
    ["Celebrations admins", settings.admins.map((id) => name(id)).join(", ") || "none"],
  ];
  return (
    <>
      <dl className="schedule-facts">
        {rows.map(([term, value]) => (
          <div key={term}>
            <dt>{term}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <p className="muted">
        Only workspace admins and Celebrations admins can change these and see the upcoming list. Your own birthday and
        start date are on your profile.
      </p>
    </>
  );
}

export function CelebrationsPage() {
  const settings = useCelebrationSettings();
  const [manage, setManage] = useState(false);
  const [notice, setNotice] = useState<NoticeMessage | undefined>();
  useEffect(() => setManage(Boolean(settings.data?.can_manage)), [settings.data?.can_manage]);
  return (
    <>
      <PageHeader
        title="Celebrations"
        lead="Birthdays and work anniversaries, posted in a channel on the working day of (or before) each one."
      />
      <section className="card" aria-labelledby="celebrations-settings-title">
        <h2 id="celebrations-settings-title">Settings</h2>
        {notice ? (
          <Notice kind={notice.kind} onDismiss={() => setNotice(undefined)}>
            {notice.text}
          </Notice>
        ) : null}
        <QueryView query={settings} loading="Loading Celebrations settings…">
          {(s) =>
            s.can_manage ? (
              <SettingsForm key={JSON.stringify(s)} settings={s} setNotice={setNotice} />
            ) : (
              <SettingsSummary settings={s} />
            )
          }
        </QueryView>
      </section>
      {manage ? (
        <>
          <section className="card" aria-labelledby="celebrations-upcoming-title">
            <h2 id="celebrations-upcoming-title">Next 30 days</h2>
            <Upcoming channelSet={Boolean(settings.data?.channel_id)} />
          </section>
          <section className="card" aria-labelledby="celebrations-ask-title">
            <h2 id="celebrations-ask-title">Ask for missing dates</h2>
            <AskDates />
          </section>
        </>
      ) : null}
    </>
  );
}
