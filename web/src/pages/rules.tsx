import { type FormEvent, useMemo, useState } from "react";
import { Combobox, type ComboOption } from "../components/combobox.tsx";
import { ConfirmDialog } from "../components/confirm-dialog.tsx";
import { PageHeader } from "../components/layout.tsx";
import { Empty, FormError, Notice, type NoticeMessage, QueryView } from "../components/states.tsx";
import { errorMessage } from "../lib/api.ts";
import { useCreateRule, useDeleteRule, useUpdateRule } from "../lib/mutations.ts";
import { useChannels, useMembers, useRules, useStandups } from "../lib/queries.ts";
import { type StandupLabel, useStandupLabel } from "../lib/standup-label.ts";
import type { Channel, Member, Rule, RuleAction, RuleInput, RuleTrigger } from "../lib/types.ts";
import { channelLabel } from "./standups.tsx";

/** What the server allows (src/features/rules/rules.input.ts). */
const MAX_RULES = 100;
const THRESHOLDS: Record<Exclude<RuleTrigger, "blocker_reported">, { min: number; max: number; step: number }> = {
  participation_below: { min: 0, max: 100, step: 1 },
  mood_below: { min: 1, max: 5, step: 0.1 },
};
const DEFAULT_THRESHOLD: Record<RuleTrigger, string> = {
  blocker_reported: "",
  participation_below: "60",
  mood_below: "3",
};

const TRIGGER_LABELS: Record<RuleTrigger, string> = {
  blocker_reported: "Someone reports a blocker",
  participation_below: "Participation at the close is below…",
  mood_below: "Average mood at the close is below…",
};
const ACTION_LABELS: Record<RuleAction, string> = {
  post_to_channel: "Post in a channel",
  dm_admin: "Send a DM to an admin",
};

function describeTrigger(rule: Pick<Rule, "trigger" | "trigger_threshold">): string {
  if (rule.trigger === "blocker_reported") return "Someone reports a blocker";
  if (rule.trigger === "participation_below") return `Participation below ${rule.trigger_threshold ?? "?"} %`;
  return `Average mood below ${rule.trigger_threshold ?? "?"} (of 5)`;
}

function memberName(members: Member[] | undefined, userId: string): string {
  const m = members?.find((x) => x.user_id === userId);
  return m?.real_name || userId;
}

function describeAction(rule: Rule, channels: Channel[] | undefined, members: Member[] | undefined): string {
  return rule.action === "post_to_channel"
    ? `Post in ${channelLabel(channels, rule.action_target)}`
    : `DM ${memberName(members, rule.action_target)}`;
}

function describeStandup(rule: Rule, label: StandupLabel): string {
  return rule.schedule_id ? label(rule.schedule_id) : "Every standup";
}

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
    if (!Number.isFinite(threshold) || threshold < range.min || threshold > range.max) {
      return form.trigger === "participation_below"
        ? "Enter a percentage from 0 to 100."
        : "Enter an average mood from 1 (😫) to 5 (😀).";
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

function CreateRule({ count, onCreated }: { count: number; onCreated: (rule: Rule) => void }) {
  const channels = useChannels();
  const members = useMembers();
  const standups = useStandups();
  const label = useStandupLabel();
  const create = useCreateRule();
  const [form, setForm] = useState<FormState>(EMPTY);
  const [problem, setProblem] = useState<string | undefined>();
  const update = (patch: Partial<FormState>) => setForm((f) => ({ ...f, ...patch }));

  const channelOptions = useMemo<ComboOption[]>(
    () => (channels.data ?? []).map((c) => ({ value: c.id, label: `#${c.name}`, hint: c.id })),
    [channels.data],
  );
  const admins = useMemo(
    () =>
      (members.data ?? [])
        .filter((m) => m.role === "admin" && m.active)
        .sort((a, b) => (a.real_name || a.user_id).localeCompare(b.real_name || b.user_id)),
    [members.data],
  );

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
            <label htmlFor="rule-threshold">
              {form.trigger === "participation_below" ? "Percentage" : "Mood score (1–5)"}
            </label>
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
              {form.trigger === "participation_below"
                ? "Checked when a standup closes: who answered of those asked."
                : "Checked when a standup closes: 😫 1 to 😀 5, days without moods never fire."}
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
            <Combobox
              id="rule-channel"
              value={form.channelId}
              options={channelOptions}
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
            <select
              id="rule-admin"
              className="input"
              value={form.adminId}
              onChange={(e) => update({ adminId: e.target.value })}
            >
              <option value="">{members.isError ? "Admins could not load" : "Choose an admin…"}</option>
              {admins.map((m) => (
                <option key={m.user_id} value={m.user_id}>
                  {m.real_name || m.user_id}
                </option>
              ))}
            </select>
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

function RuleList({
  rules,
  busyId,
  onToggle,
  onDelete,
}: {
  rules: Rule[];
  busyId: number | undefined;
  onToggle: (rule: Rule) => void;
  onDelete: (rule: Rule) => void;
}) {
  const channels = useChannels();
  const members = useMembers();
  const label = useStandupLabel();
  if (rules.length === 0) {
    return (
      <Empty title="No rules yet">
        <p>Add one above to hear about blockers, low participation or low mood where someone acts on them.</p>
      </Empty>
    );
  }
  return (
    <div className="table-wrap">
      <table className="table">
        <caption className="sr-only">Workflow rules</caption>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">In</th>
            <th scope="col">Then</th>
            <th scope="col">Active</th>
            <th scope="col">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rules.map((r) => {
            const name = `${describeTrigger(r)}: ${describeAction(r, channels.data, members.data)}`;
            return (
              <tr key={r.id} className={r.active ? undefined : "row-inactive"}>
                <th scope="row">{describeTrigger(r)}</th>
                <td>{describeStandup(r, label)}</td>
                <td>{describeAction(r, channels.data, members.data)}</td>
                <td>
                  <div className="field-check">
                    <input
                      id={`rule-active-${r.id}`}
                      type="checkbox"
                      role="switch"
                      checked={r.active}
                      aria-checked={r.active}
                      disabled={busyId === r.id}
                      onChange={() => onToggle(r)}
                      aria-label={`Active: ${name}`}
                    />
                    <label htmlFor={`rule-active-${r.id}`} aria-hidden="true">
                      {r.active ? "On" : "Off"}
                    </label>
                  </div>
                </td>
                <td className="actions-cell">
                  <button
                    type="button"
                    className="button button-small button-danger-outline"
                    onClick={() => onDelete(r)}
                  >
                    Delete<span className="sr-only"> rule {name}</span>
                  </button>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

export function RulesPage() {
  const rules = useRules();
  const channels = useChannels();
  const members = useMembers();
  const toggle = useUpdateRule();
  const remove = useDeleteRule();
  const [notice, setNotice] = useState<NoticeMessage | undefined>();
  const [deleting, setDeleting] = useState<Rule | undefined>();

  const onToggle = (rule: Rule) => {
    setNotice(undefined);
    toggle.mutate(
      { id: rule.id, changes: { active: !rule.active } },
      {
        onSuccess: (saved) =>
          setNotice({ kind: "success", text: `${describeTrigger(saved)}: turned ${saved.active ? "on" : "off"}.` }),
        onError: (err) => setNotice({ kind: "error", text: errorMessage(err) }),
      },
    );
  };
  const confirmDelete = () => {
    if (!deleting) return;
    remove.mutate(deleting.id, {
      onSuccess: () => {
        setNotice({ kind: "success", text: `Deleted the rule "${describeTrigger(deleting)}".` });
        setDeleting(undefined);
      },
    });
  };

  return (
    <>
      <PageHeader
        title="Rules"
        lead="Raise blockers, low participation and low mood where someone acts on them: in a channel, or in an admin's DMs."
      />
      <CreateRule
        count={rules.data?.length ?? 0}
        onCreated={(rule) => setNotice({ kind: "success", text: `Added the rule "${describeTrigger(rule)}".` })}
      />
      {notice ? (
        <Notice kind={notice.kind} onDismiss={() => setNotice(undefined)}>
          {notice.text}
        </Notice>
      ) : null}
      <section className="panel" aria-labelledby="rules-title">
        <div className="panel-head">
          <h2 id="rules-title">Rules</h2>
          {rules.data ? <span className="muted">{`${rules.data.length} of ${MAX_RULES}`}</span> : null}
        </div>
        <QueryView query={rules} loading="Loading rules…">
          {(list) => (
            <RuleList
              rules={list}
              busyId={toggle.isPending ? toggle.variables?.id : undefined}
              onToggle={onToggle}
              onDelete={(r) => {
                remove.reset();
                setDeleting(r);
              }}
            />
          )}
        </QueryView>
      </section>
      <ConfirmDialog
        open={deleting !== undefined}
        title="Delete this rule?"
        confirmLabel="Delete rule"
        danger
        busy={remove.isPending}
        error={remove.error}
        onConfirm={confirmDelete}
        onCancel={() => setDeleting(undefined)}
      >
        <p>
          <strong>{deleting ? describeTrigger(deleting) : ""}</strong>
          {deleting ? ` → ${describeAction(deleting, channels.data, members.data)}` : ""}. It stops at once; to pause it
          instead, turn it off.
        </p>
      </ConfirmDialog>
    </>
  );
}
