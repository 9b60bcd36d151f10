import { Suspense, useMemo, useState } from "react";
import { MoodDistributionChart, MoodTrendChart, ParticipationChart } from "../charts/lazy.ts";
import { MemberFilter, MissingStandup, StandupFilter } from "../components/filter-selects.tsx";
import { PageHeader } from "../components/layout.tsx";
import { QuestionStatsPanel } from "../components/question-stats.tsx";
import { Empty, Loading, QueryView } from "../components/states.tsx";
import { ApiError } from "../lib/api.ts";
import { formatDayRange, formatLongDay, MOODS, plural, trendWord } from "../lib/format.ts";
import { participationLabel } from "../lib/participation.ts";
import { FORMER_MEMBER } from "../lib/people.ts";
import { useAnalytics } from "../lib/queries.ts";
import { Link, navigate } from "../lib/router.tsx";
import type { MemberParticipation, ParticipationRow } from "../lib/types.ts";
import { ANALYTICS_DAYS, apiFilters, filtersPath, readFilters, type ViewFilters } from "../lib/view-filters.ts";

/** Members asked in runs still open who have not answered: the overall figure leaves them out until then. */
const awaitingIn = (days: ParticipationRow[]) => days.reduce((n, d) => n + d.awaiting, 0);

type SortKey = "real_name" | "asked" | "submitted" | "pct" | "current_streak" | "blockers";
/**
 * On narrow screens the `wide` columns are hidden so the table fits 390 px without scrolling: the counts behind the
 * percentage, the streak and the blockers show under the member's name instead.
 */
const COLUMNS: { key: SortKey; label: string; numeric: boolean; wide?: boolean }[] = [
  { key: "real_name", label: "Member", numeric: false },
  { key: "asked", label: "Asked", numeric: true, wide: true },
  { key: "submitted", label: "Answered", numeric: true, wide: true },
  { key: "pct", label: "Participation", numeric: true },
  { key: "current_streak", label: "Streak", numeric: true, wide: true },
  { key: "blockers", label: "Blockers reported", numeric: true, wide: true },
];

/** `reportsOf(user_id)`: the Reports address of one member's answers under the page's period and standup. */
function MemberTable({
  members,
  reportsOf,
}: {
  members: MemberParticipation[];
  reportsOf: (userId: string) => string;
}) {
  const [sort, setSort] = useState<{ key: SortKey; dir: "asc" | "desc" }>({ key: "pct", dir: "desc" });
  const rows = useMemo(() => {
    const sorted = [...members].sort((a, b) => {
      const x = a[sort.key];
      const y = b[sort.key];
      const cmp = typeof x === "string" && typeof y === "string" ? x.localeCompare(y) : Number(x) - Number(y);
      return cmp !== 0 ? cmp : a.real_name.localeCompare(b.real_name);
    });
    return sort.dir === "asc" ? sorted : sorted.reverse();
  }, [members, sort]);

  const toggle = (key: SortKey, numeric: boolean) =>
    setSort((s) =>
      s.key === key ? { key, dir: s.dir === "asc" ? "desc" : "asc" } : { key, dir: numeric ? "desc" : "asc" },
    );

  return (
    <div className="table-wrap">
      <table className="table">
        <caption className="sr-only">Participation per member; select a column heading to sort</caption>
        <thead>
          <tr>
            {COLUMNS.map((c) => (
              <th
                key={c.key}
                scope="col"
                className={[c.numeric ? "num" : "", c.wide ? "hide-narrow" : ""].join(" ").trim() || undefined}
                aria-sort={sort.key === c.key ? (sort.dir === "asc" ? "ascending" : "descending") : undefined}
              >
                <button type="button" className="sort-button" onClick={() => toggle(c.key, c.numeric)}>
                  {c.label}
                  <span className="sort-indicator" aria-hidden="true">
                    {sort.key === c.key ? (sort.dir === "asc" ? "▲" : "▼") : "↕"}
                  </span>
                </button>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((m) => (
            <tr key={m.user_id}>
              <th scope="row">
                <Link to={reportsOf(m.user_id)} title={`${m.real_name}'s answers in Reports`}>
                  {m.real_name || FORMER_MEMBER}
                </Link>
                <span className="member-meta show-narrow">
                  Streak {m.current_streak} · {plural(m.blockers, "blocker")} reported
                </span>
              </th>
              <td className="num hide-narrow">{m.asked}</td>
              <td className="num hide-narrow">{m.submitted}</td>
              <td className="num">
                <span className="pct">
                  <span className="pct-bar" aria-hidden="true">
                    <span className="pct-fill" style={{ width: `${Math.min(100, Math.max(0, m.pct))}%` }} />
                  </span>
                  {m.pct}%
                </span>
                <span className="member-meta show-narrow">
                  {m.submitted} of {m.asked}
                </span>
              </td>
              <td className="num hide-narrow">{m.current_streak}</td>
              <td className="num hide-narrow">{m.blockers}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function MoodDistribution({ counts }: { counts: Record<string, number> }) {
  const total = MOODS.reduce((n, m) => n + (counts[m.emoji] ?? 0), 0);
  return (
    <div className="mood-dist">
      <Suspense fallback={<Loading label="Drawing chart…" />}>
        <MoodDistributionChart counts={counts} />
      </Suspense>
      <ul className="mood-list">
        {MOODS.map((m) => {
          const n = counts[m.emoji] ?? 0;
          return (
            <li key={m.emoji}>
              <span aria-hidden="true">{m.emoji}</span> {m.label}: <strong>{n}</strong>
              <span className="muted"> ({total ? Math.round((100 * n) / total) : 0}%)</span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

export function AnalyticsPage({ search }: { search: URLSearchParams }) {
  // Period, standup and member live in the address: reload, back/forward and shared links keep the view.
  const f = readFilters(search, { defaultDays: 30, allowedDays: ANALYTICS_DAYS });
  const analytics = useAnalytics(f.days, apiFilters(f));
  const a = analytics.data;
  const go = (patch: Partial<ViewFilters>) => navigate(filtersPath("/analytics", { ...f, ...patch }));
  const missingStandup = Boolean(f.standup) && analytics.error instanceof ApiError && analytics.error.status === 404;
  const moodCounts = useMemo(() => {
    const totals: Record<string, number> = {};
    for (const d of a?.mood.daily ?? []) {
      for (const [emoji, n] of Object.entries(d.counts)) totals[emoji] = (totals[emoji] ?? 0) + n;
    }
    return totals;
  }, [a]);

  return (
    <>
      <PageHeader title="Analytics" lead={a ? formatDayRange(a.from, a.to) : undefined}>
        <Link className="button" to={filtersPath("/reports", f)}>
          See these answers
        </Link>
      </PageHeader>
      <div className="toolbar card">
        <div className="field">
          <label htmlFor="range">Period</label>
          <select id="range" className="input" value={f.days} onChange={(e) => go({ days: Number(e.target.value) })}>
            {ANALYTICS_DAYS.map((n) => (
              <option key={n} value={n}>
                Last {n} days
              </option>
            ))}
          </select>
        </div>
        <StandupFilter value={f.standup} onChange={(standup) => go({ standup })} />
        <MemberFilter value={f.member} onChange={(member) => go({ member })} />
      </div>
      {missingStandup ? (
        <MissingStandup onShowAll={() => go({ standup: undefined })} />
      ) : (
        <QueryView query={analytics} loading="Loading analytics…">
          {(a) => (
            <>
              <dl className="stats" aria-busy={analytics.isFetching}>
                <div className="stat">
                  <dt className="stat-label">Participation</dt>
                  <dd className="stat-value">{a.participation.overall_pct}%</dd>
                  <dd className="stat-hint">
                    {a.participation.daily.length} standup days
                    {awaitingIn(a.participation.daily) > 0
                      ? ` · ${awaitingIn(a.participation.daily)} still awaiting, not counted yet`
                      : ""}
                  </dd>
                </div>
                <div className="stat">
                  <dt className="stat-label">Average mood</dt>
                  <dd className="stat-value">{a.mood.daily.length ? a.mood.overall_avg.toFixed(1) : "–"}</dd>
                  <dd className="stat-hint">of 5, {trendWord(a.mood.trend)}</dd>
                </div>
                <div className={`stat${a.blockers.total ? " stat-warning" : ""}`}>
                  <dt className="stat-label">Blockers reported</dt>
                  <dd className="stat-value">{a.blockers.total}</dd>
                  <dd className="stat-hint">
                    answers that named a blocker, on {plural(a.blockers.by_day.length, "day")}
                  </dd>
                </div>
              </dl>

              <div className="grid-2">
                <section className="panel" aria-labelledby="a-participation">
                  <div className="panel-head">
                    <h2 id="a-participation">Participation per day</h2>
                  </div>
                  {a.participation.daily.length === 0 ? (
                    <Empty title="No standups ran in this period" />
                  ) : (
                    <Suspense fallback={<Loading label="Drawing chart…" />}>
                      <ParticipationChart rows={a.participation.daily} />
                    </Suspense>
                  )}
                  {a.participation.daily
                    .filter((d) => d.open)
                    .map((d) => (
                      <p key={d.date} className="muted open-day">
                        {formatLongDay(d.date)}: {participationLabel(d)}
                      </p>
                    ))}
                </section>
                <section className="panel" aria-labelledby="a-mood">
                  <div className="panel-head">
                    <h2 id="a-mood">Mood trend</h2>
                  </div>
                  {a.mood.daily.length === 0 ? (
                    <Empty title="No moods shared in this period" />
                  ) : (
                    <Suspense fallback={<Loading label="Drawing chart…" />}>
                      <MoodTrendChart daily={a.mood.daily} />
                    </Suspense>
                  )}
                </section>
              </div>

              <QuestionStatsPanel standup={f.standup} range={{ days: f.days }} memberChosen={Boolean(f.member)} />

              <section className="panel" aria-labelledby="a-members">
                <div className="panel-head">
                  <h2 id="a-members">Members</h2>
                  <span className="muted">Streak: standups answered in a row, newest first</span>
                </div>
                {a.members.length === 0 ? (
                  <Empty title="No members yet" />
                ) : (
                  <MemberTable
                    members={a.members}
                    reportsOf={(userId) => filtersPath("/reports", { ...f, member: userId })}
                  />
                )}
              </section>

              <section className="panel" aria-labelledby="a-mood-dist">
                <div className="panel-head">
                  <h2 id="a-mood-dist">Mood distribution</h2>
                </div>
                {Object.keys(moodCounts).length === 0 ? (
                  <Empty title="No moods shared in this period" />
                ) : (
                  <MoodDistribution counts={moodCounts} />
                )}
              </section>
            </>
          )}
        </QueryView>
      )}
    </>
  );
}
