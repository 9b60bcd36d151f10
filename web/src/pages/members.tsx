import { type FormEvent, useMemo, useState } from "react";
import { ConfirmDialog } from "../components/confirm-dialog.tsx";
import { PageHeader } from "../components/layout.tsx";
import { Empty, FormError, Notice, type NoticeMessage, QueryView } from "../components/states.tsx";
import { errorMessage } from "../lib/api.ts";
import { useChangeRole, useInviteMember } from "../lib/mutations.ts";
import { useMembers } from "../lib/queries.ts";
import type { Me, Member, Role } from "../lib/types.ts";

const PAGE = 100;

function InviteForm({ onInvited }: { onInvited: (member: Member) => void }) {
  const [userId, setUserId] = useState("");
  const invite = useInviteMember();
  /** A problem found before sending; otherwise the invite's own error shows. */
  const [problem, setProblem] = useState<string | undefined>();
  const error = problem ?? invite.error;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const id = userId.trim().toUpperCase();
    const found = /^[A-Z0-9]{2,32}$/.test(id) ? undefined : "Enter a Slack user id such as U0123ABCD.";
    setProblem(found);
    if (found) return invite.reset();
    invite.mutate(id, {
      onSuccess: (member) => {
        setUserId("");
        onInvited(member);
      },
    });
  };
  return (
    <form className="card invite" onSubmit={submit} noValidate>
      <h2>Add a member</h2>
      <div className="field">
        <label htmlFor="invite-user">Slack user id</label>
        <div className="input-group">
          <input
            id="invite-user"
            className="input"
            value={userId}
            onChange={(e) => setUserId(e.target.value)}
            placeholder="U0123ABCD"
            spellCheck={false}
            autoComplete="off"
            aria-describedby="invite-help"
            aria-invalid={error ? true : undefined}
          />
          <button type="submit" className="button button-primary" disabled={invite.isPending || !userId.trim()}>
            {invite.isPending ? "Adding…" : "Add member"}
          </button>
        </div>
        <p id="invite-help" className="field-help">
          In Slack, open the person's profile, choose ⋮ and <strong>Copy member ID</strong>. People joining the
          workspace are added automatically.
        </p>
        <FormError error={error} />
      </div>
    </form>
  );
}

export function MembersPage({ me }: { me: Me }) {
  const members = useMembers();
  const roleChange = useChangeRole();
  const [filter, setFilter] = useState("");
  const [shown, setShown] = useState(PAGE);
  const [notice, setNotice] = useState<NoticeMessage | undefined>();
  const [selfDemote, setSelfDemote] = useState<Member | undefined>();

  const filtered = useMemo(() => {
    const q = filter.trim().toLowerCase();
    const list = [...(members.data ?? [])].sort(
      (a, b) =>
        Number(b.active) - Number(a.active) || (a.real_name || a.user_id).localeCompare(b.real_name || b.user_id),
    );
    if (!q) return list;
    return list.filter((m) => `${m.real_name} ${m.email} ${m.user_id}`.toLowerCase().includes(q));
  }, [members.data, filter]);

  const changeRole = (member: Member, role: Role) => {
    setNotice(undefined);
    roleChange.mutate(
      { userId: member.user_id, role },
      {
        onSuccess: () => {
          // Without the admin role this page (and the menu) no longer apply: start again as a member.
          if (member.user_id === me.user_id && role !== "admin") return window.location.assign("/dashboard");
          setNotice({
            kind: "success",
            text: `${member.real_name || member.user_id} is now ${role === "admin" ? "an admin" : "a member"}.`,
          });
        },
        onError: (err) => setNotice({ kind: "error", text: errorMessage(err) }),
      },
    );
  };

  const admins = members.data?.filter((m) => m.role === "admin" && m.active).length ?? 0;
  return (
    <>
      <PageHeader title="Members" lead="Who Upbeat knows in this workspace, and who can change settings." />
      <InviteForm
        onInvited={(member) => {
          setNotice({ kind: "success", text: `Added ${member.real_name || member.user_id}.` });
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
                  placeholder="Name, e-mail or user id"
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
                            <span className="member-name">{m.real_name || m.user_id}</span>
                            <span className="member-meta">
                              {m.user_id}
                              {m.user_id === me.user_id ? " · you" : ""}
                              {m.active ? "" : " · deactivated"}
                            </span>
                          </th>
                          <td className="hide-narrow">{m.email || <span className="muted">–</span>}</td>
                          <td className="hide-narrow">
                            {m.tz ? m.tz.replace(/_/g, " ") : <span className="muted">–</span>}
                          </td>
                          <td>
                            <label className="sr-only" htmlFor={`role-${m.user_id}`}>
                              Role for {m.real_name || m.user_id}
                            </label>
                            <select
                              id={`role-${m.user_id}`}
                              className="input input-compact"
                              value={m.role}
                              disabled={
                                (roleChange.isPending && roleChange.variables.userId === m.user_id) || !m.active
                              }
                              onChange={(e) => {
                                const role = e.target.value as Role;
                                if (m.user_id === me.user_id && role !== "admin") setSelfDemote(m);
                                else changeRole(m, role);
                              }}
                            >
                              <option value="member">Member</option>
                              <option value="admin">Admin</option>
                            </select>
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
      <ConfirmDialog
        open={selfDemote !== undefined}
        title="Remove your own admin role?"
        confirmLabel="Make me a member"
        danger
        busy={roleChange.isPending}
        onConfirm={() => {
          if (selfDemote) changeRole(selfDemote, "member");
          setSelfDemote(undefined);
        }}
        onCancel={() => setSelfDemote(undefined)}
      >
        <p>You will lose access to members, AI access and the public feed. Another admin can give it back.</p>
      </ConfirmDialog>
    </>
  );
}
