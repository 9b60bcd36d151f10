import type { ParticipationRow } from "./types.ts";

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
