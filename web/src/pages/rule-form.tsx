import { type FormEvent, useMemo, useState } from "react";
import { ChannelPicker } from "../components/channel-picker.tsx";
import { PeoplePicker } from "../components/people-picker.tsx";
import { FormError } from "../components/states.tsx";
import { useCreateRule } from "../lib/mutations.ts";
import { useChannels, useMembers, usePeople, useStandups } from "../lib/queries.ts";
import { useStandupLabel } from "../lib/standup-label.ts";
import type { Rule, RuleAction, RuleInput, RuleTrigger } from "../lib/types.ts";

/** What the server allows (src/features/rules/rules.input.ts). */
export const MAX_RULES = 100;
const THRESHOLDS: Record<Exclude<RuleTrigger, "blocker_reported">, { min: number; max: number; step: number }> = {
  participation_below: { min: 0, max: 100, step: 1 },
  mood_below: { min: 1, max: 5, step: 0.1 },
  blocker_open_days: { min: 1, max: 90, step: 1 },
};
const DEFAULT_THRESHOLD: Record<RuleTrigger, string> = {
  blocker_reported: "",
  participation_below: "60",
  mood_below: "3",
  blocker_open_days: "3",
};

const TRIGGER_LABELS: Record<RuleTrigger, string> = {
  blocker_reported: "Someone reports a blocker",
  participation_below: "Participation at the close is below…",
  mood_below: "Average mood at the close is below…",
  blocker_open_days: "Blocker open for N days",
};
const THRESHOLD_PROBLEM: Record<Exclude<RuleTrigger, "blocker_reported">, string> = {
  participation_below: "Enter a percentage from 0 to 100.",
  mood_below: "Enter an average mood from 1 (😫) to 5 (😀).",
  blocker_open_days: "Enter a whole number of days from 1 to 90.",
};
const THRESHOLD_LABEL: Record<Exclude<RuleTrigger, "blocker_reported">, string> = {
  participation_below: "Percentage",
  mood_below: "Mood score (1–5)",
  blocker_open_days: "Days (1–90)",
};
const THRESHOLD_HELP: Record<Exclude<RuleTrigger, "blocker_reported">, string> = {
  participation_below: "Checked when a standup closes: who answered of those asked.",
  mood_below: "Checked when a standup closes: 😫 1 to 😀 5, days without moods never fire.",
  blocker_open_days: "Checked when a standup closes: once per blocker still open that many days after it was reported.",
};
const ACTION_LABELS: Record<RuleAction, string> = {
  post_to_channel: "Post in a channel",
  dm_admin: "Send a DM to an admin",
};

interface FormState {
  trigger: RuleTrigger;
  threshold: string;
  action: RuleAction;
  channelId: string;
  adminId: string;
  scheduleId: string;
}

const EMPTY: FormState = {
  trigger: "blocker_reported",
  threshold: "",
  action: "post_to_channel",
  channelId: "",
  adminId: "",
  scheduleId: "",
};

/** The body to send, or why the form cannot be sent yet (the server checks everything again). */
function toInput(form: FormState): RuleInput | string {
  let threshold: number | null = null;
  if (form.trigger !== "blocker_reported") {
    const range = THRESHOLDS[form.trigger];
    threshold = form.threshold.trim() === "" ? Number.NaN : Number(form.threshold);
    const whole = form.trigger !== "blocker_open_days" || Number.isInteger(threshold);
    if (!Number.isFinite(threshold) || !whole || threshold < range.min || threshold > range.max) {
      return THRESHOLD_PROBLEM[form.trigger];
    }
  }
  const target = form.action === "post_to_channel" ? form.channelId : form.adminId;
  if (!target) return form.action === "post_to_channel" ? "Choose a channel." : "Choose an admin.";
  return {
    trigger: form.trigger,
    trigger_threshold: threshold,
    action: form.action,
    action_target: target,
    schedule_id: form.scheduleId || null,
    active: true,
  };
}

export function CreateRule({ count, onCreated }: { count: number; onCreated: (rule: Rule) => void }) {
  const channels = useChannels();
  const members = useMembers();
  const standups = useStandups();
  const label = useStandupLabel();
  const create = useCreateRule();
  const [form, setForm] = useState<FormState>(EMPTY);
  const [problem, setProblem] = useState<string | undefined>();
  const update = (patch: Partial<FormState>) => setForm((f) => ({ ...f, ...patch }));

  const people = usePeople();
  // Active admins, with their names and pictures from the people list.
  const admins = useMemo(() => {
    const ids = new Set((members.data ?? []).filter((m) => m.role === "admin" && m.active).map((m) => m.user_id));
    return (people.data ?? []).filter((p) => ids.has(p.user_id));
  }, [members.data, people.data]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const input = toInput(form);
    if (typeof input === "string") {
      create.reset();
      return setProblem(input);
    }
    setProblem(undefined);
    create.mutate(input, {
      onSuccess: (rule) => {
        setForm((f) => ({ ...EMPTY, action: f.action, channelId: f.channelId, adminId: f.adminId }));
        onCreated(rule);
      },
    });
  };
  const range = form.trigger === "blocker_reported" ? undefined : THRESHOLDS[form.trigger];
  const full = count >= MAX_RULES;

  return (
    <form className="card" onSubmit={submit} noValidate aria-labelledby="new-rule-title">
      <h2 id="new-rule-title">Add a rule</h2>
      <div className="field-row">
        <div className="field field-grow">
          <label htmlFor="rule-trigger">When</label>
          <select
            id="rule-trigger"
            className="input"
            value={form.trigger}
            onChange={(e) => {
              const trigger = e.target.value as RuleTrigger;
              update({ trigger, threshold: DEFAULT_THRESHOLD[trigger] });
            }}
          >
            {(Object.keys(TRIGGER_LABELS) as RuleTrigger[]).map((t) => (
              <option key={t} value={t}>
                {TRIGGER_LABELS[t]}
              </option>
            ))}
          </select>
        </div>
        {range ? (
          <div className="field field-time">
            <label htmlFor="rule-threshold">{THRESHOLD_LABEL[form.trigger as keyof typeof THRESHOLD_LABEL]}</label>
            <input
              id="rule-threshold"
              className="input"
              type="number"
              inputMode="decimal"
              min={range.min}
              max={range.max}
              step={range.step}
              value={form.threshold}
              onChange={(e) => update({ threshold: e.target.value })}
              aria-describedby="rule-threshold-help"
            />
            <p id="rule-threshold-help" className="field-help">
              {THRESHOLD_HELP[form.trigger as keyof typeof THRESHOLD_HELP]}
            </p>
          </div>
        ) : null}
        <div className="field field-grow">
          <label htmlFor="rule-standup">In</label>
          <select
            id="rule-standup"
            className="input"
            value={form.scheduleId}
            onChange={(e) => update({ scheduleId: e.target.value })}
          >
            <option value="">Every standup</option>
            {standups.data?.map((s) => (
              <option key={s.id} value={s.id}>
                {label(s.id)}
              </option>
            ))}
          </select>
        </div>
      </div>
      <div className="field-row">
        <div className="field field-grow">
          <label htmlFor="rule-action">Then</label>
          <select
            id="rule-action"
            className="input"
            value={form.action}
            onChange={(e) => update({ action: e.target.value as RuleAction })}
          >
            {(Object.keys(ACTION_LABELS) as RuleAction[]).map((a) => (
              <option key={a} value={a}>
                {ACTION_LABELS[a]}
              </option>
            ))}
          </select>
        </div>
        {form.action === "post_to_channel" ? (
          <div className="field field-grow">
            <label htmlFor="rule-channel">Channel</label>
            <ChannelPicker
              id="rule-channel"
              value={form.channelId}
              channels={channels.data}
              onChange={(channelId) => update({ channelId })}
              placeholder={channels.isError ? "Channels could not load" : "Search channels"}
              required
              describedBy="rule-channel-help"
            />
            <p id="rule-channel-help" className="field-help">
              Invite Upbeat to the channel first; for a private channel, it is the only way it can post there.
            </p>
          </div>
        ) : (
          <div className="field field-grow">
            <label htmlFor="rule-admin">Admin</label>
            <PeoplePicker
              id="rule-admin"
              people={admins}
              value={form.adminId}
              onChange={(adminId) => update({ adminId })}
              placeholder={members.isError || people.isError ? "Admins could not load" : "Search admins by name"}
              required
            />
          </div>
        )}
      </div>
      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={create.isPending || full}>
          {create.isPending ? "Adding…" : "Add rule"}
        </button>
      </div>
      {full ? <p className="field-help">A workspace can have {MAX_RULES} rules. Delete one to add another.</p> : null}
      <FormError error={problem ?? create.error} />
    </form>
  );
}
