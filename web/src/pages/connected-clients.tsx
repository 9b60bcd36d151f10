import { useState } from "react";
import { ConfirmDialog } from "../components/confirm-dialog.tsx";
import { Empty, Notice, QueryView } from "../components/states.tsx";
import { relativeTime, scopesInWords, useGrants, useRevokeGrant } from "../lib/ai-clients.ts";
import { formatInstant } from "../lib/format.ts";
import type { OAuthGrant } from "../lib/types.ts";

/** "Read only · connected 3 days ago by Maya Okafor · last used never". */
function narrowFacts(g: OAuthGrant, isAdmin: boolean): string {
  const who = isAdmin ? ` by ${g.mine ? "you" : g.user_name}` : "";
  return `${scopesInWords(g.scopes)} · connected ${relativeTime(g.created_at)}${who} · last used ${relativeTime(g.last_used_at)}`;
}

function GrantRows({
  grants,
  isAdmin,
  onRevoke,
}: {
  grants: OAuthGrant[];
  isAdmin: boolean;
  onRevoke: (g: OAuthGrant) => void;
}) {
  if (grants.length === 0) {
    return (
      // Revoked approvals are not listed, so an empty list says nothing about the past: only that none is active.
      <Empty title="No AI clients connected">
        <p>
          No assistant is connected.{" "}
          {isAdmin
            ? "Approved assistants of everyone in this workspace show up here."
            : "Connect one above; it shows up here."}
        </p>
      </Empty>
    );
  }
  return (
    <div className="table-wrap">
      <table className="table">
        <caption className="sr-only">Connected AI clients</caption>
        <thead>
          <tr>
            <th scope="col">Client</th>
            <th scope="col" className="hide-narrow">
              Access
            </th>
            {isAdmin ? (
              <th scope="col" className="hide-narrow">
                Connected by
              </th>
            ) : null}
            <th scope="col" className="hide-narrow">
              Connected
            </th>
            <th scope="col" className="hide-narrow">
              Last used
            </th>
            <th scope="col">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {grants.map((g) => (
            <tr key={g.id}>
              <th scope="row">
                {g.client_name}
                <div className="grant-meta muted">{g.redirect_host}</div>
                {/* A phone has no room for the columns: the same facts under the name. */}
                <div className="grant-meta muted show-narrow">{narrowFacts(g, isAdmin)}</div>
              </th>
              <td className="hide-narrow">{scopesInWords(g.scopes)}</td>
              {isAdmin ? <td className="hide-narrow">{g.mine ? "You" : g.user_name}</td> : null}
              <td className="hide-narrow" title={formatInstant(g.created_at)}>
                {relativeTime(g.created_at)}
              </td>
              <td className="hide-narrow" title={g.last_used_at ? formatInstant(g.last_used_at) : undefined}>
                {relativeTime(g.last_used_at)}
              </td>
              <td className="actions-cell">
                <button type="button" className="button button-small button-danger-outline" onClick={() => onRevoke(g)}>
                  Revoke<span className="sr-only"> {g.client_name}</span>
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Everyone sees the clients they connected; admins see everyone's, to cut one off. */
export function ConnectedClients({ isAdmin }: { isAdmin: boolean }) {
  const grants = useGrants();
  const revokeGrant = useRevokeGrant();
  const [revoking, setRevoking] = useState<OAuthGrant | undefined>();
  const [notice, setNotice] = useState<string | undefined>();
  const whose = revoking && !revoking.mine ? ` (connected by ${revoking.user_name})` : "";

  const revoke = () => {
    if (!revoking) return;
    revokeGrant.mutate(revoking.id, {
      onSuccess: () => {
        setNotice(`Revoked ${revoking.client_name}. It has no access any more.`);
        setRevoking(undefined);
      },
    });
  };

  return (
    <section className="panel" aria-labelledby="clients-title">
      <div className="panel-head">
        <h2 id="clients-title">Connected AI clients</h2>
      </div>
      {notice ? (
        <Notice kind="success" onDismiss={() => setNotice(undefined)}>
          {notice}
        </Notice>
      ) : null}
      <QueryView query={grants} loading="Loading connected clients…">
        {(list) => (
          <GrantRows
            grants={list}
            isAdmin={isAdmin}
            onRevoke={(g) => {
              revokeGrant.reset();
              setNotice(undefined);
              setRevoking(g);
            }}
          />
        )}
      </QueryView>
      <ConfirmDialog
        open={revoking !== undefined}
        title={`Revoke ${revoking?.client_name ?? "this client"}?`}
        confirmLabel="Revoke access"
        danger
        busy={revokeGrant.isPending}
        error={revokeGrant.error}
        onConfirm={revoke}
        onCancel={() => setRevoking(undefined)}
      >
        <p>
          <strong>{revoking?.client_name}</strong>
          {whose} stops working at once and must be connected again to use Upbeat.
        </p>
      </ConfirmDialog>
    </section>
  );
}
