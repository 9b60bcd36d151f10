import { type FormEvent, useEffect, useMemo, useState } from "react";
import { ChannelPicker } from "../components/channel-picker.tsx";
import { PageHeader } from "../components/layout.tsx";
import { PeopleMultiPicker } from "../components/people-picker.tsx";
import { Empty, Notice, type NoticeMessage, QueryView } from "../components/states.tsx";
import { errorMessage } from "../lib/api.ts";
import {
  useAskDatesPreview,
  useCelebrationSettings,
  useSaveCelebrationSettings,
  useSendAskDates,
  useUpcoming,
} from "../lib/celebrations.ts";
import { formatLongDay } from "../lib/format.ts";
import { usePeopleById } from "../lib/people.ts";
import { useChannels, usePeople } from "../lib/queries.ts";
import type { CelebrationSettings } from "../lib/types.ts";

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

function Upcoming() {
  const upcoming = useUpcoming(true);
  return (
    <QueryView query={upcoming} loading="Loading upcoming celebrations…">
      {(list) =>
        list.length === 0 ? (
          <Empty title="Nothing to celebrate in the next 30 days." />
        ) : (
          <div className="table-wrap">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Who</th>
                  <th scope="col">What</th>
                  <th scope="col">Date</th>
                  {/* Secondary at phone width, where four columns would overflow the card. */}
                  <th scope="col" className="hide-narrow">
                    Posted
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.map((c) => (
                  <tr key={`${c.kind}-${c.user_id}-${c.date}`}>
                    <td>{c.name}</td>
                    <td>
                      {c.kind === "birthday"
                        ? "Birthday"
                        : `Work anniversary (${c.years} year${c.years === 1 ? "" : "s"})`}
                    </td>
                    <td>{formatLongDay(c.date)}</td>
                    <td className="hide-narrow">{c.post_date ? formatLongDay(c.post_date) : "—"}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )
      }
    </QueryView>
  );
}

function AskDates() {
  const channels = useChannels();
  /** The message as Slack shows it: a channel mention reads as #name. */
  const readable = (text: string) =>
    text.replace(/<#([A-Z0-9]+)>/g, (_, id: string) => `#${channels.data?.find((c) => c.id === id)?.name ?? id}`);
  const preview = useAskDatesPreview(true);
  const send = useSendAskDates();
  const [notice, setNotice] = useState<NoticeMessage | undefined>();
  return (
    <QueryView query={preview} loading="Counting who is missing dates…">
      {(p) => (
        <>
          {notice ? (
            <Notice kind={notice.kind} onDismiss={() => setNotice(undefined)}>
              {notice.text}
            </Notice>
          ) : null}
          <p>
            {p.count === 0
              ? "Nobody to ask right now: everyone has their dates, opted out, or was asked in the last 30 days."
              : `${p.count} ${p.count === 1 ? "person is" : "people are"} missing a birthday or a start date.`}
          </p>
          <blockquote className="muted">{readable(p.text)}</blockquote>
          <button
            type="button"
            className="button"
            disabled={p.count === 0 || send.isPending}
            onClick={() =>
              send.mutate(undefined, {
                onSuccess: (r) =>
                  setNotice({ kind: "success", text: `Asked ${r.sent} ${r.sent === 1 ? "person" : "people"}.` }),
                onError: (err) => setNotice({ kind: "error", text: errorMessage(err) }),
              })
            }
          >
            {send.isPending ? "Sending…" : "Ask them in Slack"}
          </button>
        </>
      )}
    </QueryView>
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
          {(s) => <SettingsForm key={JSON.stringify(s)} settings={s} setNotice={setNotice} />}
        </QueryView>
      </section>
      {manage ? (
        <>
          <section className="card" aria-labelledby="celebrations-upcoming-title">
            <h2 id="celebrations-upcoming-title">Next 30 days</h2>
            <Upcoming />
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
