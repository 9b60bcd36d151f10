import { type FormEvent, useMemo, useState } from "react";
import { PeoplePicker } from "../components/people-picker.tsx";
import { FormError } from "../components/states.tsx";
import { useInviteMember } from "../lib/mutations.ts";
import { usePeople } from "../lib/queries.ts";
import type { Member } from "../lib/types.ts";

/**
 * Add a member. Upbeat adds everyone in the workspace by itself (on install, daily and when someone joins), so
 * the people worth offering are those it knows but who are not active members: someone deactivated who is back.
 * Someone it has never seen (joined since the last sync) is added by Slack member ID, behind a disclosure.
 */
export function InviteForm({ onInvited }: { onInvited: (member: Member) => void }) {
  const people = usePeople();
  const candidates = useMemo(() => (people.data ?? []).filter((p) => !p.active), [people.data]);
  const [picked, setPicked] = useState("");
  const [typedId, setTypedId] = useState("");
  const invite = useInviteMember();
  /** A problem found before sending; otherwise the invite's own error shows. */
  const [problem, setProblem] = useState<string | undefined>();
  const error = problem ?? invite.error;
  const send = (id: string, done: () => void) => {
    invite.mutate(id, {
      onSuccess: (member) => {
        done();
        onInvited(member);
      },
    });
  };
  const submitPicked = (event: FormEvent) => {
    event.preventDefault();
    setProblem(picked ? undefined : "Choose someone to add.");
    if (!picked) return invite.reset();
    send(picked, () => setPicked(""));
  };
  const submitId = (event: FormEvent) => {
    event.preventDefault();
    const id = typedId.trim().toUpperCase();
    const found = /^[A-Z0-9]{2,32}$/.test(id) ? undefined : "Enter a Slack member ID such as U0123ABCD.";
    setProblem(found);
    if (found) return invite.reset();
    send(id, () => setTypedId(""));
  };
  return (
    <section className="card invite" aria-labelledby="invite-title">
      <h2 id="invite-title">Add a member</h2>
      <p id="invite-help" className="field-help">
        Everyone in the Slack workspace is added automatically when they join and at each sync. Here you can bring back
        someone who was deactivated.
      </p>
      <form onSubmit={submitPicked} noValidate className="field">
        <label htmlFor="invite-person">Person</label>
        <div className="input-group">
          <PeoplePicker
            id="invite-person"
            people={candidates}
            value={picked}
            onChange={setPicked}
            placeholder={candidates.length ? "Search by name or @handle" : "Nobody to add back"}
            describedBy="invite-help"
            invalid={Boolean(error) && !typedId}
          />
          <button type="submit" className="button button-primary" disabled={invite.isPending || !picked}>
            {invite.isPending ? "Adding…" : "Add member"}
          </button>
        </div>
      </form>
      <details className="invite-by-id">
        <summary>Not in the list? Add by Slack member ID</summary>
        <form onSubmit={submitId} noValidate className="field">
          <label htmlFor="invite-user">Slack member ID</label>
          <div className="input-group">
            <input
              id="invite-user"
              className="input"
              value={typedId}
              onChange={(e) => setTypedId(e.target.value)}
              placeholder="U0123ABCD"
              spellCheck={false}
              autoComplete="off"
              aria-describedby="invite-id-help"
              aria-invalid={error && typedId ? true : undefined}
            />
            <button type="submit" className="button" disabled={invite.isPending || !typedId.trim()}>
              Add by ID
            </button>
          </div>
          <p id="invite-id-help" className="field-help">
            In Slack, open the person's profile, choose ⋮ and <strong>Copy member ID</strong>.
          </p>
        </form>
      </details>
      <FormError error={error} />
    </section>
  );
}
