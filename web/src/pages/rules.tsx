import { useState } from "react";
import { ConfirmDialog } from "../components/confirm-dialog.tsx";
import { PageHeader } from "../components/layout.tsx";
import { Empty, Notice, type NoticeMessage, QueryView } from "../components/states.tsx";
import { errorMessage } from "../lib/api.ts";
import { useDeleteRule, useUpdateRule } from "../lib/mutations.ts";
import { FORMER_MEMBER } from "../lib/people.ts";
import { useChannels, useMembers, useRules } from "../lib/queries.ts";
import { ruleFiredWords } from "../lib/rule-fired.ts";
import { type StandupLabel, useStandupLabel } from "../lib/standup-label.ts";
import type { Channel, Member, Rule } from "../lib/types.ts";
import { CreateRule, MAX_RULES } from "./rule-form.tsx";
import { channelLabel } from "./standups.tsx";

function describeTrigger(rule: Pick<Rule, "trigger" | "trigger_threshold">): string {
  if (rule.trigger === "blocker_reported") return "Someone reports a blocker";
  if (rule.trigger === "participation_below") return `Participation below ${rule.trigger_threshold ?? "?"} %`;
  if (rule.trigger === "blocker_open_days") {
    const n = rule.trigger_threshold ?? "?";
    return `Blocker open for ${n} ${n === 1 ? "day" : "days"}`;
  }
  return `Average mood below ${rule.trigger_threshold ?? "?"} (of 5)`;
}

function memberName(members: Member[] | undefined, userId: string): string {
  const m = members?.find((x) => x.user_id === userId);
  // An admin since removed reads as "Former member", never as an id.
  return m?.real_name || FORMER_MEMBER;
}

function describeAction(rule: Rule, channels: Channel[] | undefined, members: Member[] | undefined): string {
  return rule.action === "post_to_channel"
    ? `Post in ${channelLabel(channels, rule.action_target)}`
    : `DM ${memberName(members, rule.action_target)}`;
}

function describeStandup(rule: Rule, label: StandupLabel): string {
  return rule.schedule_id ? label(rule.schedule_id) : "Every standup";
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
            <th scope="col" className="hide-narrow">
              In
            </th>
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
                <th scope="row">
                  {describeTrigger(r)}
                  {/* Narrow screens drop the "In" column: the standup reads under the trigger instead. */}
                  <span className="muted show-narrow rule-in">
                    {r.schedule_id ? `in ${label(r.schedule_id)}` : "in every standup"}
                  </span>
                  <span className="muted fact-note rule-fired">{ruleFiredWords(r)}</span>
                </th>
                <td className="hide-narrow">{describeStandup(r, label)}</td>
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
