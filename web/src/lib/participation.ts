import { plural } from "./format.ts";
import type { LastRun, ParticipationRow, ReportSummary, TodayStandup } from "./types.ts";

type Figures = Pick<ParticipationRow, "submitted" | "total" | "pct" | "open" | "awaiting">;

/**
 * One wording for a participation figure. A run still open is answered so far, never a final figure (an open
 * day once read 100 % while 19 of 25 had not answered): "24% so far · 19 awaiting (6 of 25 answered)".
 */
export function participationLabel(p: Figures): string {
  if (!p.open) return `${p.submitted} of ${p.total} answered (${p.pct}%)`;
  const awaiting = p.awaiting > 0 ? ` · ${p.awaiting} awaiting` : "";
  return `${p.pct}% so far${awaiting} (${p.submitted} of ${p.total} answered)`;
}

/**
 * The run's answered count in words: "3 of 5 members answered so far". A run that asked nobody is not "0 of 0
 * answered": before anyone's own time it is "Nobody asked yet"; when everyone's time had passed before it began
 * (a standup created late in the day), "Nobody was asked".
 */
export function answeredWords(standup: Pick<TodayStandup, "asked" | "answered" | "open" | "asked_later">): string {
  if (standup.asked === 0) return standup.open && standup.asked_later > 0 ? "Nobody asked yet" : "Nobody was asked";
  return `${standup.answered} of ${plural(standup.asked, "member")} answered${standup.open ? " so far" : ""}`;
}

/**
 * A standup's last run in the Today card's words. Run now asks everyone at once, but the asks go out in the
 * background: right after the button, an open manual run with nobody asked is "Nobody asked yet", not "0 of 0".
 */
export function lastRunAnsweredWords(last: LastRun): string {
  const open = last.status === "open";
  const stillToAsk = last.asked_later + (open && last.trigger === "manual" && last.asked === 0 ? 1 : 0);
  return answeredWords({ asked: last.asked, answered: last.answered, open, asked_later: stillToAsk });
}

/** Who the run did not ask and why, so "11 of 12" beside "13 people" explains itself: "1 away · 2 asked later". */
export function notAskedWords(last: Pick<LastRun, "away" | "asked_later" | "status">): string {
  const parts: string[] = [];
  if (last.away > 0) parts.push(`${last.away} away`);
  if (last.asked_later > 0 && last.status === "open") parts.push(`${last.asked_later} asked later, at their own time`);
  return parts.join(" · ");
}

/**
 * The Overview's "Answered today" card, counted as the Today card below counts (answers of the people asked in
 * today's runs), never of every member: "8" / "of 12 asked today"; before anyone is asked, "Nobody asked yet today".
 */
export function answeredTodayWords(standups: Pick<TodayStandup, "asked" | "answered">[]): {
  value: string;
  hint: string;
} {
  const asked = standups.reduce((n, s) => n + s.asked, 0);
  const answered = standups.reduce((n, s) => n + s.answered, 0);
  if (asked === 0) return { value: String(answered), hint: "Nobody asked yet today" };
  return { value: String(answered), hint: `of ${asked} asked today` };
}

/**
 * The Reports summary's counts. A search narrows the answers but not participation (who was asked and answered
 * in the period, search aside), so with a search the two are worded apart:
 * "4 answers match “roadmap”, from 4 members · participation in this period: 80% (47 of 59 asked)".
 */
export function reportCountsWords(s: ReportSummary, q?: string): string {
  const answers = q
    ? `${plural(s.responses, "answer")} ${s.responses === 1 ? "matches" : "match"} “${q.trim()}”, from ${plural(s.members_answered, "member")}`
    : `${plural(s.responses, "answer")} from ${plural(s.members_answered, "member")}`;
  if (s.asked === 0) return answers;
  const participation = q
    ? ` · participation in this period: ${s.pct}% (${s.answered} of ${s.asked} asked)`
    : ` · ${s.pct}% participation (${s.answered} of ${s.asked} asked)`;
  return answers + participation;
}
