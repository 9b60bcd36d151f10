import { AnswerCard, hasBlocker } from "../components/answer.tsx";
import { formatLongDay, plural } from "../lib/format.ts";
import { participationLabel } from "../lib/participation.ts";
import type { ParticipationRow, StandupParticipation, StandupResponse } from "../lib/types.ts";

export interface StandupGroup {
  scheduleId: string;
  responses: StandupResponse[];
  participation: StandupParticipation | undefined;
}

export interface DayGroup {
  date: string;
  standups: StandupGroup[];
  /** People with an answer that day reporting a blocker (each counted once): not "active blockers". */
  blockers: number;
  participation: ParticipationRow | undefined;
  /** The workspace holiday's name when the day is one (no standup ran). */
  holiday?: string | undefined;
}

/**
 * Newest day first; inside a day, one group per standup (in the order of `label`), answers in the order
 * they came. Days that had a run but no answer appear only where the loaded pages reach (`complete`: all of
 * them are loaded), so a day is never called empty because its answers are on a page not loaded yet.
 */
export function groupByDay(
  standups: StandupResponse[],
  participation: ParticipationRow[],
  opts: {
    complete: boolean;
    searching: boolean;
    label: (scheduleId: string) => string;
    holidays?: { date: string; name: string }[];
  },
): DayGroup[] {
  const days = new Map<string, Map<string, StandupResponse[]>>();
  for (const r of standups) {
    const day = days.get(r.standup_date) ?? new Map<string, StandupResponse[]>();
    const group = day.get(r.schedule_id) ?? [];
    group.push(r);
    day.set(r.schedule_id, group);
    days.set(r.standup_date, day);
  }
  const oldestLoaded = standups.at(-1)?.standup_date;
  if (!opts.searching) {
    for (const p of participation) {
      const reached = opts.complete || (oldestLoaded !== undefined && p.date > oldestLoaded);
      const day = days.get(p.date) ?? new Map<string, StandupResponse[]>();
      if (!reached) continue;
      for (const s of p.standups) if (!day.has(s.schedule_id)) day.set(s.schedule_id, []);
      days.set(p.date, day);
    }
    for (const h of opts.holidays ?? []) {
      const reached = opts.complete || (oldestLoaded !== undefined && h.date > oldestLoaded);
      if (reached && !days.has(h.date)) days.set(h.date, new Map());
    }
  }
  const holidayName = new Map((opts.holidays ?? []).map((h) => [h.date, h.name]));
  return [...days.entries()]
    .sort(([a], [b]) => (a < b ? 1 : a > b ? -1 : 0))
    .map(([date, groups]) => {
      const dayParticipation = participation.find((p) => p.date === date);
      return {
        date,
        standups: [...groups.entries()]
          .map(([scheduleId, responses]) => ({
            scheduleId,
            responses,
            participation: dayParticipation?.standups.find((s) => s.schedule_id === scheduleId),
          }))
          .sort((a, b) => opts.label(a.scheduleId).localeCompare(opts.label(b.scheduleId))),
        blockers: new Set(
          [...groups.values()]
            .flat()
            .filter(hasBlocker)
            .map((r) => r.user_id),
        ).size,
        participation: dayParticipation,
        holiday: holidayName.get(date),
      };
    });
}

/** "3 of 5 answered (60%)", or "40% so far · 3 awaiting (2 of 5 answered)" while a run is open. */
export function answeredLine(p: Pick<ParticipationRow, "submitted" | "total" | "pct" | "open" | "awaiting">): string {
  return participationLabel(p);
}

/** A day's count is people who reported a blocker that day; "active blockers" counts open blocker items. */
export function reportedBlocker(people: number): string {
  return `${plural(people, "person", "people")} reported a blocker`;
}

function StandupBlock({ date, group, label }: { date: string; group: StandupGroup; label: string }) {
  const id = `standup-${date}-${group.scheduleId}`;
  return (
    <details className="collapsible standup-group" open>
      <summary>
        <h3 id={id} className="standup-group-title">
          {label}
        </h3>
        <span className="muted">
          {group.participation ? answeredLine(group.participation) : plural(group.responses.length, "answer")}
        </span>
      </summary>
      {group.responses.length === 0 ? (
        <p className="muted">Nobody answered.</p>
      ) : (
        <div className="answers">
          {group.responses.map((r) => (
            <AnswerCard key={`${r.user_id}-${r.submitted_at}`} response={r} />
          ))}
        </div>
      )}
    </details>
  );
}

export function ReportDay({ day, label }: { day: DayGroup; label: (scheduleId: string) => string }) {
  return (
    <details className="collapsible day" open aria-labelledby={`day-${day.date}`}>
      <summary className="day-head">
        <h2 id={`day-${day.date}`}>{formatLongDay(day.date)}</h2>
        <span className="muted">
          {day.holiday !== undefined ? <span className="badge">holiday</span> : null}
          {day.holiday !== undefined ? ` ${day.holiday}` : null}
          {day.holiday !== undefined && day.standups.length === 0
            ? null
            : day.participation
              ? answeredLine(day.participation)
              : plural(day.standups.length, "standup")}
          {day.blockers ? (
            <>
              {" · "}
              <span className="text-warning">{reportedBlocker(day.blockers)}</span>
            </>
          ) : null}
        </span>
      </summary>
      {day.standups.map((g) => (
        <StandupBlock key={g.scheduleId} date={day.date} group={g} label={label(g.scheduleId)} />
      ))}
    </details>
  );
}
