import { type FormEvent, useEffect, useMemo, useState } from "react";
import { MemberFilter, MissingStandup, StandupFilter } from "../components/filter-selects.tsx";
import { PageHeader } from "../components/layout.tsx";
import { QuestionStatsPanel } from "../components/question-stats.tsx";
import { Empty, FormError, QueryView } from "../components/states.tsx";
import { API_BASE, ApiError, errorMessage, query } from "../lib/api.ts";
import { formatDayRange, isIsoDate, plural } from "../lib/format.ts";
import { reportCountsWords } from "../lib/participation.ts";
import { useReportPages } from "../lib/report-pages.ts";
import { Link, navigate } from "../lib/router.tsx";
import { useStandupLabel } from "../lib/standup-label.ts";
import type { Reports } from "../lib/types.ts";
import {
  ANALYTICS_DAYS,
  apiFilters,
  filtersPath,
  readFilters,
  SEARCH_MAX,
  type ViewFilters,
} from "../lib/view-filters.ts";
import { groupByDay, ReportDay } from "./report-days.tsx";

const QUICK_RANGES = [7, 14, 30];
/** How long typing in the search box waits before the address (and the answers) follow. */
const SEARCH_DELAY_MS = 350;

function Summary({
  data,
  loaded,
  updating,
  q,
}: {
  data: Reports;
  loaded: number;
  updating: boolean;
  /** The search the answers are narrowed by: the summary then tells matching answers from participation. */
  q: string | undefined;
}) {
  const s = data.summary;
  return (
    <p className="summary" aria-live="polite">
      {formatDayRange(data.from, data.to)}: {reportCountsWords(s, q)}
      {s.awaiting > 0 ? `, ${s.awaiting} awaiting (not counted until their standup closes)` : ""}
      {" · "}
      <span aria-describedby="active-blockers-help">{plural(s.active_blockers, "active blocker")}</span>.
      {loaded < s.responses ? <span className="muted"> Showing {loaded}.</span> : null}
      {updating ? <span className="muted"> Updating…</span> : null}
      <br />
      <span id="active-blockers-help" className="muted">
        Active blockers: open blockers (reported and not resolved yet) that were reported in this range. A day counts
        the people who reported one that day.
      </span>
    </p>
  );
}

export function ReportsPage({ search }: { search: URLSearchParams }) {
  // The page's state lives in its address, so a filtered view can be bookmarked, shared and reloaded.
  const f = readFilters(search, { defaultDays: 7, customRange: true });
  const range = f.range ?? { days: f.days };
  const reports = useReportPages({ ...range, ...apiFilters(f), q: f.q });
  const pages = reports.data?.pages;
  const first = pages?.[0];
  // While other filters load, the previous ones stay on screen; the dates they show are not the chosen range's.
  const current = reports.isPlaceholderData ? undefined : first;
  const label = useStandupLabel();
  // Discrete choices push a history entry (back undoes them); typing replaces it, one entry per search.
  const go = (patch: Partial<ViewFilters>, replace = false) =>
    navigate(filtersPath("/reports", { ...f, ...patch }), { replace });

  const [from, setFrom] = useState(f.range?.from ?? "");
  const [to, setTo] = useState(f.range?.to ?? "");
  const [text, setText] = useState(f.q ?? "");
  const [formError, setFormError] = useState<string | undefined>();
  // The server resolves "last N days" in the workspace's timezone: show the dates it chose.
  useEffect(() => {
    if (current?.from) setFrom(current.from);
    if (current?.to) setTo(current.to);
  }, [current?.from, current?.to]);
  // Back, forward or a link changed the search: the box follows the address. Not when the address only caught up
  // with what is typed ("code " becomes q=code): the box keeps its trailing space.
  useEffect(() => setText((typed) => ((typed.trim() || undefined) === f.q ? typed : (f.q ?? ""))), [f.q]);
  useEffect(() => {
    const typed = text.trim() || undefined;
    if (typed === f.q) return;
    const timer = setTimeout(() => go({ q: typed }, true), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  });

  const loaded = useMemo(() => pages?.flatMap((p) => p.standups) ?? [], [pages]);
  const groups = useMemo(
    () =>
      first
        ? groupByDay(loaded, first.participation, {
            complete: !reports.hasNextPage,
            searching: Boolean(f.q),
            label,
            holidays: first.holidays,
          })
        : [],
    [loaded, first, reports.hasNextPage, f.q, label],
  );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!isIsoDate(from) || !isIsoDate(to)) return setFormError("Enter both dates.");
    if (from > to) return setFormError("The start date must not be after the end date.");
    setFormError(undefined);
    go({ range: { from, to }, q: text.trim() || undefined });
  };

  const csvHref = `${API_BASE}/export/csv${query({
    from: current?.from ?? f.range?.from,
    to: current?.to ?? f.range?.to,
    ...apiFilters(f),
  })}`;
  const missingStandup = Boolean(f.standup) && reports.error instanceof ApiError && reports.error.status === 404;

  return (
    <>
      <PageHeader
        title="Reports"
        lead="Every answer in a date range, by day and standup. Answers that report a blocker are marked."
      >
        {/* Analytics has fixed periods: its link appears for those, with this page's standup and member. */}
        {!f.range && ANALYTICS_DAYS.includes(f.days) ? (
          <Link className="button" to={filtersPath("/analytics", { ...f, q: undefined })}>
            See analytics
          </Link>
        ) : null}
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
            maxLength={SEARCH_MAX}
            onChange={(e) => setText(e.target.value)}
          />
        </div>
        <button type="submit" className="button button-primary">
          Show
        </button>
        <StandupFilter value={f.standup} onChange={(standup) => go({ standup })} />
        <MemberFilter value={f.member} onChange={(member) => go({ member })} />
        <fieldset className="quick-ranges">
          <legend className="sr-only">Quick ranges</legend>
          {QUICK_RANGES.map((n) => (
            <button
              key={n}
              type="button"
              className="button button-small"
              aria-pressed={!f.range && f.days === n}
              onClick={() => go({ days: n, range: undefined })}
            >
              Last {n} days
            </button>
          ))}
        </fieldset>
        <FormError error={formError} className="toolbar-error" />
      </form>

      {missingStandup ? (
        <MissingStandup onShowAll={() => go({ standup: undefined })} />
      ) : (
        <QueryView query={reports} loading="Loading answers…">
          {(data) => {
            const page = data.pages[0];
            if (!page) return null;
            return (
              <>
                <Summary data={page} loaded={loaded.length} updating={reports.isPlaceholderData} q={f.q} />
                <QuestionStatsPanel standup={f.standup} range={range} memberChosen={Boolean(f.member)} />
                {groups.length === 0 ? (
                  <Empty title={f.q ? "No answers match" : "No answers in this range"}>
                    <p>
                      {f.q
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
      )}
    </>
  );
}
