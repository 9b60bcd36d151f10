import { ConfirmDialog } from "../components/confirm-dialog.tsx";
import type { Member, Role } from "../lib/types.ts";

/** A role change waiting for its confirmation. */
export interface PendingRole {
  member: Member;
  role: Role;
}

/** Confirms a role change before it applies: what the person gains or loses, and whether it is the admin themselves. */
export function RoleDialog(props: {
  pending: PendingRole | undefined;
  self: boolean;
  busy: boolean;
  error: unknown;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const { pending, self, busy, error, onConfirm, onCancel } = props;
  const name = pending ? pending.member.real_name || "this member" : "";
  const toAdmin = pending?.role === "admin";
  const title = self ? "Remove your own admin role?" : toAdmin ? `Make ${name} an admin?` : `Make ${name} a member?`;
  return (
    <ConfirmDialog
      open={pending !== undefined}
      title={title}
      confirmLabel={self ? "Make me a member" : toAdmin ? "Make admin" : "Make member"}
      danger={!toAdmin}
      busy={busy}
      error={error}
      onConfirm={onConfirm}
      onCancel={onCancel}
    >
      {self ? (
        <p>You will lose access to members, API keys and the public feed. Another admin can give it back.</p>
      ) : toAdmin ? (
        <p>
          {name} can then set up, pause and delete standups, change members' roles, delete people's data, and manage
          rules, webhooks, API keys, the public feed and e-mail.
        </p>
      ) : (
        <p>
          {name} loses the admin pages and can no longer change standups or other people's settings. They keep answering
          standups and seeing reports. An admin can make them an admin again.
        </p>
      )}
    </ConfirmDialog>
  );
}
