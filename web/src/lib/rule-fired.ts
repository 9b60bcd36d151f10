import { type DateTimeOptions, formatInstant } from "./datetime.ts";
import { plural } from "./format.ts";
import type { Rule } from "./types.ts";

/**
 * Whether a rule ever acted, so an admin can tell a quiet rule from a broken one: "Last fired 27 Nov 2026, 21:30
 * London · 3 times". Firings are kept 90 days, so both figures cover that window.
 */
export function ruleFiredWords(rule: Pick<Rule, "last_fired_at" | "fired_count">, o: DateTimeOptions = {}): string {
  if (!rule.last_fired_at || rule.fired_count === 0) return "Not fired in the last 90 days";
  return `Last fired ${formatInstant(rule.last_fired_at, o)} · ${plural(rule.fired_count, "time")}`;
}
