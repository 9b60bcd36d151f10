import { Suspense } from "react";
import { MoodTrendChart, ParticipationChart } from "../charts/lazy.ts";
import { AnswerCard } from "../components/answer.tsx";
import { PageHeader } from "../components/layout.tsx";
import { Empty, Loading, QueryView } from "../components/states.tsx";
import { formatDay, formatLongDay, plural, trendWord } from "../lib/format.ts";
import { answeredTodayWords, answeredWords } from "../lib/participation.ts";
import { useAnalytics, useStats, useToday } from "../lib/queries.ts";
import { Link } from "../lib/router.tsx";
import { useStandupLabel } from "../lib/standup-label.ts";
import type { TodayStandup } from "../lib/types.ts";
import { askPlan, TodayPeople } from "./today-people.tsx";

function StatCard({
  label,
  value,
  hint,
  tone,
  hintId,
}: {
  label: string;
  value: string;
  hint?: string;
  tone?: "warning";
  /** The hint explains the figure (a definition): the value points to it for screen readers. */
  hintId?: string;
}) {
  return (
    <div className={`stat${tone ? ` stat-${tone}` : ""}`}>
      <dt className="stat-label">{label}</dt>
      <dd className="stat-value" aria-describedby={hint && hintId ? hintId : undefined}>
        {value}
      </dd>
      {hint ? (
        <dd className="stat-hint" id={hintId}>
          {hint}
        </dd>
      ) : null}
    </div>
  );
}

/** The one meaning of "active blockers" (the API's too, issue 25): open blocker items, listed on the Blockers page. */
export const ACTIVE_BLOCKERS_HINT = "open blockers: reported and not resolved yet";

/** Answered of the people asked today, as the Today card below counts them (the stats' count is of all members). */
function AnsweredTodayCard() {
  const today = useToday();
  const words = today.data ? answeredTodayWords(today.data.standups) : undefined;
  return <StatCard label="Answered today" value={words?.value ?? "…"} hint={words?.hint} />;
}

function StatsCards() {
  const stats = useStats();
  return (
    <QueryView query={stats} loading="Loading numbers…">
      {(s) => (
        <dl className="stats">
          <StatCard label="Members" value={String(s.total_members)} hint="active in Upbeat" />
          <AnsweredTodayCard />
          <StatCard label="Participation" value={`${s.participation_7d_pct}%`} hint="last 7 days" />
          <StatCard
            label="Active blockers"
            value={String(s.active_blockers)}
            hint={ACTIVE_BLOCKERS_HINT}
            hintId="active-blockers-help"
            tone={s.active_blockers > 0 ? "warning" : undefined}
          />
        </dl>
      )}
    </QueryView>
  );
}

/** Open answer lists stay short: a long one starts folded. */
const OPEN_UP_TO = 12;

function TodayStandupCard({ standup, today, label }: { standup: TodayStandup; today: string; label: string }) {
  const headingId = `today-${standup.schedule_id}-${standup.date}`;
  const counts = answeredWords(standup);
  const plan = askPlan(standup);
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
      {plan ? <p className="ask-plan">{plan}</p> : null}
      <TodayPeople standup={standup} />
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
