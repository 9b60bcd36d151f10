import { DateTime } from "luxon";
import { escapeHtml } from "../../lib/html.ts";
import type { StandupDigest, WeeklyDigest } from "./digest.content.ts";
import { emailHtml, type Rendered, textFooter } from "./email.layout.ts";

/** The weekly digest as HTML (every value escaped) and plain text. */

const TREND: Record<StandupDigest["mood"]["trend"], string> = { up: "rising", down: "falling", flat: "steady" };

const day = (date: string) => DateTime.fromISO(date).setLocale("en-GB").toFormat("ccc d LLL");
const weekday = (date: string) => DateTime.fromISO(date).setLocale("en-GB").toFormat("ccc");

export function weekLabel(d: Pick<WeeklyDigest, "weekStart" | "weekEnd">): string {
  const start = DateTime.fromISO(d.weekStart).setLocale("en-GB");
  const end = DateTime.fromISO(d.weekEnd).setLocale("en-GB");
  return `${start.toFormat("ccc d LLL")} – ${end.toFormat("ccc d LLL yyyy")}`;
}

function moodLine(s: StandupDigest): string {
  if (s.mood.average === null) return "no moods given";
  const daily = s.mood.daily.map((d) => `${weekday(d.date)} ${d.avg.toFixed(1)}`).join(" · ");
  return `${s.mood.average.toFixed(1)} of 5, ${TREND[s.mood.trend]} (${daily})`;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function participationLine(s: StandupDigest): string {
  return `${s.pct}% (${s.submitted} of ${s.total} answers, ${plural(s.runDays, "day")})`;
}

function standupHtml(s: StandupDigest): string {
  const blockers =
    s.blockers.count === 0
      ? "<li>Open blockers: none</li>"
      : `<li>Open blockers: ${s.blockers.count}<ul style="margin:4px 0 0;padding-left:18px">${s.blockers.latest
          .map(
            (b) =>
              `<li><strong>${escapeHtml(b.name)}</strong> <span style="color:#59636e">(${escapeHtml(day(b.date))})</span>: ${escapeHtml(b.text)}</li>`,
          )
          .join("")}</ul></li>`;
  return `<h2 style="font-size:17px;margin:20px 0 6px">${escapeHtml(s.name)}</h2>
<ul style="margin:0;padding-left:18px">
<li>Participation: ${escapeHtml(participationLine(s))}</li>
<li>Mood: ${escapeHtml(moodLine(s))}</li>
${blockers}
</ul>`;
}

function standupText(s: StandupDigest): string {
  const lines = [s.name, `  Participation: ${participationLine(s)}`, `  Mood: ${moodLine(s)}`];
  lines.push(`  Open blockers: ${s.blockers.count === 0 ? "none" : s.blockers.count}`);
  for (const b of s.blockers.latest) lines.push(`    - ${b.name} (${day(b.date)}): ${b.text}`);
  return lines.join("\n");
}

export function renderDigest(
  d: WeeklyDigest,
  links: { dashboardUrl: string; unsubscribeUrl: string; recipientName: string },
): Rendered {
  const week = weekLabel(d);
  const subject = `Upbeat weekly digest for ${d.teamName}: ${week}`;
  const more = d.moreStandups > 0 ? `And ${plural(d.moreStandups, "more standup")}: see the dashboard.` : "";
  const kudos = `Kudos given: ${d.kudos}`;
  const greeting = `Hi ${links.recipientName}, here is last week in ${d.teamName} (${week}, ${d.timezone}).`;
  const body = [
    `<h1 style="font-size:20px;margin:0 0 8px">Your weekly Upbeat digest</h1>`,
    `<p style="margin:0 0 8px">${escapeHtml(greeting)}</p>`,
    ...d.standups.map(standupHtml),
    more ? `<p>${escapeHtml(more)}</p>` : "",
    `<p style="margin-top:20px"><strong>${escapeHtml(kudos)}</strong></p>`,
  ].join("\n");
  const text = [
    "Your weekly Upbeat digest",
    "",
    greeting,
    "",
    ...d.standups.flatMap((s) => [standupText(s), ""]),
    ...(more ? [more, ""] : []),
    kudos,
    "",
    textFooter(links.dashboardUrl, links.unsubscribeUrl),
  ].join("\n");
  return { subject, html: emailHtml({ title: subject, body, ...links }), text };
}
