import { formatClock, formatDay, formatTimeOfDay } from "../lib/format.ts";
import type { TodayParticipant, TodayStandup } from "../lib/types.ts";

/**
 * The people of one of today's runs in words that match what the engine did: who has not answered (asked, window
 * open), who is asked later at their own time, who is away on time off (never asked, counted nowhere), who skipped.
 * Nobody is called "not answered yet" before they were asked or while they are away.
 */

/** "09:30 Berlin": the instant on the member's own clock, with where that clock is. */
function theirTime(iso: string, timezone: string): string {
  return formatTimeOfDay(iso, { zone: timezone });
}

const byAsk = (a: TodayParticipant, b: TodayParticipant) => (a.ask_at ?? "").localeCompare(b.ask_at ?? "");

/**
 * A member-timezone run says who is asked when: "Asks each person at 09:00 their time: 6 asked so far, 19 later today
 * (next: Ana at 09:00 Berlin)". Null for a run that asks everyone at once.
 */
export function askPlan(standup: TodayStandup): string | null {
  if (!standup.member_timezone) return null;
  const later = standup.not_answered.filter((p) => p.status === "not_asked_yet").sort(byAsk);
  const next = later[0];
  const parts = [`${standup.asked} asked so far`];
  if (standup.asked_later > 0) {
    const when = next?.ask_at ? ` (next: ${next.real_name} at ${theirTime(next.ask_at, next.timezone)})` : "";
    parts.push(`${standup.asked_later} later today${when}`);
  }
  return `Asks each person at ${formatClock(standup.ask_time)} their time: ${parts.join(", ")}`;
}

function Person({ p, note }: { p: TodayParticipant; note?: string | undefined }) {
  return (
    <>
      {p.real_name}
      {note ? <span className="muted"> {note}</span> : null}
    </>
  );
}

/** Names shown before the rest fold away: a big standup can wait on hundreds of people. */
const NAMES_SHOWN = 40;

function Group({
  title,
  people,
  note,
}: {
  title: string;
  people: TodayParticipant[];
  note?: (p: TodayParticipant) => string | undefined;
}) {
  if (people.length === 0) return null;
  const list = (some: TodayParticipant[]) =>
    some.map((p, i) => (
      <span key={p.user_id}>
        {i > 0 ? ", " : ""}
        <Person p={p} note={note?.(p)} />
      </span>
    ));
  const rest = people.slice(NAMES_SHOWN);
  return (
    <div className="not-answered">
      <strong>{title}</strong> {list(people.slice(0, NAMES_SHOWN))}
      {rest.length > 0 ? (
        <details className="collapsible">
          <summary>and {rest.length} more</summary>
          {list(rest)}
        </details>
      ) : null}
    </div>
  );
}

/** Everyone in the run without an answer, grouped by what happened to them. */
export function TodayPeople({ standup }: { standup: TodayStandup }) {
  const people = standup.not_answered;
  const of = (status: TodayParticipant["status"]) => people.filter((p) => p.status === status);
  const everyone = standup.asked > 0 && of("waiting").length + of("missed").length + of("skipped").length === 0;
  return (
    <div className="today-people">
      {everyone ? <p className="muted">Everyone asked answered.</p> : null}
      {/* An open member-timezone run can hold both: people whose own window is still open, and people whose closed. */}
      <Group title="Not answered yet:" people={of("waiting")} />
      <Group title="Did not answer:" people={of("missed")} />
      <Group
        title="Asked later today:"
        people={of("not_asked_yet").sort(byAsk)}
        note={(p) => (p.ask_at ? `at ${theirTime(p.ask_at, p.timezone)}` : undefined)}
      />
      <Group
        title="Away:"
        people={of("away")}
        note={(p) => (p.away_until ? `(time off until ${formatDay(p.away_until)})` : undefined)}
      />
      <Group title="Skipped:" people={of("skipped")} />
      {/* Their own time passed before the standup could ask them (created, paused or down then): counted nowhere. */}
      <Group title="Not asked (their time had passed):" people={of("not_asked")} />
    </div>
  );
}
