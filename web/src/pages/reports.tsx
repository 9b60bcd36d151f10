import { type FormEvent, useEffect, useMemo, useState } from "react";
import { PageHeader } from "../components/layout.tsx";
import { Empty, FormError, QueryView } from "../components/states.tsx";
import { API_BASE, errorMessage, query } from "../lib/api.ts";
import { formatLongDay, isIsoDate, plural } from "../lib/format.ts";
import { FORMER_MEMBER } from "../lib/people.ts";
import { type ReportFilters, useMe, useMembers, useReportPages, useStandups } from "../lib/queries.ts";
import { navigate } from "../lib/router.tsx";
import { useStandupLabel } from "../lib/standup-label.ts";
import type { Reports } from "../lib/types.ts";
import { groupByDay, ReportDay } from "./report-days.tsx";

const QUICK_RANGES = [7, 14, 30];

/** The page's state lives in its address, so a filtered view can be bookmarked and shared. */
function readSearch(search: URLSearchParams) {
  const from = search.get("from") ?? "";
  const to = search.get("to") ?? "";
  const filters: ReportFilters = {
    schedule_id: search.get("standup") || undefined,
    user_id: search.get("member") || undefined,
    q: search.get("q") || undefined,
  };
  const hasRange = isIsoDate(from) && isIsoDate(to);
  return { from, to, days: Number(search.get("days") || 7), hasRange, filters };
}

function reportsPath(range: { from?: string; to?: string; days?: number }, filters: ReportFilters): string {
  return `/reports${query({ ...range, standup: filters.schedule_id, member: filters.user_id, q: filters.q })}`;
}

function Summary({ data, loaded, updating }: { data: Reports; loaded: number; updating: boolean }) {
  const s = data.summary;
  return (
    <p className="summary" aria-live="polite">
      {formatLongDay(data.from)} to {formatLongDay(data.to)}: {plural(s.responses, "answer")} from{" "}
      {plural(s.members_answered, "member")}
      {s.asked > 0 ? ` · ${s.pct}% participation (${s.answered} of ${s.asked} asked)` : ""}
      {s.awaiting > 0 ? `, ${s.awaiting} awaiting (not counted until their standup closes)` : ""}
      {" · "}
      {plural(s.active_blockers, "active blocker")}.
      {loaded < s.responses ? <span className="muted"> Showing {loaded}.</span> : null}
      {updating ? <span className="muted"> Updating…</span> : null}
    </p>
  );
}

export function ReportsPage({ search }: { search: URLSearchParams }) {
  const { from: fromParam, to: toParam, days, hasRange, filters } = readSearch(search);
  const range = hasRange ? { from: fromParam, to: toParam } : { days };
  const reports = useReportPages({ ...range, ...filters });
  const pages = reports.data?.pages;
  const first = pages?.[0];
  // While other filters load, the previous ones stay on screen; the dates they show are not the chosen range's.
  const current = reports.isPlaceholderData ? undefined : first;
  const standups = useStandups();
  // The app renders pages only once it knows who is signed in, so this reads the cached answer.
  const me = useMe().data;
  const isAdmin = me?.role === "admin";
  // Only admins may list members; a member filters between everyone and themselves.
  const members = useMembers(isAdmin);
  const label = useStandupLabel();

  const [from, setFrom] = useState(fromParam);
  const [to, setTo] = useState(toParam);
  const [text, setText] = useState(filters.q ?? "");
  const [formError, setFormError] = useState<string | undefined>();
  // The server resolves "last N days" in the workspace's timezone: show the dates it chose.
  useEffect(() => {
    if (current?.from) setFrom(current.from);
    if (current?.to) setTo(current.to);
  }, [current?.from, current?.to]);
  useEffect(() => setText(filters.q ?? ""), [filters.q]);

  const loaded = useMemo(() => pages?.flatMap((p) => p.standups) ?? [], [pages]);
  const groups = useMemo(
    () =>
      first
        ? groupByDay(loaded, first.participation, {
            complete: !reports.hasNextPage,
            searching: Boolean(filters.q),
            label,
            holidays: first.holidays,
          })
        : [],
    [loaded, first, reports.hasNextPage, filters.q, label],
  );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!isIsoDate(from) || !isIsoDate(to)) return setFormError("Enter both dates.");
    if (from > to) return setFormError("The start date must not be after the end date.");
    setFormError(undefined);
    navigate(reportsPath({ from, to }, { ...filters, q: text.trim() || undefined }));
  };
  const setFilter = (patch: ReportFilters) => navigate(reportsPath(range, { ...filters, ...patch }));

  const csvHref = `${API_BASE}/export/csv${query({
    from: current?.from ?? (hasRange ? fromParam : undefined),
    to: current?.to ?? (hasRange ? toParam : undefined),
    schedule_id: filters.schedule_id,
    user_id: filters.user_id,
  })}`;

  return (
    <>
      <PageHeader title="Reports" lead="Every answer in a date range, by day and standup. Active blockers are marked.">
        <a className="button" href={csvHref} download>
          Download CSV
        </a>
      </PageHeader>

      <form className="toolbar card" onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor="from">From</label>
          <input
            id="from"
            type="date"
            className="input"
            value={from}
            max={to || undefined}
            onChange={(e) => setFrom(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="to">To</label>
          <input
            id="to"
            type="date"
            className="input"
            value={to}
            min={from || undefined}
            onChange={(e) => setTo(e.target.value)}
          />
        </div>
        <div className="field field-grow">
          <label htmlFor="q">Search answers</label>
          <input
            id="q"
            type="search"
            className="input"
            value={text}
            placeholder='e.g. deploy, "code review"'
            maxLength={200}
            onChange={(e) => setText(e.target.value)}
          />
        </div>
        <button type="submit" className="button button-primary">
          Show
        </button>
        <div className="field">
          <label htmlFor="standup-filter">Standup</label>
          <select
            id="standup-filter"
            className="input"
            value={filters.schedule_id ?? ""}
            onChange={(e) => setFilter({ schedule_id: e.target.value || undefined })}
          >
            <option value="">All standups</option>
            {filters.schedule_id && !standups.data?.some((s) => s.id === filters.schedule_id) ? (
              <option value={filters.schedule_id}>{label(filters.schedule_id)}</option>
            ) : null}
            {(standups.data ?? []).map((s) => (
              <option key={s.id} value={s.id}>
                {label(s.id)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="member-filter">Member</label>
          <select
            id="member-filter"
            className="input"
            value={filters.user_id ?? ""}
            onChange={(e) => setFilter({ user_id: e.target.value || undefined })}
          >
            <option value="">Everyone</option>
            {!isAdmin && me ? <option value={me.user_id}>Only me</option> : null}
            {(members.data ?? [])
              .slice()
              .sort((a, b) => (a.real_name || FORMER_MEMBER).localeCompare(b.real_name || FORMER_MEMBER))
              .map((m) => (
                <option key={m.user_id} value={m.user_id}>
                  {m.real_name || FORMER_MEMBER}
                </option>
              ))}
          </select>
        </div>
        <fieldset className="quick-ranges">
          <legend className="sr-only">Quick ranges</legend>
          {QUICK_RANGES.map((n) => (
            <button
              key={n}
              type="button"
              className="button button-small"
              aria-pressed={!hasRange && days === n}
              onClick={() => navigate(reportsPath({ days: n }, filters))}
            >
              Last {n} days
            </button>
          ))}
        </fieldset>
        <FormError error={formError} className="toolbar-error" />
      </form>

      <QueryView query={reports} loading="Loading answers…">
        {(data) => {
          const page = data.pages[0];
          if (!page) return null;
          return (
            <>
              <Summary data={page} loaded={loaded.length} updating={reports.isPlaceholderData} />
              {groups.length === 0 ? (
                <Empty title={filters.q ? "No answers match" : "No answers in this range"}>
                  <p>
                    {filters.q
                      ? "Try other words, or a wider range."
                      : "Pick a wider range or other filters, or check that a standup is active on the Standups page."}
                  </p>
                </Empty>
              ) : (
                groups.map((g) => <ReportDay key={g.date} day={g} label={label} />)
              )}
              {reports.hasNextPage ? (
                <div className="load-more">
                  <button
                    type="button"
                    className="button"
                    disabled={reports.isFetchingNextPage}
                    onClick={() => void reports.fetchNextPage()}
                  >
                    {reports.isFetchingNextPage ? "Loading…" : "Load more answers"}
                  </button>
                  <span className="muted">
                    {loaded.length} of {page.summary.responses}
                  </span>
                </div>
              ) : null}
              {reports.isFetchNextPageError ? <FormError error={errorMessage(reports.error)} /> : null}
            </>
          );
        }}
      </QueryView>
    </>
  );
}
