import { useState } from "react";
import { ConfirmDialog } from "../components/confirm-dialog.tsx";
import { MemberFilter, MissingStandup, StandupFilter } from "../components/filter-selects.tsx";
import { PageHeader } from "../components/layout.tsx";
import { Empty, Notice, QueryView } from "../components/states.tsx";
import { ApiError } from "../lib/api.ts";
import {
  BLOCKERS_PER_PAGE,
  type BlockerStatusTab,
  blockersCsvHref,
  useBlockers,
  useResolveBlocker,
} from "../lib/blockers.ts";
import { formatDate, formatInstant, plural } from "../lib/format.ts";
import { navigate } from "../lib/router.tsx";
import type { BlockerItem, Me } from "../lib/types.ts";
import { readFilters } from "../lib/view-filters.ts";

const NOTE_MAX = 500;

interface BlockerView {
  status: BlockerStatusTab;
  standup?: string | undefined;
  member?: string | undefined;
  page: number;
}

/** The view lives in the address (?status=resolved&standup=&member=&page=), as Reports' filters do. */
function readView(search: URLSearchParams): BlockerView {
  const { standup, member } = readFilters(search, { defaultDays: 7 });
  const page = /^\d{1,5}$/.test(search.get("page") ?? "") ? Math.max(1, Number(search.get("page"))) : 1;
  return { status: search.get("status") === "resolved" ? "resolved" : "open", standup, member, page };
}

function viewPath(v: BlockerView): string {
  const q = new URLSearchParams();
  if (v.status === "resolved") q.set("status", "resolved");
  if (v.standup) q.set("standup", v.standup);
  if (v.member) q.set("member", v.member);
  if (v.page > 1) q.set("page", String(v.page));
  const s = q.toString();
  return `/blockers${s ? `?${s}` : ""}`;
}

function age(days: number): string {
  return days === 0 ? "since today" : plural(days, "day");
}

function ResolveDialog({
  item,
  onDone,
  onCancel,
}: {
  item?: BlockerItem;
  onDone: (b: BlockerItem) => void;
  onCancel: () => void;
}) {
  const [note, setNote] = useState("");
  const resolve = useResolveBlocker();
  return (
    <ConfirmDialog
      open={Boolean(item)}
      title="Resolve this blocker?"
      confirmLabel="Resolve"
      busy={resolve.isPending}
      error={resolve.error}
      onConfirm={() =>
        item &&
        resolve.mutate(
          { id: item.id, note },
          {
            onSuccess: (b) => {
              setNote("");
              onDone(b);
            },
          },
        )
      }
      onCancel={() => {
        resolve.reset();
        onCancel();
      }}
    >
      {item ? (
        <p>
          {item.real_name}, {item.standup_name}: “{item.text}”, open {age(item.age_days)}.
        </p>
      ) : null}
      <div className="field">
        <label htmlFor="blocker-note">How was it resolved? (optional)</label>
        <textarea
          id="blocker-note"
          className="input"
          rows={3}
          maxLength={NOTE_MAX}
          value={note}
          onChange={(e) => setNote(e.target.value)}
        />
      </div>
    </ConfirmDialog>
  );
}

function BlockerTable({ items, me, onResolve }: { items: BlockerItem[]; me: Me; onResolve: (b: BlockerItem) => void }) {
  const resolved = items[0]?.status === "resolved";
  return (
    <div className="table-wrap">
      <table className="table">
        <thead>
          <tr>
            <th scope="col">Blocker</th>
            <th scope="col" className="hide-narrow">
              Member
            </th>
            <th scope="col" className="hide-narrow">
              Standup
            </th>
            <th scope="col">{resolved ? "Resolved" : "Open for"}</th>
            {resolved ? null : (
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {items.map((b) => (
            <tr key={b.id} data-blocker={b.id}>
              <td>
                {/* At 390 px the member and standup head the blocker, so the table keeps to three columns. */}
                <strong className="show-narrow">
                  {b.real_name} · {b.standup_name}
                </strong>
                <span className="blocker-text">{b.text}</span>
                <br />
                <span className="muted">Reported {formatDate(b.opened_date)}</span>
              </td>
              <td className="hide-narrow">{b.real_name}</td>
              <td className="hide-narrow">{b.standup_name}</td>
              {b.status === "resolved" ? (
                <td>
                  {b.resolved_at ? formatInstant(b.resolved_at) : ""} by {b.resolved_by_name ?? "someone"}
                  {RESOLVED_HOW[b.resolved_via ?? ""] ?? ""},{" "}
                  {b.age_days === 0 ? "the day it was reported" : `after ${plural(b.age_days, "day")}`}
                  {b.resolution_note ? <p className="blocker-note">“{b.resolution_note}”</p> : null}
                </td>
              ) : (
                <>
                  <td>{age(b.age_days)}</td>
                  <td>
                    {me.role === "admin" || me.user_id === b.user_id ? (
                      <button type="button" className="button button-small" onClick={() => onResolve(b)}>
                        Resolve<span className="sr-only"> the blocker of {b.real_name}</span>
                      </button>
                    ) : (
                      <span className="muted fact-note">{b.real_name} or an admin can resolve it</span>
                    )}
                  </td>
                </>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** How a blocker was resolved, said after who resolved it. */
const RESOLVED_HOW: Record<string, string> = {
  answer: " (answered that nothing blocks them)",
  dm: " (in Slack)",
  modal: " (in Slack)",
  dashboard: " (in the dashboard)",
  mcp: " (through an AI assistant)",
};

export function BlockersPage({ search, me }: { search: URLSearchParams; me: Me }) {
  const v = readView(search);
  const go = (patch: Partial<BlockerView>) => navigate(viewPath({ ...v, page: 1, ...patch }));
  const blockers = useBlockers(v);
  const [resolving, setResolving] = useState<BlockerItem | undefined>();
  const [notice, setNotice] = useState<string | undefined>();
  const missingStandup = Boolean(v.standup) && blockers.error instanceof ApiError && blockers.error.status === 404;
  return (
    <>
      <PageHeader
        title="Blockers"
        lead="Every blocker reported in a standup stays open until it is resolved: here, from Slack, or by answering that there is none. Open ones first, the longest open first."
      >
        <a className="button" href={blockersCsvHref(v)} download>
          Download CSV
        </a>
      </PageHeader>
      {notice ? (
        <Notice kind="success" onDismiss={() => setNotice(undefined)}>
          {notice}
        </Notice>
      ) : null}
      <div className="toolbar card">
        <fieldset className="segmented">
          <legend className="sr-only">Status</legend>
          {(["open", "resolved"] as const).map((s) => (
            <label key={s} className="segment">
              <input
                type="radio"
                name="blocker-status"
                value={s}
                checked={v.status === s}
                onChange={() => go({ status: s })}
              />
              <span className="segment-label">{s === "open" ? "Open" : "Resolved"}</span>
            </label>
          ))}
        </fieldset>
        <StandupFilter value={v.standup} onChange={(standup) => go({ standup })} />
        <MemberFilter value={v.member} onChange={(member) => go({ member })} />
      </div>
      <ResolveDialog
        item={resolving}
        onCancel={() => setResolving(undefined)}
        onDone={(b) => {
          setResolving(undefined);
          setNotice(`Resolved: ${b.real_name}'s blocker “${b.text}”. It is under Resolved now.`);
        }}
      />
      {missingStandup ? (
        <MissingStandup onShowAll={() => go({ standup: undefined })} />
      ) : (
        <section className="card" aria-labelledby="blockers-list-title">
          <h2 id="blockers-list-title">{v.status === "open" ? "Open blockers" : "Resolved blockers"}</h2>
          <QueryView query={blockers} loading="Loading blockers…">
            {(page) => {
              if (page.items.length === 0)
                return <Empty title={v.status === "open" ? "Nobody is blocked" : "No resolved blockers yet"} />;
              const first = (page.page - 1) * page.per_page + 1;
              const last = first + page.items.length - 1;
              return (
                <>
                  <p className="muted" aria-live="polite">
                    {page.total > page.items.length
                      ? `${first}–${last} of ${page.total}`
                      : plural(page.total, v.status === "open" ? "open blocker" : "resolved blocker")}
                  </p>
                  <BlockerTable items={page.items} me={me} onResolve={setResolving} />
                  {page.total > BLOCKERS_PER_PAGE ? (
                    <div className="pager">
                      <button
                        type="button"
                        className="button button-small"
                        disabled={page.page <= 1}
                        onClick={() => go({ page: page.page - 1, status: v.status })}
                      >
                        Previous
                      </button>
                      <button
                        type="button"
                        className="button button-small"
                        disabled={last >= page.total}
                        onClick={() => go({ page: page.page + 1, status: v.status })}
                      >
                        Next
                      </button>
                    </div>
                  ) : null}
                </>
              );
            }}
          </QueryView>
        </section>
      )}
    </>
  );
}
