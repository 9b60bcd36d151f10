import { type FormEvent, useEffect, useMemo, useState } from "react";
import { AnswerCard, hasBlocker } from "../components/answer.tsx";
import { PageHeader } from "../components/layout.tsx";
import { Empty, FormError, QueryView } from "../components/states.tsx";
import { API_BASE, query } from "../lib/api.ts";
import { formatLongDay, isIsoDate, plural } from "../lib/format.ts";
import { useReports } from "../lib/queries.ts";
import { navigate } from "../lib/router.tsx";
import type { ParticipationRow, Reports, StandupResponse } from "../lib/types.ts";

const QUICK_RANGES = [7, 14, 30];

interface DayGroup {
  date: string;
  members: { userId: string; name: string; responses: { key: number; response: StandupResponse }[] }[];
  blockers: number;
  participation: ParticipationRow | undefined;
}

/** Newest day first; inside a day, members by name; a member's several answers (several standups) together. */
function groupByDay(reports: Reports): DayGroup[] {
  type Keyed = { key: number; response: StandupResponse };
  const days = new Map<string, Map<string, Keyed[]>>();
  for (const [key, response] of reports.standups.entries()) {
    const day = days.get(response.standup_date) ?? new Map<string, Keyed[]>();
    day.set(response.user_id, [...(day.get(response.user_id) ?? []), { key, response }]);
    days.set(response.standup_date, day);
  }
  for (const p of reports.participation) if (!days.has(p.date)) days.set(p.date, new Map());
  return [...days.entries()]
    .sort(([a], [b]) => (a < b ? 1 : a > b ? -1 : 0))
    .map(([date, members]) => ({
      date,
      members: [...members.entries()]
        .map(([userId, responses]) => ({ userId, name: responses[0]?.response.real_name || userId, responses }))
        .sort((a, b) => a.name.localeCompare(b.name)),
      blockers: [...members.values()].flat().filter((k) => hasBlocker(k.response)).length,
      participation: reports.participation.find((p) => p.date === date),
    }));
}

export function ReportsPage({ search }: { search: URLSearchParams }) {
  const fromParam = search.get("from") ?? "";
  const toParam = search.get("to") ?? "";
  const days = Number(search.get("days") || 7);
  const hasRange = isIsoDate(fromParam) && isIsoDate(toParam);
  const reports = useReports(hasRange ? { from: fromParam, to: toParam } : { days });
  // While another range loads, the previous one stays on screen; the dates it shows are not the chosen range's.
  const current = reports.isPlaceholderData ? undefined : reports.data;

  const [from, setFrom] = useState(fromParam);
  const [to, setTo] = useState(toParam);
  const [formError, setFormError] = useState<string | undefined>();
  // The server resolves "last N days" in the workspace's timezone: show the dates it chose.
  useEffect(() => {
    if (current?.from) setFrom(current.from);
    if (current?.to) setTo(current.to);
  }, [current?.from, current?.to]);

  const groups = useMemo(() => (reports.data ? groupByDay(reports.data) : []), [reports.data]);
  const totalBlockers = groups.reduce((n, g) => n + g.blockers, 0);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!isIsoDate(from) || !isIsoDate(to)) return setFormError("Enter both dates.");
    if (from > to) return setFormError("The start date must not be after the end date.");
    setFormError(undefined);
    navigate(`/reports${query({ from, to })}`);
  };

  const csvHref =
    current?.from && current.to
      ? `${API_BASE}/export/csv${query({ from: current.from, to: current.to })}`
      : `${API_BASE}/export/csv${query({ from: hasRange ? fromParam : undefined, to: hasRange ? toParam : undefined })}`;

  return (
    <>
      <PageHeader title="Reports" lead="Every answer in a date range, by day and member. Active blockers are marked.">
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
        <button type="submit" className="button button-primary">
          Show
        </button>
        <fieldset className="quick-ranges">
          <legend className="sr-only">Quick ranges</legend>
          {QUICK_RANGES.map((n) => (
            <button
              key={n}
              type="button"
              className="button button-small"
              aria-pressed={!hasRange && days === n}
              onClick={() => navigate(`/reports?days=${n}`)}
            >
              Last {n} days
            </button>
          ))}
        </fieldset>
        <FormError error={formError} className="toolbar-error" />
      </form>

      <QueryView query={reports} loading="Loading answers…">
        {(data) => (
          <>
            <p className="summary" aria-live="polite">
              {data.from && data.to ? (
                <>
                  {formatLongDay(data.from)} to {formatLongDay(data.to)}:{" "}
                </>
              ) : null}
              {plural(data.standups.length, "answer")}, {plural(totalBlockers, "blocker")}.
              {reports.isPlaceholderData ? <span className="muted"> Updating…</span> : null}
            </p>
            {groups.length === 0 ? (
              <Empty title="No answers in this range">
                <p>Pick a wider range, or check that a standup is active on the Standups page.</p>
              </Empty>
            ) : (
              groups.map((g) => (
                <section key={g.date} className="day" aria-labelledby={`day-${g.date}`}>
                  <header className="day-head">
                    <h2 id={`day-${g.date}`}>{formatLongDay(g.date)}</h2>
                    <span className="muted">
                      {g.participation
                        ? `${g.participation.submitted} of ${g.participation.total} answered (${g.participation.pct}%)`
                        : plural(g.members.length, "member")}
                      {g.blockers ? (
                        <>
                          {" · "}
                          <span className="text-warning">{plural(g.blockers, "blocker")}</span>
                        </>
                      ) : null}
                    </span>
                  </header>
                  {g.members.length === 0 ? (
                    <p className="muted">Nobody answered.</p>
                  ) : (
                    <div className="answers">
                      {g.members.flatMap((m) =>
                        m.responses.map((r) => <AnswerCard key={r.key} response={r.response} />),
                      )}
                    </div>
                  )}
                </section>
              ))
            )}
          </>
        )}
      </QueryView>
    </>
  );
}
