import { Suspense } from "react";
import { MoodTrendChart, ParticipationChart } from "../charts/lazy.ts";
import { AnswerCard } from "../components/answer.tsx";
import { PageHeader } from "../components/layout.tsx";
import { Empty, Loading, QueryView } from "../components/states.tsx";
import { formatDay, formatLongDay, plural, trendWord } from "../lib/format.ts";
import { useAnalytics, useStats, useToday } from "../lib/queries.ts";
import { Link } from "../lib/router.tsx";
import { useStandupLabel } from "../lib/standup-label.ts";
import type { TodayParticipant, TodayStandup } from "../lib/types.ts";

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

const WHO: Record<TodayParticipant["status"], string> = {
  waiting: "",
  skipped: "skipped",
  missed: "",
  not_asked_yet: "asked later",
  not_asked: "not asked today",
  away: "away",
};

/** Names shown before the rest fold away: a big standup can wait on hundreds of people. */
const NAMES_SHOWN = 40;

function Names({ people }: { people: TodayParticipant[] }) {
  return people.map((p, i) => (
    <span key={p.user_id}>
      {i > 0 ? ", " : ""}
      {p.real_name}
      {WHO[p.status] ? <span className="muted"> ({WHO[p.status]})</span> : null}
    </span>
  ));
}

/** Everyone without an answer, by name; a skip or a later ask (their own timezone) said in words. */
function NotAnswered({ standup }: { standup: TodayStandup }) {
  const people = standup.not_answered;
  if (standup.asked > 0 && people.length === 0) return <p className="muted">Everyone answered.</p>;
  if (people.length === 0) return null;
  const rest = people.slice(NAMES_SHOWN);
  return (
    <div className="not-answered">
      <strong>{standup.open ? "Not answered yet:" : "Did not answer:"}</strong>{" "}
      <Names people={people.slice(0, NAMES_SHOWN)} />
      {rest.length > 0 ? (
        <details className="collapsible">
          <summary>and {rest.length} more</summary>
          <Names people={rest} />
        </details>
      ) : null}
    </div>
  );
}

/** Open answer lists stay short: a long one starts folded. */
const OPEN_UP_TO = 12;

function TodayStandupCard({ standup, today, label }: { standup: TodayStandup; today: string; label: string }) {
  const headingId = `today-${standup.schedule_id}-${standup.date}`;
  const counts = `${standup.answered} of ${plural(standup.asked, "member")} answered${standup.open ? " so far" : ""}`;
  return (
    <section className="standup-today" aria-labelledby={headingId}>
      <header className="day-head">
        <h3 id={headingId}>{label}</h3>
        <span className="muted">
          {counts}
          {standup.date !== today ? ` · ${formatDay(standup.date)}` : ""}
          {standup.open ? "" : " · closed"}
        </span>
      </header>
      <NotAnswered standup={standup} />
      {standup.responses.length > 0 ? (
        <details className="collapsible" open={standup.responses.length <= OPEN_UP_TO}>
          <summary>{plural(standup.responses.length, "answer")}</summary>
          <div className="answers">
            {standup.responses.map((r) => (
              <AnswerCard key={`${r.user_id}-${r.submitted_at}`} response={r} />
            ))}
          </div>
        </details>
      ) : null}
    </section>
  );
}

/** Today by standup: each standup's answers so far and who has not answered yet. */
function TodayByStandup() {
  const today = useToday();
  const label = useStandupLabel();
  return (
    <section className="panel" aria-labelledby="today-title">
      <div className="panel-head">
        <h2 id="today-title">Today</h2>
        {today.data?.date ? <span className="muted">{formatLongDay(today.data.date)}</span> : null}
      </div>
      <QueryView query={today} loading="Loading today's standups…">
        {({ date, standups }) =>
          standups.length === 0 ? (
            <Empty title="No standup today">
              <p>Each standup's answers appear here as members reply in Slack.</p>
            </Empty>
          ) : (
            standups.map((s) => (
              <TodayStandupCard
                key={`${s.schedule_id}-${s.date}`}
                standup={s}
                today={date}
                label={label(s.schedule_id, { name: s.standup_name, channelId: s.channel_id })}
              />
            ))
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
      <TodayByStandup />
    </>
  );
}
