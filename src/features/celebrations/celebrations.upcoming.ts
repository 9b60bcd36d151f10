import { DateTime, IANAZone } from "luxon";
import type { Deps } from "../../deps.ts";
import { readCalendar, shiftDate, todayIn } from "../calendar/index.ts";
import { type Celebration, celebrationsBetween, MAX_SHIFT_DAYS, postDateFor } from "./celebrations.dates.ts";
import { celebratedPeople, postOutcomes, type SettingsRow, selectSettings } from "./celebrations.repo.ts";
import { workCalendar } from "./celebrations.service.ts";

/** How far ahead GET upcoming looks: today and the 29 days after it. */
export const UPCOMING_DAYS = 30;

/**
 * What became of a celebration's post, so the dashboard never calls a planned post "posted": `posted` once Slack
 * took the message naming them; `planned` while its posting day (or today's post time) is still to come, or its
 * post is on its way; `not_posted` when it will not be (no channel, its day passed without a post, today's post
 * time had passed when the settings were saved, or the post left them out or failed).
 */
export type PostStatus = "posted" | "planned" | "not_posted";

export interface UpcomingView {
  user_id: string;
  name: string;
  kind: Celebration["kind"];
  years: number | null;
  date: string;
  post_date: string | null;
  post_status: PostStatus;
}

type Outcome = Awaited<ReturnType<typeof postOutcomes>>[number];

function statusOf(
  c: Celebration,
  postDate: string | undefined,
  ctx: { today: string; zone: string; now: Date; settings: SettingsRow | undefined; outcomes: Outcome[] },
): PostStatus {
  const { settings } = ctx;
  if (!postDate) return "not_posted";
  const claim = ctx.outcomes.find((o) => o.kind === c.kind && o.post_date === postDate);
  if (claim) {
    if (!claim.user_ids.includes(c.userId) || claim.state === "failed") return "not_posted";
    return claim.state === "sent" ? "posted" : "planned";
  }
  if (!settings?.channelId || postDate < ctx.today) return "not_posted";
  if (postDate > ctx.today) return "planned";
  // Today, not claimed yet: the scheduler claims it at the post time, unless the settings were saved after it.
  const [h, m] = settings.postTime.split(":").map(Number) as [number, number];
  const due = DateTime.fromISO(postDate, { zone: ctx.zone }).set({ hour: h, minute: m }).toJSDate();
  return ctx.now < due || settings.updatedAt < due ? "planned" : "not_posted";
}

/** Every celebration from today through the next 29 days (calendar zone), with the day each is posted and whether. */
export async function upcoming(deps: Pick<Deps, "db" | "clock">, teamId: string): Promise<UpcomingView[]> {
  const cal0 = await readCalendar(deps.db, teamId);
  const zone = IANAZone.isValidZone(cal0.timezone) ? cal0.timezone : "UTC";
  const now = deps.clock.now();
  const today = todayIn(zone, now);
  const last = shiftDate(today, UPCOMING_DAYS - 1);
  const [{ work }, people, settings, outcomes] = await Promise.all([
    workCalendar(deps, teamId, shiftDate(today, -400), last),
    celebratedPeople(deps.db, teamId),
    selectSettings(deps.db, teamId),
    // A post moves back before holidays and days off, at most MAX_SHIFT_DAYS: its claim may be that old.
    postOutcomes(deps.db, teamId, shiftDate(today, -MAX_SHIFT_DAYS), last),
  ]);
  const kinds = (["birthday", "anniversary"] as const).filter((k) =>
    k === "birthday" ? (settings?.birthdays ?? true) : (settings?.anniversaries ?? true),
  );
  const ctx = { today, zone, now, settings, outcomes };
  // 5,000 people × 30 days × 2 kinds: each person's dates are worked out once, not once a day.
  const byKind = new Map(kinds.map((kind) => [kind, celebrationsBetween(today, last, people, kind)]));
  const out: UpcomingView[] = [];
  for (let d = today; d <= last; d = shiftDate(d, 1)) {
    for (const kind of kinds) {
      for (const c of byKind.get(kind)?.get(d) ?? []) {
        const postDate = postDateFor(c.date, work);
        out.push({
          user_id: c.userId,
          name: c.name,
          kind: c.kind,
          years: c.years,
          date: c.date,
          post_date: postDate ?? null,
          post_status: statusOf(c, postDate, ctx),
        });
      }
    }
  }
  return out;
}
