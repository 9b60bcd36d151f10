import "./question-stats.css";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { QuestionStat, QuestionStats } from "../../../src/contract/index.ts";
import { api, query } from "../lib/api.ts";
import { formatDay, plural } from "../lib/format.ts";
import { type RangeParams, useStandups } from "../lib/queries.ts";
import { ErrorState, Loading } from "./states.tsx";

/** How each question type reads above its numbers. */
const TYPE_LABEL: Record<QuestionStat["type"], string> = {
  number: "Number",
  single_choice: "One choice",
  multiple_choice: "Several choices",
  yes_no: "Yes or no",
};

/** One standup's typed questions over a range (GET /question-stats). */
export function useQuestionStats(standup: string | undefined, range: RangeParams) {
  return useQuery({
    queryKey: ["question-stats", standup, range] as const,
    queryFn: ({ signal }) => api.get<QuestionStats>(`/question-stats${query({ standup, ...range })}`, signal),
    enabled: Boolean(standup),
    placeholderData: keepPreviousData,
  });
}

/** Answers per option as bars, the widest bar being the most chosen option. */
function OptionBars({ q }: { q: QuestionStat }) {
  const most = Math.max(1, ...q.options.map((o) => o.count));
  return (
    <ul className="qs-options">
      {q.options.map((o) => (
        <li key={o.option}>
          <span className="qs-option">{o.option}</span>
          <span className="qs-bar" aria-hidden="true">
            <span className="qs-fill" style={{ width: `${(100 * o.count) / most}%` }} />
          </span>
          <span className="qs-count">{o.count}</span>
        </li>
      ))}
    </ul>
  );
}

/** A small line of the daily averages, drawn between the question's bounds (or the answers' own range). */
function Sparkline({ q }: { q: QuestionStat }) {
  const points = q.trend;
  if (points.length < 2) return null;
  const values = points.map((p) => p.average);
  const low = Math.min(...values, q.min ?? Number.POSITIVE_INFINITY);
  const high = Math.max(...values, q.max ?? Number.NEGATIVE_INFINITY);
  const span = high - low || 1;
  const w = 160;
  const h = 36;
  const xy = points.map((p, i) => [(i * w) / (points.length - 1), h - 3 - ((p.average - low) / span) * (h - 6)]);
  const label = points.map((p) => `${formatDay(p.date)}: ${p.average}`).join(", ");
  return (
    <svg className="qs-spark" viewBox={`0 0 ${w} ${h}`} role="img" aria-label={`Daily average: ${label}`}>
      <polyline points={xy.map(([x, y]) => `${x},${y}`).join(" ")} fill="none" />
      {xy.map(([x, y], i) => (
        <circle key={points[i]!.date} cx={x} cy={y} r="2.5" />
      ))}
    </svg>
  );
}

function QuestionCard({ q }: { q: QuestionStat }) {
  return (
    <article className="qs-card" aria-label={q.text}>
      <h3 className="qs-question">{q.text}</h3>
      <p className="muted qs-meta">
        {TYPE_LABEL[q.type]}
        {q.anonymous ? <span className="badge">Anonymous</span> : null}
        {q.hidden ? null : ` · ${plural(q.answered, "answer")}`}
      </p>
      {q.hidden ? (
        <p className="qs-hidden">
          Not enough answers to show.{" "}
          <span className="muted">
            Anonymous answers appear as totals of the standups that closed with at least 5 answers.
          </span>
        </p>
      ) : q.type === "number" ? (
        q.average === null ? (
          <p className="muted">No answers in this period.</p>
        ) : (
          <div className="qs-number">
            <p>
              <span className="qs-average">{q.average}</span> <span className="muted">average</span>
              {/* An anonymous question has no lowest or highest: one person gave it. */}
              {q.min !== null && q.max !== null ? (
                <span className="muted qs-range">
                  {" "}
                  · lowest {q.min}, highest {q.max}
                </span>
              ) : null}
            </p>
            <Sparkline q={q} />
          </div>
        )
      ) : (
        <OptionBars q={q} />
      )}
    </article>
  );
}

/** The statistics panel of Analytics and Reports: shown only for one standup, and only when it has typed questions. */
export function QuestionStatsPanel({
  standup,
  range,
  memberChosen = false,
}: {
  standup: string | undefined;
  range: RangeParams;
  /** A member filter is on: these totals are still everyone's (an anonymous answer has no member to filter by). */
  memberChosen?: boolean;
}) {
  const stats = useQuestionStats(standup, range);
  const standups = useStandups();
  if (!standup) return null;
  if (stats.isPending) return <Loading label="Loading question statistics…" />;
  if (stats.isError) return <ErrorState error={stats.error} onRetry={() => void stats.refetch()} />;
  if (stats.data.question_stats.length === 0) {
    // A standup given typed questions that no run has asked yet (in this period) says so, rather than showing nothing.
    const typed = standups.data
      ?.find((s) => s.id === standup)
      ?.question_details.filter((d) => d.type !== "text" || d.anonymous);
    if (!typed?.length) return null;
    return (
      <section className="panel" aria-labelledby="question-stats">
        <div className="panel-head">
          <h2 id="question-stats">Question answers</h2>
        </div>
        <p className="muted">
          No answers yet to {plural(typed.length, "typed or anonymous question")} in this period: they show here once a
          run has asked them.
        </p>
      </section>
    );
  }
  return (
    <section className="panel" aria-labelledby="question-stats" aria-busy={stats.isFetching}>
      <div className="panel-head">
        <h2 id="question-stats">Question answers</h2>
        <span className="muted">Choices, yes/no and numbers; anonymous ones only as totals of 5 or more</span>
      </div>
      {memberChosen ? (
        <p className="muted qs-note">Everyone's answers in this standup: the member filter does not apply here.</p>
      ) : null}
      <div className="qs-grid">
        {stats.data.question_stats.map((q) => (
          <QuestionCard key={`${q.index}-${q.text}`} q={q} />
        ))}
      </div>
    </section>
  );
}
