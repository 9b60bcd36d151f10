import { plural } from "./format.ts";
import type { ParticipationRow, TodayStandup } from "./types.ts";

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
export function answeredWords(standup: TodayStandup): string {
  if (standup.asked === 0) return standup.open && standup.asked_later > 0 ? "Nobody asked yet" : "Nobody was asked";
  return `${standup.answered} of ${plural(standup.asked, "member")} answered${standup.open ? " so far" : ""}`;
}
