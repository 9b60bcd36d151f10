import { Suspense } from "react";
import { MoodTrendChart, ParticipationChart } from "../charts/lazy.ts";
import { AnswerCard } from "../components/answer.tsx";
import { PageHeader } from "../components/layout.tsx";
import { Empty, Loading, QueryView } from "../components/states.tsx";
import { formatLongDay, trendWord } from "../lib/format.ts";
import { useAnalytics, useReports, useStats } from "../lib/queries.ts";
import { Link } from "../lib/router.tsx";

function StatCard({ label, value, hint, tone }: { label: string; value: string; hint?: string; tone?: "warning" }) {
  return (
    <div className={`stat${tone ? ` stat-${tone}` : ""}`}>
      <dt className="stat-label">{label}</dt>
      <dd className="stat-value">{value}</dd>
      {hint ? <dd className="stat-hint">{hint}</dd> : null}
    </div>
  );
}

function StatsCards() {
  const stats = useStats();
  return (
    <QueryView query={stats} loading="Loading numbers…">
      {(s) => (
        <dl className="stats">
          <StatCard label="Members" value={String(s.total_members)} hint="active in Upbeat" />
          <StatCard
            label="Answered today"
            value={String(s.submitted_today)}
            hint={s.total_members ? `of ${s.total_members} members` : undefined}
          />
          <StatCard label="Participation" value={`${s.participation_7d_pct}%`} hint="last 7 days" />
          <StatCard
            label="Active blockers"
            value={String(s.active_blockers)}
            hint="latest answers, last 7 days"
            tone={s.active_blockers > 0 ? "warning" : undefined}
          />
        </dl>
      )}
    </QueryView>
  );
}

function TodayAnswers() {
  const today = useReports({ days: 1 });
  return (
    <section className="panel" aria-labelledby="today-title">
      <div className="panel-head">
        <h2 id="today-title">Today's answers</h2>
        {today.data?.to ? <span className="muted">{formatLongDay(today.data.to)}</span> : null}
      </div>
      <QueryView query={today} loading="Loading today's answers…">
        {({ standups }) =>
          standups.length === 0 ? (
            <Empty title="No answers yet today">
              <p>Answers appear here as members reply to today's standup in Slack.</p>
            </Empty>
          ) : (
            <div className="answers">
              {standups.map((r) => (
                <AnswerCard key={`${r.schedule_id}-${r.user_id}-${r.standup_date}`} response={r} />
              ))}
            </div>
          )
        }
      </QueryView>
    </section>
  );
}

function Trends() {
  const analytics = useAnalytics(30);
  const a = analytics.data;
  return (
    <div className="grid-2">
      <section className="panel" aria-labelledby="participation-title">
        <div className="panel-head">
          <h2 id="participation-title">Participation</h2>
          <span className="muted">last 30 days{a ? ` · ${a.participation.overall_pct}% overall` : ""}</span>
        </div>
        <QueryView query={analytics} loading="Loading participation…">
          {({ participation }) =>
            participation.daily.length === 0 ? (
              <Empty title="No standups in the last 30 days">
                <p>
                  <Link to="/standups">Set up a standup</Link> to start collecting answers.
                </p>
              </Empty>
            ) : (
              <Suspense fallback={<Loading label="Drawing chart…" />}>
                <ParticipationChart rows={participation.daily} />
              </Suspense>
            )
          }
        </QueryView>
      </section>
      <section className="panel" aria-labelledby="mood-title">
        <div className="panel-head">
          <h2 id="mood-title">Mood trend</h2>
          <span className="muted">
            last 30 days
            {a?.mood.daily.length ? ` · average ${a.mood.overall_avg.toFixed(1)} of 5, ${trendWord(a.mood.trend)}` : ""}
          </span>
        </div>
        <QueryView query={analytics} loading="Loading moods…">
          {({ mood }) =>
            mood.daily.length === 0 ? (
              <Empty title="No moods shared in the last 30 days" />
            ) : (
              <Suspense fallback={<Loading label="Drawing chart…" />}>
                <MoodTrendChart daily={mood.daily} />
              </Suspense>
            )
          }
        </QueryView>
      </section>
    </div>
  );
}

export function OverviewPage() {
  return (
    <>
      <PageHeader title="Overview" />
      <StatsCards />
      <Trends />
      <TodayAnswers />
    </>
  );
}
