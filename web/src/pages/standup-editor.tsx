import { type FormEvent, useEffect, useMemo, useRef, useState } from "react";
import { Combobox, type ComboOption } from "../components/combobox.tsx";
import { PageHeader } from "../components/layout.tsx";
import { Loading, Notice, QueryView } from "../components/states.tsx";
import { errorMessage } from "../lib/api.ts";
import { formatStandupTime, parseDays, WEEKDAY_LABELS, WEEKDAYS, type Weekday } from "../lib/format.ts";
import { useCreateStandup, useUpdateStandup } from "../lib/mutations.ts";
import { useChannels, useMe, useStandups, useTemplates } from "../lib/queries.ts";
import { Link, navigate } from "../lib/router.tsx";
import { allTimezones, browserTimezone, timezoneMatches, utcOffset } from "../lib/timezones.ts";
import type { Channel, Schedule, ScheduleInput } from "../lib/types.ts";
import { PauseStandupDialog } from "./pause-dialog.tsx";
import {
  canBeBlocker,
  MAX_QUESTIONS,
  type Question,
  QuestionRow,
  questionInput,
  questionProblems,
  toQuestions,
} from "./question-editor.tsx";
import { channelLabel, setStandupsFlash } from "./standups.tsx";

/** Limits the server enforces (schedules.input.ts). */
const MAX_NAME_LENGTH = 80;
const MAX_ANSWER_EARLY_HOURS = 16;
const DEFAULT_ANSWER_EARLY_HOURS = 12;
const DEFAULT_QUESTIONS = ["What did you complete yesterday?", "What are you working on today?", "Any blockers?"];
/** Reminder choices in minutes after the ask; a stored value that is not among them is offered too. */
const REMINDER_CHOICES = [15, 30, 60, 90, 120, 180, 240, 360, 480, 600];
const DEFAULT_REMINDER = 120;

interface FormState {
  channelId: string;
  /** Empty: the default name, "#<channel> standup". */
  name: string;
  time: string;
  tz: string;
  days: Weekday[];
  questions: Question[];
  /** The blocker question follows its question when questions move; null: none. */
  blockerKey: number | null;
  /** null: no reminder. */
  reminderMinutes: number | null;
  askInMemberTimezone: boolean;
  /** The answer modal's optional shout-out that gives kudos. */
  kudosField: boolean;
  /** Post an AI summary in the thread at close (needs a model on the server). */
  aiSummary: boolean;
  /** Hours before a run that members may answer it ahead, as typed (0–16). */
  answerEarlyHours: string;
  active: boolean;
}

/**
 * A template marks no blocker question: the text question that asks about blocking, else the third one (every
 * built-in template asks what is in the way third, as the server's default blocker question is the third).
 */
function guessBlockerKey(questions: Question[]): number | null {
  const named = questions.find((q) => canBeBlocker(q) && /block|imped|stuck|in the way/i.test(q.text));
  const third = questions[2];
  return named?.key ?? (third && canBeBlocker(third) ? third.key : null);
}

function initialState(schedule: Schedule | undefined, channels: Channel[] | undefined): FormState {
  if (schedule) {
    const questions = toQuestions(schedule.questions, schedule.question_details);
    return {
      channelId: schedule.channel_id,
      // A default name is shown as the placeholder, so it keeps following the channel.
      name: isDefaultName(schedule, channels) ? "" : schedule.name,
      time: schedule.schedule_time,
      tz: schedule.schedule_tz,
      days: parseDays(schedule.schedule_days),
      questions,
      blockerKey: schedule.blocker_question ? (questions[schedule.blocker_question - 1]?.key ?? null) : null,
      reminderMinutes: schedule.reminder_minutes,
      askInMemberTimezone: schedule.ask_in_member_timezone,
      kudosField: schedule.kudos_field,
      aiSummary: schedule.ai_summary,
      answerEarlyHours: String(schedule.answer_early_hours),
      active: schedule.active,
    };
  }
  const questions = toQuestions(DEFAULT_QUESTIONS);
  return {
    channelId: "",
    name: "",
    time: "09:30",
    tz: browserTimezone(),
    days: ["mon", "tue", "wed", "thu", "fri"],
    questions,
    blockerKey: questions[2]?.key ?? null,
    reminderMinutes: DEFAULT_REMINDER,
    askInMemberTimezone: false,
    kudosField: false,
    aiSummary: false,
    answerEarlyHours: String(DEFAULT_ANSWER_EARLY_HOURS),
    active: true,
  };
}

/** The server names a standup "#<channel name> standup" ("Standup in a channel" while the name is unknown; older
 * versions said "#<channel id> standup") unless an admin named it. */
function isDefaultName(schedule: Schedule, channels: Channel[] | undefined): boolean {
  const channelName = channels?.find((c) => c.id === schedule.channel_id)?.name;
  return (
    schedule.name === `#${schedule.channel_id} standup` ||
    schedule.name === "Standup in a channel" ||
    (channelName !== undefined && schedule.name === `#${channelName} standup`)
  );
}

function reminderLabel(minutes: number): string {
  if (minutes < 60) return `${minutes} minutes after the ask`;
  const hours = minutes / 60;
  return Number.isInteger(hours)
    ? `${hours} hour${hours === 1 ? "" : "s"} after the ask`
    : `${Math.floor(hours)} h ${minutes % 60} min after the ask`;
}

/** Every problem with the form at once (not one per save), or undefined when it can be sent. */
function validate(form: FormState): string | undefined {
  const problems: string[] = [];
  if (!form.channelId.trim()) problems.push("Choose the channel the standup runs in.");
  if (!/^([01]\d|2[0-3]):[0-5]\d$/.test(form.time)) problems.push("Enter the time as HH:MM.");
  if (!form.tz) problems.push("Choose a timezone.");
  if (form.days.length === 0) problems.push("Pick at least one weekday.");
  if ([...form.name.trim()].length > MAX_NAME_LENGTH) problems.push(`Keep the name to ${MAX_NAME_LENGTH} characters.`);
  const early = form.answerEarlyHours.trim();
  if (!/^\d{1,2}$/.test(early) || Number(early) > MAX_ANSWER_EARLY_HOURS) {
    problems.push(`Answer ahead takes whole hours from 0 to ${MAX_ANSWER_EARLY_HOURS}.`);
  }
  problems.push(...questionProblems(form.questions));
  return problems.length > 0 ? problems.join(" ") : undefined;
}

export function StandupEditorPage({ id }: { id?: string }) {
  return id ? <EditStandup id={id} /> : <StandupForm />;
}

function EditStandup({ id }: { id: string }) {
  const schedules = useStandups();
  const channels = useChannels();
  // The channel names tell a default name from one an admin chose, so the form waits for them (or their failure).
  if (channels.isPending) return <Loading label="Loading the standup…" />;
  return (
    <QueryView query={schedules} loading="Loading the standup…">
      {(list) => {
        const schedule = list.find((s) => s.id === id);
        if (schedule) return <StandupForm schedule={schedule} />;
        return (
          <>
            <PageHeader title="Standup not found" />
            <p>
              This standup does not exist or was deleted. <Link to="/standups">Back to standups</Link>
            </p>
          </>
        );
      }}
    </QueryView>
  );
}

function StandupForm({ schedule }: { schedule?: Schedule }) {
  const channels = useChannels();
  const standups = useStandups();
  const templates = useTemplates();
  const createStandup = useCreateStandup();
  const updateStandup = useUpdateStandup();
  const save = schedule ? updateStandup : createStandup;
  const [form, setForm] = useState<FormState>(() => initialState(schedule, channels.data));
  /** A problem found before sending; otherwise the save's own error shows. */
  const [problem, setProblem] = useState<string | undefined>();
  const error = problem ?? (save.error ? errorMessage(save.error) : undefined);
  const [template, setTemplate] = useState("");
  const [undo, setUndo] = useState<{ name: string; previous: Question[]; blockerKey: number | null } | undefined>();
  /** Changes that pause an active standup, held until the admin confirms (pausing stops today's open run). */
  const [pausing, setPausing] = useState<ScheduleInput | undefined>();
  const errorRef = useRef<HTMLDivElement>(null);
  const update = (patch: Partial<FormState>) => setForm((f) => ({ ...f, ...patch }));
  // Without a model on the server the box cannot be ticked (one already ticked stays as it is until unticked).
  const aiAvailable = useMe().data?.ai_summaries_available === true;

  useEffect(() => {
    if (error) errorRef.current?.focus();
  }, [error]);

  const channelOptions = useMemo<ComboOption[]>(() => {
    const list: ComboOption[] = (channels.data ?? []).map((c) => ({ value: c.id, label: `#${c.name}` }));
    // Keep a channel the list no longer shows (archived, bot removed) selectable as it is.
    if (form.channelId && !list.some((o) => o.value === form.channelId)) {
      list.unshift({ value: form.channelId, label: channelLabel(channels.data, form.channelId), hint: "current" });
    }
    return list;
  }, [channels.data, form.channelId]);

  const tzOptions = useMemo<ComboOption[]>(() => {
    const zones = allTimezones();
    const list = zones.includes(form.tz) || !form.tz ? zones : [form.tz, ...zones];
    return list.map((z) => ({ value: z, label: z.replace(/_/g, " "), hint: utcOffset(z) }));
  }, [form.tz]);
  // "09:30 Berlin · 08:30 your time" while the time and zone are valid; each person's own clock has no one time.
  const asksAt =
    !form.askInMemberTimezone && /^([01]\d|2[0-3]):[0-5]\d$/.test(form.time) && allTimezones().includes(form.tz)
      ? formatStandupTime(form.time, form.tz)
      : undefined;

  const setQuestion = (key: number, patch: Partial<Question>) =>
    update({ questions: form.questions.map((q) => (q.key === key ? { ...q, ...patch } : q)) });
  const moveQuestion = (index: number, delta: number) => {
    const next = [...form.questions];
    const [item] = next.splice(index, 1);
    if (item) next.splice(index + delta, 0, item);
    update({ questions: next });
  };
  const toggleDay = (day: Weekday) =>
    update({ days: form.days.includes(day) ? form.days.filter((d) => d !== day) : [...form.days, day] });

  const applyTemplate = () => {
    const chosen = templates.data?.find((t) => t.name === template);
    if (!chosen) return;
    setUndo({ name: chosen.name, previous: form.questions, blockerKey: form.blockerKey });
    // Templates may say how each question is answered (typed templates); without that, every question is text.
    const questions = toQuestions(chosen.questions.slice(0, MAX_QUESTIONS), chosen.question_details);
    update({ questions, blockerKey: guessBlockerKey(questions) });
  };

  /** Another active standup asks the same channel: allowed (two teams, two rhythms), but people get both. */
  const sameChannel = form.active
    ? (standups.data ?? []).filter((s) => s.active && s.channel_id === form.channelId && s.id !== schedule?.id)
    : [];
  // A question made typed or anonymous stops being the blocker question.
  const blockerIndex = form.questions.findIndex((q) => q.key === form.blockerKey && canBeBlocker(q));
  // The chosen blocker question still exists but was just made anonymous, optional or typed: said where it happens.
  const lostBlocker = blockerIndex < 0 ? form.questions.findIndex((q) => q.key === form.blockerKey) : -1;
  const reminderChoices =
    form.reminderMinutes === null || REMINDER_CHOICES.includes(form.reminderMinutes)
      ? REMINDER_CHOICES
      : [...REMINDER_CHOICES, form.reminderMinutes].sort((a, b) => a - b);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = validate(form);
    setProblem(found);
    if (found) return save.reset();
    const body: ScheduleInput = {
      channel_id: form.channelId.trim(),
      name: form.name.trim() || null,
      schedule_time: form.time,
      schedule_tz: form.tz,
      schedule_days: WEEKDAYS.filter((d) => form.days.includes(d)).join(","),
      questions: form.questions.map(questionInput),
      blocker_question: blockerIndex >= 0 ? blockerIndex + 1 : null,
      reminder_minutes: form.reminderMinutes,
      ask_in_member_timezone: form.askInMemberTimezone,
      kudos_field: form.kudosField,
      ai_summary: form.aiSummary,
      answer_early_hours: Number(form.answerEarlyHours.trim()),
      active: form.active,
    };
    if (schedule?.active && !body.active) return setPausing(body);
    send(body);
  };

  const send = (body: ScheduleInput) => {
    const saved = (answer: Schedule) => {
      setStandupsFlash(
        `${schedule ? "Saved" : "Created"} the standup in ${channelLabel(channels.data, answer.channel_id)}.`,
      );
      navigate("/standups");
    };
    if (schedule) updateStandup.mutate({ id: schedule.id, changes: body }, { onSuccess: saved });
    else createStandup.mutate(body, { onSuccess: saved });
  };

  const channelsFailed = channels.isError || channels.data?.length === 0;
  const saving = save.isPending || save.isSuccess;
  return (
    <>
      <PageHeader title={schedule ? "Edit standup" : "New standup"}>
        <Link to="/standups" className="button">
          Cancel
        </Link>
      </PageHeader>
      <form className="form card" onSubmit={submit} noValidate aria-describedby={error ? "form-error" : undefined}>
        {error ? (
          <div id="form-error" ref={errorRef} tabIndex={-1} className="notice notice-error" role="alert">
            {error}
          </div>
        ) : null}

        <div className="field">
          <label htmlFor="channel">Channel</label>
          {channels.isPending ? (
            <Loading label="Loading channels…" />
          ) : channelsFailed ? (
            <>
              <input
                id="channel"
                className="input"
                value={form.channelId}
                onChange={(e) => update({ channelId: e.target.value.toUpperCase() })}
                placeholder="C0123ABCD"
                required
                aria-describedby="channel-help"
                spellCheck={false}
                autoComplete="off"
              />
              <p id="channel-help" className="field-help">
                {channels.error
                  ? `The channel list could not be loaded (${errorMessage(channels.error)}). Enter the channel id instead: in Slack, open the channel details; the id is at the bottom.`
                  : "No public channels found. Invite Upbeat to a channel, or enter a channel id."}
              </p>
            </>
          ) : (
            <>
              <Combobox
                id="channel"
                value={form.channelId}
                options={channelOptions}
                onChange={(channelId) => update({ channelId })}
                placeholder="Search channels"
                required
                describedBy="channel-help"
              />
              <p id="channel-help" className="field-help">
                Public channels Upbeat can see. Participants are the channel's members.
              </p>
            </>
          )}
        </div>

        {sameChannel.length > 0 ? (
          <Notice kind="warning">
            {channelLabel(channels.data, form.channelId)} already has an active standup (
            {sameChannel.map((s) => s.name).join(", ")}): its members will be asked by both.
          </Notice>
        ) : null}

        <div className="field">
          <label htmlFor="name">Name</label>
          <input
            id="name"
            className="input"
            value={form.name}
            maxLength={MAX_NAME_LENGTH}
            onChange={(e) => update({ name: e.target.value })}
            placeholder={form.channelId ? `${channelLabel(channels.data, form.channelId)} standup` : "#channel standup"}
            aria-describedby="name-help"
          />
          <p id="name-help" className="field-help">
            Shown in the dashboard and Slack. Leave empty for “#channel standup”.
          </p>
        </div>

        <div className="field-row">
          <div className="field field-time">
            <label htmlFor="time">Time</label>
            <input
              id="time"
              type="time"
              className="input"
              value={form.time}
              onChange={(e) => update({ time: e.target.value })}
              required
            />
          </div>
          <div className="field field-grow">
            <label htmlFor="timezone">Timezone</label>
            <Combobox
              id="timezone"
              value={form.tz}
              options={tzOptions}
              onChange={(tz) => update({ tz })}
              matches={(option, search) => timezoneMatches(option.value, search)}
              placeholder="Search timezones, e.g. Berlin"
              required
              describedBy="timezone-help"
            />
            <p id="timezone-help" className="field-help">
              The standup follows this zone's clock, daylight saving time included.
              {asksAt ? ` It asks at ${asksAt} today.` : ""}
            </p>
          </div>
        </div>

        <fieldset className="field">
          <legend>Days</legend>
          <div className="day-toggles">
            {WEEKDAYS.map((day) => (
              <label key={day} className="day-toggle">
                <input type="checkbox" checked={form.days.includes(day)} onChange={() => toggleDay(day)} />
                <span className="day-toggle-label" aria-hidden="true">
                  {WEEKDAY_LABELS[day].short}
                </span>
                <span className="sr-only">{WEEKDAY_LABELS[day].long}</span>
              </label>
            ))}
          </div>
        </fieldset>

        <fieldset className="field">
          <legend>Questions</legend>
          <div className="template-picker">
            <label htmlFor="template" className="sr-only">
              Question template
            </label>
            <select
              id="template"
              className="input"
              value={template}
              onChange={(e) => setTemplate(e.target.value)}
              disabled={!templates.data}
            >
              <option value="">{templates.error ? "Templates could not load" : "Choose a template…"}</option>
              {templates.data?.map((t) => (
                <option key={t.name} value={t.name}>
                  {t.name} ({t.questions.length})
                </option>
              ))}
            </select>
            <button type="button" className="button" onClick={applyTemplate} disabled={!template}>
              Use template
            </button>
          </div>
          {undo ? (
            <Notice kind="success" onDismiss={() => setUndo(undefined)}>
              Questions replaced with “{undo.name}”.{" "}
              <button
                type="button"
                className="button-link"
                onClick={() => {
                  update({ questions: undo.previous, blockerKey: undo.blockerKey });
                  setUndo(undefined);
                }}
              >
                Undo
              </button>
            </Notice>
          ) : null}
          <ol className="questions">
            {form.questions.map((q, index) => (
              <QuestionRow
                key={q.key}
                question={q}
                index={index}
                count={form.questions.length}
                onChange={(patch) => setQuestion(q.key, patch)}
                onMove={(delta) => moveQuestion(index, delta)}
                onRemove={() => update({ questions: form.questions.filter((x) => x.key !== q.key) })}
              />
            ))}
          </ol>
          <div className="questions-footer">
            <button
              type="button"
              className="button"
              onClick={() => update({ questions: [...form.questions, ...toQuestions([""])] })}
              disabled={form.questions.length >= MAX_QUESTIONS}
            >
              Add question
            </button>
            <span className="field-help">
              {form.questions.length} of {MAX_QUESTIONS}.
            </span>
          </div>
          <p id="anonymous-help" className="field-help">
            Anonymous answers are stored without the name, shown only when 5 or more answer.
          </p>
          <div className="field field-blocker">
            <label htmlFor="blocker-question">Blocker question</label>
            <select
              id="blocker-question"
              className="input"
              value={blockerIndex >= 0 ? String(form.questions[blockerIndex]!.key) : ""}
              onChange={(e) => update({ blockerKey: e.target.value ? Number(e.target.value) : null })}
              aria-describedby="blocker-help"
            >
              <option value="">None</option>
              {form.questions.map((q, index) =>
                canBeBlocker(q) ? (
                  <option key={q.key} value={String(q.key)}>
                    {index + 1}. {q.text.trim().slice(0, 60) || "(empty)"}
                  </option>
                ) : null,
              )}
            </select>
            <p id="blocker-help" className="field-help">
              Its answers are the blockers: highlighted in the thread and counted as active blockers. Only required text
              questions that are not anonymous can be it.
            </p>
            {lostBlocker >= 0 ? (
              <p className="field-warning" role="status">
                Question {lostBlocker + 1} can no longer be the blocker question (it is not a required, named text
                question): this standup will track no blockers unless you choose one.
              </p>
            ) : null}
          </div>
        </fieldset>

        <div className="field">
          <label htmlFor="reminder">Reminder</label>
          <select
            id="reminder"
            className="input"
            value={form.reminderMinutes === null ? "" : String(form.reminderMinutes)}
            onChange={(e) => update({ reminderMinutes: e.target.value ? Number(e.target.value) : null })}
            aria-describedby="reminder-help"
          >
            <option value="">No reminder</option>
            {reminderChoices.map((m) => (
              <option key={m} value={String(m)}>
                {reminderLabel(m)}
              </option>
            ))}
          </select>
          <p id="reminder-help" className="field-help">
            One direct message to those who have not answered yet.
          </p>
        </div>

        <div className="field field-early">
          <label htmlFor="answer-early">Answer ahead (hours)</label>
          <input
            id="answer-early"
            className="input"
            type="number"
            inputMode="numeric"
            min={0}
            max={MAX_ANSWER_EARLY_HOURS}
            step={1}
            value={form.answerEarlyHours}
            onChange={(e) => update({ answerEarlyHours: e.target.value })}
            aria-describedby="answer-early-help"
          />
          <p id="answer-early-help" className="field-help">
            From this many hours before a run, people can answer it ahead from the app's Home tab (0 to{" "}
            {MAX_ANSWER_EARLY_HOURS}; 0 turns it off).
          </p>
        </div>

        <div className="field">
          <div className="field-check">
            <input
              id="member-tz"
              type="checkbox"
              checked={form.askInMemberTimezone}
              onChange={(e) => update({ askInMemberTimezone: e.target.checked })}
              aria-describedby="member-tz-help"
            />
            <label htmlFor="member-tz">Ask each person at this time in their own timezone</label>
          </div>
          <p id="member-tz-help" className="field-help">
            For teams across timezones: everyone is asked at {form.time || "the chosen time"} on their own clock, on the
            chosen weekdays of their own calendar.
          </p>
        </div>

        <div className="field">
          <div className="field-check">
            <input
              id="kudos-field"
              type="checkbox"
              checked={form.kudosField}
              onChange={(e) => update({ kudosField: e.target.checked })}
              aria-describedby="kudos-field-help"
            />
            <label htmlFor="kudos-field">Add a shout-out to the answer form</label>
          </div>
          <p id="kudos-field-help" className="field-help">
            An optional field where people pick teammates to thank: each gets a kudo, shown on the Kudos page.
          </p>
        </div>

        <div className="field">
          <div className="field-check">
            <input
              id="ai-summary"
              type="checkbox"
              className={aiAvailable ? undefined : "check-unavailable"}
              checked={form.aiSummary}
              disabled={!aiAvailable && !form.aiSummary}
              onChange={(e) => update({ aiSummary: e.target.checked })}
              aria-describedby="ai-summary-help"
            />
            <label htmlFor="ai-summary">Post an AI summary in the thread at close</label>
          </div>
          <p id="ai-summary-help" className="field-help">
            {aiAvailable
              ? "A few sentences by your server's model (themes, risks, blockers, who needs help), labelled as generated. Anonymous answers are never sent."
              : "AI summaries are off on this server: set LLM_API_URL and LLM_MODEL (and LLM_API_KEY if your model needs one) and restart Upbeat."}
          </p>
        </div>

        <div className="field field-check">
          <input
            id="active"
            type="checkbox"
            checked={form.active}
            onChange={(e) => update({ active: e.target.checked })}
          />
          <label htmlFor="active">Active: run on the chosen days (untick to pause)</label>
        </div>

        <div className="form-actions">
          <button type="submit" className="button button-primary" disabled={saving} aria-busy={saving}>
            {saving ? "Saving…" : schedule ? "Save changes" : "Create standup"}
          </button>
          <Link to="/standups" className="button">
            Cancel
          </Link>
        </div>
      </form>
      <PauseStandupDialog
        schedule={pausing ? schedule : undefined}
        channel={schedule ? channelLabel(channels.data, schedule.channel_id) : ""}
        busy={false}
        error={undefined}
        onConfirm={() => {
          // A failed save shows its error in the form, like any other.
          if (pausing) send(pausing);
          setPausing(undefined);
        }}
        onCancel={() => setPausing(undefined)}
      />
    </>
  );
}
