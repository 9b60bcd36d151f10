import { useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useEffect, useMemo, useRef, useState } from "react";
import { Avatar } from "../components/avatar.tsx";
import { ConfirmDialog } from "../components/confirm-dialog.tsx";
import { FailedChatEvents } from "../components/failed-chat-events.tsx";
import { PageHeader } from "../components/layout.tsx";
import { Empty, FormError, Notice, type NoticeMessage, QueryView } from "../components/states.tsx";
import { errorMessage } from "../lib/api.ts";
import { formatInstant } from "../lib/format.ts";
import { useChangeRole, useDeleteMemberData, useDeleteWorkspace, useSyncMembers } from "../lib/mutations.ts";
import { foldText, personName, usePeopleById } from "../lib/people.ts";
import { keys, useMemberSync, useMembers } from "../lib/queries.ts";
import type { Me, Member, MemberSyncStatus, Role } from "../lib/types.ts";
import { InviteForm } from "./member-invite.tsx";
import { type PendingRole, RoleDialog } from "./role-dialog.tsx";

const PAGE = 100;

/** A member's name; a member Slack never named reads as "Former member", never as their id. */
const nameOf = (m: Pick<Member, "real_name">) => personName({ real_name: m.real_name, display_name: "" });

const REASONS: Record<NonNullable<MemberSyncStatus["reason"]>, string> = {
  install: "at install",
  daily: "daily resync",
  manual: "started by an admin",
};

function syncSummary(s: MemberSyncStatus): string {
  if (s.state === "running") return "Reading the workspace's people from Slack now…";
  if (s.state === "queued")
    return s.outcome === "failed" ? "The last try failed; trying again shortly." : "Queued: it starts in a moment.";
  if (!s.finished_at) return "Not synced yet.";
  const when = formatInstant(s.finished_at);
  const why = s.reason ? ` (${REASONS[s.reason]})` : "";
  if (s.outcome === "failed") return `Last sync failed ${when}${why}: ${s.error ?? "unknown error"}`;
  const changes = [
    `${s.listed ?? 0} people in Slack`,
    `${s.added ?? 0} added`,
    `${s.deactivated ?? 0} deactivated`,
    ...(s.reactivated ? [`${s.reactivated} back`] : []),
  ].join(", ");
  return `Last synced ${when}${why}: ${changes}.`;
}

/** When Upbeat last read the workspace's people from Slack, and "Sync now". */
function SyncPanel() {
  const status = useMemberSync();
  const sync = useSyncMembers();
  const client = useQueryClient();
  const previous = useRef<MemberSyncStatus["state"] | undefined>(undefined);
  const state = status.data?.state;
  useEffect(() => {
    // A sync that just ended may have changed the list.
    if (previous.current && previous.current !== "idle" && state === "idle") {
      void client.invalidateQueries({ queryKey: keys.members(), exact: true });
      void client.invalidateQueries({ queryKey: keys.people(), exact: true });
    }
    previous.current = state;
  }, [state, client]);
  const busy = sync.isPending || (state !== undefined && state !== "idle");
  return (
    <section className="card member-sync" aria-labelledby="member-sync-title">
      <h2 id="member-sync-title">Sync with Slack</h2>
      <QueryView query={status} loading="Loading sync status…">
        {(s) => (
          <>
            <p
              role="status"
              aria-live="polite"
              className={s.outcome === "failed" && s.state === "idle" ? "form-error" : undefined}
            >
              {syncSummary(s)}
            </p>
            <p className="field-help">
              People who join, leave or change in Slack are updated as it happens; a full resync runs daily (next{" "}
              {formatInstant(s.next_daily_at)}).
            </p>
          </>
        )}
      </QueryView>
      <button type="button" className="button" disabled={busy} onClick={() => sync.mutate()}>
        {busy ? "Syncing…" : "Sync now"}
      </button>
      <FormError error={sync.error} />
    </section>
  );
}

/** Deletes every row of the workspace, after the admin types its name back exactly. */
function DangerZone({ me }: { me: Me }) {
  const [typed, setTyped] = useState("");
  const remove = useDeleteWorkspace();
  const matches = typed.trim() === me.team_name;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!matches) return;
    // Signed out by the deletion: the sign-in page says what happened (app.tsx reads ?deleted=).
    remove.mutate(typed, {
      onSuccess: (result) =>
        window.location.assign(`/dashboard?deleted=${result.token_revoked ? "revoked" : "token-kept"}`),
    });
  };
  return (
    <section className="panel panel-danger" aria-labelledby="danger-title">
      <div className="panel-head">
        <h2 id="danger-title">Danger zone</h2>
      </div>
      <p>
        Deleting the workspace removes every standup, answer, kudo, profile, rule, webhook, key and setting Upbeat keeps
        for <strong>{me.team_name}</strong>, revokes its Slack token and signs everyone out. It cannot be undone;
        installing Upbeat again starts from nothing.
      </p>
      <form onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor="delete-workspace-confirm">Type the workspace name to confirm</label>
          <input
            id="delete-workspace-confirm"
            className="input"
            autoComplete="off"
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            placeholder={me.team_name}
          />
        </div>
        <button type="submit" className="button button-danger" disabled={!matches || remove.isPending}>
          {remove.isPending ? "Deleting…" : "Delete workspace data"}
        </button>
      </form>
      <FormError error={remove.error} />
    </section>
  );
}

export function MembersPage({ me }: { me: Me }) {
  const members = useMembers();
  const byId = usePeopleById();
  const roleChange = useChangeRole();
  const deleteData = useDeleteMemberData();
  const [toDelete, setToDelete] = useState<Member | undefined>();
  const [filter, setFilter] = useState("");
  const [shown, setShown] = useState(PAGE);
  const [notice, setNotice] = useState<NoticeMessage | undefined>();
  const [pendingRole, setPendingRole] = useState<PendingRole | undefined>();

  const filtered = useMemo(() => {
    const q = filter.trim().toLowerCase();
    const list = [...(members.data ?? [])].sort(
      (a, b) => Number(b.active) - Number(a.active) || nameOf(a).localeCompare(nameOf(b)),
    );
    if (!q) return list;
    return list.filter((m) =>
      foldText(`${m.real_name} ${byId.get(m.user_id)?.display_name ?? ""} ${m.email}`).includes(foldText(q)),
    );
  }, [members.data, filter, byId]);

  const changeRole = (member: Member, role: Role) => {
    setNotice(undefined);
    roleChange.mutate(
      { userId: member.user_id, role },
      {
        onSuccess: () => {
          // Without the admin role this page (and the menu) no longer apply: start again as a member.
          if (member.user_id === me.user_id && role !== "admin") return window.location.assign("/dashboard");
          setPendingRole(undefined);
          setNotice({
            kind: "success",
            text: `${nameOf(member)} is now ${role === "admin" ? "an admin" : "a member"}.`,
          });
        },
        // The dialog stays open and says why.
      },
    );
  };

  const admins = members.data?.filter((m) => m.role === "admin" && m.active).length ?? 0;
  return (
    <>
      <PageHeader title="Members" lead="Who Upbeat knows in this workspace, and who can change settings." />
      <SyncPanel />
      <InviteForm
        onInvited={(member) => {
          setNotice({ kind: "success", text: `Added ${nameOf(member)}.` });
        }}
      />
      {notice ? (
        <Notice kind={notice.kind} onDismiss={() => setNotice(undefined)}>
          {notice.text}
        </Notice>
      ) : null}
      <QueryView query={members} loading="Loading members…">
        {(list) =>
          list.length === 0 ? (
            <Empty title="No members yet">
              <p>Members appear once Upbeat has read the workspace's people from Slack.</p>
            </Empty>
          ) : (
            <section className="panel" aria-labelledby="members-title">
              <div className="panel-head">
                <h2 id="members-title">
                  {list.length} {list.length === 1 ? "person" : "people"}
                </h2>
                <span className="muted">{admins === 1 ? "1 admin" : `${admins} admins`}</span>
              </div>
              <div className="field">
                <label htmlFor="member-filter">Search members</label>
                <input
                  id="member-filter"
                  type="search"
                  className="input"
                  value={filter}
                  onChange={(e) => {
                    setFilter(e.target.value);
                    setShown(PAGE);
                  }}
                  placeholder="Name, @handle or e-mail"
                />
              </div>
              {filtered.length === 0 ? (
                <Empty title="No one matches" />
              ) : (
                <div className="table-wrap">
                  <table className="table table-members">
                    <caption className="sr-only">Members and their roles</caption>
                    <thead>
                      <tr>
                        <th scope="col">Name</th>
                        <th scope="col" className="hide-narrow">
                          E-mail
                        </th>
                        <th scope="col" className="hide-narrow">
                          Timezone
                        </th>
                        <th scope="col">Role</th>
                      </tr>
                    </thead>
                    <tbody>
                      {filtered.slice(0, shown).map((m) => (
                        <tr key={m.user_id} className={m.active ? undefined : "row-inactive"}>
                          <th scope="row">
                            <span className="member-who">
                              <Avatar name={nameOf(m)} url={byId.get(m.user_id)?.avatar_url} size={32} />
                              <span>
                                <span className="member-name">{nameOf(m)}</span>
                                <span className="member-meta">
                                  {[
                                    byId.get(m.user_id)?.display_name ? `@${byId.get(m.user_id)?.display_name}` : "",
                                    m.user_id === me.user_id ? "you" : "",
                                    m.active ? "" : "deactivated",
                                  ]
                                    .filter(Boolean)
                                    .join(" · ")}
                                </span>
                              </span>
                            </span>
                          </th>
                          <td className="hide-narrow">{m.email || <span className="muted">–</span>}</td>
                          <td className="hide-narrow">
                            {m.tz ? m.tz.replace(/_/g, " ") : <span className="muted">–</span>}
                          </td>
                          <td>
                            <label className="sr-only" htmlFor={`role-${m.user_id}`}>
                              Role for {nameOf(m)}
                            </label>
                            <select
                              id={`role-${m.user_id}`}
                              className="input input-compact"
                              value={m.role}
                              disabled={
                                (roleChange.isPending && roleChange.variables.userId === m.user_id) || !m.active
                              }
                              onChange={(e) => {
                                // The select keeps showing the current role until the change is confirmed and saved.
                                roleChange.reset();
                                setPendingRole({ member: m, role: e.target.value as Role });
                              }}
                            >
                              <option value="member">Member</option>
                              <option value="admin">Admin</option>
                            </select>
                            {m.active ? null : (
                              <button
                                type="button"
                                className="button button-danger-outline member-delete"
                                disabled={deleteData.isPending}
                                onClick={() => setToDelete(m)}
                              >
                                Delete data<span className="sr-only"> of {nameOf(m)}</span>
                              </button>
                            )}
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              )}
              {filtered.length > shown ? (
                <div className="more">
                  <span className="muted">
                    Showing {shown} of {filtered.length}
                  </span>
                  <button type="button" className="button" onClick={() => setShown((n) => n + PAGE)}>
                    Show more
                  </button>
                </div>
              ) : null}
            </section>
          )
        }
      </QueryView>
      <RoleDialog
        pending={pendingRole}
        self={pendingRole?.member.user_id === me.user_id && pendingRole.role !== "admin"}
        busy={roleChange.isPending}
        error={roleChange.error}
        onConfirm={() => pendingRole && changeRole(pendingRole.member, pendingRole.role)}
        onCancel={() => setPendingRole(undefined)}
      />
      <ConfirmDialog
        open={toDelete !== undefined}
        title={`Delete everything about ${toDelete ? nameOf(toDelete) : ""}?`}
        confirmLabel="Delete data"
        danger
        busy={deleteData.isPending}
        onConfirm={() => {
          const member = toDelete;
          setToDelete(undefined);
          if (!member) return;
          deleteData.mutate(member.user_id, {
            onSuccess: () => setNotice({ kind: "success", text: `Deleted the data of ${nameOf(member)}.` }),
            onError: (err) => setNotice({ kind: "error", text: errorMessage(err) }),
          });
        }}
        onCancel={() => setToDelete(undefined)}
      >
        <p>
          Their answers, standup participation, profile dates, time off, kudos they gave or received, e-mail settings,
          messages and webhooks still to be sent about them and their member entry are deleted for good. Rules that DM
          them are deleted; they are taken out of Celebrations admins, and mentions of them in others' answers become
          "@former member".
        </p>
      </ConfirmDialog>
      <FailedChatEvents />
      <DangerZone me={me} />
    </>
  );
}
