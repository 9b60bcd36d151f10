/**
 * The benchmark workspace's people and history, generated deterministically: every random choice is a
 * hash of (seed, purpose, day, member), so the same options give the same rows in any order of generation.
 * bench/seed/seed.ts writes them through the members, schedules and standups features.
 */

import type { SlackPerson } from "../../src/features/members/index.ts";
import { isActiveBlocker, MOODS, type PastParticipant, type PastRun } from "../../src/features/standups/index.ts";

// biome-ignore format: a word list
const FIRST_NAMES = [
  "Ada", "Alan", "Amara", "Ana", "Arjun", "Aiko", "Ben", "Bea", "Carlos", "Chen", "Chloe", "Dana", "David", "Elena",
  "Emeka", "Eva", "Farah", "Felix", "Grace", "Hana", "Hugo", "Ines", "Ivan", "Jamal", "Jin", "Julia", "Kai", "Kofi",
  "Lars", "Lea", "Leila", "Liam", "Lucia", "Maya", "Mateo", "Mei", "Nadia", "Noah", "Olga", "Omar", "Priya", "Quinn",
  "Rafael", "Rosa", "Sam", "Sara", "Tariq", "Tomas", "Uma", "Yuki", "Zoe", "Zara",
];
// biome-ignore format: a word list
const LAST_NAMES = [
  "Adeyemi", "Alvarez", "Andersen", "Bauer", "Bianchi", "Costa", "Dubois", "Eriksen", "Fischer", "Garcia", "Gupta",
  "Haddad", "Ito", "Jensen", "Kim", "Kowalski", "Larsen", "Lopez", "Mendes", "Meyer", "Moreau", "Nakamura", "Nguyen",
  "Novak", "Okafor", "Olsen", "Patel", "Petrov", "Quispe", "Rossi", "Sato", "Schmidt", "Silva", "Singh", "Smith",
  "Tanaka", "Torres", "Ueda", "Varga", "Wagner", "Walsh", "Wong", "Yilmaz", "Zhang",
];

// biome-ignore format: a word list
const DONE_VERBS = [
  "Finished", "Reviewed", "Merged", "Fixed", "Shipped", "Paired on", "Wrote tests for", "Refactored", "Deployed",
  "Investigated", "Documented", "Closed out", "Prototyped", "Benchmarked", "Cleaned up",
];
// biome-ignore format: a word list
const TODO_VERBS = [
  "Working on", "Continuing", "Starting", "Reviewing", "Testing", "Pairing on", "Planning", "Polishing",
  "Writing docs for", "Debugging", "Rolling out", "Designing", "Migrating", "Estimating",
];
// biome-ignore format: a word list
const OBJECTS = [
  "the billing webhook retries", "the onboarding flow", "search indexing", "the CSV export", "the mobile login screen",
  "the Postgres upgrade", "flaky CI on main", "the analytics dashboard", "the rate limiter", "invoice PDFs",
  "the Slack reminder job", "SSO for enterprise", "the public API docs", "the pricing page", "error budgets",
  "the on-call runbook", "the data retention policy", "the new design system buttons", "timezone handling",
  "the audit log", "the notifications settings page", "the import wizard", "caching for team settings",
  "the accessibility fixes", "the release checklist", "customer feedback triage", "the feature flag cleanup",
  "the Kubernetes node pool", "the weekly metrics report", "the signup funnel experiment",
];
// biome-ignore format: a word list
const NO_BLOCKERS = [
  "None", "none", "No blockers", "Nothing", "n/a", "All good", "None for now", "No blockers today", "Nope",
  "nothing blocking", ":white_check_mark:", "-", "No", "all clear",
];
// biome-ignore format: a word list
const BLOCKERS = [
  "Waiting on a review for my PR", "Blocked by flaky CI on main", "Need access to the staging database",
  "Waiting for design sign-off", "The vendor API sandbox is down", "Need a decision on the pricing tiers",
  "Waiting on legal for the DPA wording", "My laptop died, waiting for a replacement",
  "Blocked on the infra ticket for the new queue", "Need product input on the edge cases",
];

/** Cumulative mood weights: 😀 24%, 🙂 38%, 😐 20%, 😕 10%, 😫 4%, no mood 4%. */
const MOOD_WEIGHTS: [string | null, number][] = [
  [MOODS[0], 0.24],
  [MOODS[1], 0.38],
  [MOODS[2], 0.2],
  [MOODS[3], 0.1],
  [MOODS[4], 0.04],
  [null, 0.04],
];

/** The generator's has_blocker comes from which list the answer was drawn from; it must agree with the app. */
export function checkBlockerLists(): void {
  const wrong = [
    ...NO_BLOCKERS.filter((t) => isActiveBlocker(t)).map((t) => `"${t}" counts as a blocker`),
    ...BLOCKERS.filter((t) => !isActiveBlocker(t)).map((t) => `"${t}" does not count as a blocker`),
  ];
  if (wrong.length > 0) throw new Error(`seed word lists disagree with isActiveBlocker: ${wrong.join("; ")}`);
}

// ---------------------------------------------------------------------------------------------- randomness

function fmix32(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** A float in [0, 1) from (seed, purpose, key): murmur3's finaliser over the key mixed with seed and purpose. */
function unit(seed: number, purpose: number, key: number): number {
  return fmix32(Math.imul(key, 0x9e3779b1) ^ fmix32(seed * 64 + purpose + 1)) / 4294967296;
}

function pick<T>(xs: readonly T[], u: number): T {
  return xs[Math.min(Math.floor(u * xs.length), xs.length - 1)]!;
}

// ---------------------------------------------------------------------------------------------- people and runs

/** Member i (1-based) has user id U + 8 digits, so ids sort like the numbers. */
export const memberUserId = (i: number): string => `U${String(i).padStart(8, "0")}`;

export interface BenchMember {
  index: number;
  person: SlackPerson;
  /** Which of the workspace's schedules asks this member (round-robin). */
  schedule: number;
  /** Chance of answering a run, uniform in [answerRate - spread, answerRate + spread], clamped to [0, 1]. */
  propensity: number;
}

export interface GenerateOptions {
  members: number;
  schedules: number;
  seed: number;
  answerRate: number;
  blockerRate: number;
}

/** Members 1 and every 250th are Slack admins, so they become admins of the workspace. */
export function benchMembers(o: GenerateOptions): BenchMember[] {
  const spread = Math.min(0.15, o.answerRate, 1 - o.answerRate);
  return Array.from({ length: o.members }, (_, k) => {
    const i = k + 1;
    const first = pick(FIRST_NAMES, unit(o.seed, 2, i));
    return {
      index: i,
      person: {
        userId: memberUserId(i),
        realName: `${first} ${pick(LAST_NAMES, unit(o.seed, 3, i))}`,
        displayName: `${first.toLowerCase()}${i}`,
        email: `member${i}@bench.example`,
        tz: "UTC",
        active: true,
        slackAdmin: i === 1 || i % 250 === 0,
      },
      schedule: (i - 1) % o.schedules,
      propensity: Math.min(1, Math.max(0, o.answerRate + spread * (2 * unit(o.seed, 1, i) - 1))),
    };
  });
}

export interface BenchSchedule {
  id: string;
  channelId: string;
  questions: string[];
}

const DAY_MS = 86_400_000;
const EPOCH_2000 = Date.UTC(2000, 0, 1);

/**
 * For every Monday–Friday in [fromDate, toDate] and every schedule, a run at 09:00 UTC (reminded 2 h later,
 * closed 8 h later) asking the schedule's members; each answers with their propensity, 5 min to ~4 h after
 * the start. Answers of a run come in the order they were submitted, as a live run stores them.
 */
export function* benchRuns(
  o: GenerateOptions & { fromDate: string; toDate: string },
  schedules: BenchSchedule[],
  members: BenchMember[],
): Generator<PastRun> {
  const bySchedule = schedules.map((_, n) => members.filter((m) => m.schedule === n));
  for (let t = Date.parse(`${o.fromDate}T00:00:00Z`); t <= Date.parse(`${o.toDate}T00:00:00Z`); t += DAY_MS) {
    const weekday = new Date(t).getUTCDay();
    if (weekday === 0 || weekday === 6) continue;
    const localDate = new Date(t).toISOString().slice(0, 10);
    const day = Math.round((t - EPOCH_2000) / DAY_MS);
    const startsAt = new Date(t + 9 * 3600_000);
    for (const [n, s] of schedules.entries()) {
      const asked: PastParticipant[] = bySchedule[n]!.map((m) => {
        // A distinct hash key per (day, member).
        const key = day * 100_000 + m.index;
        const userId = m.person.userId;
        if (unit(o.seed, 4, key) >= m.propensity) return { userId, dmChannel: `D${userId}` };
        const submittedAt = new Date(startsAt.getTime() + (300 + Math.floor(unit(o.seed, 7, key) * 14_100)) * 1000);
        return { userId, dmChannel: `D${userId}`, answer: benchAnswer(o, key, submittedAt) };
      });
      asked.sort((x, y) => answeredAt(x) - answeredAt(y));
      yield {
        scheduleId: s.id,
        channelId: s.channelId,
        localDate,
        questions: s.questions,
        scheduleTz: "UTC",
        startsAt,
        remindAt: new Date(startsAt.getTime() + 2 * 3600_000),
        remindedAt: new Date(startsAt.getTime() + 2 * 3600_000),
        closesAt: new Date(startsAt.getTime() + 8 * 3600_000),
        closedAt: new Date(startsAt.getTime() + 8 * 3600_000),
        parentTs: `${Math.floor(startsAt.getTime() / 1000)}.000100`,
        asked,
      };
    }
  }
}

const answeredAt = (p: PastParticipant) => p.answer?.submittedAt.getTime() ?? Number.POSITIVE_INFINITY;

/** Short verb + object phrases, some with a ticket number; ~blockerRate of them with a real blocker. */
function benchAnswer(o: GenerateOptions, key: number, submittedAt: Date) {
  const ticket = unit(o.seed, 8, key);
  const blocked = unit(o.seed, 6, key) < o.blockerRate;
  const yesterday = `${pick(DONE_VERBS, unit(o.seed, 9, key))} ${pick(OBJECTS, unit(o.seed, 10, key))}${
    ticket < 0.3 ? ` (UP-${1000 + Math.floor(ticket * 30_000)})` : ""
  }`;
  const today = `${pick(TODO_VERBS, unit(o.seed, 11, key))} ${pick(OBJECTS, unit(o.seed, 12, key))}`;
  const blockers = blocked ? pick(BLOCKERS, unit(o.seed, 13, key)) : pick(NO_BLOCKERS, unit(o.seed, 14, key));
  return { answers: [yesterday, today, blockers], mood: benchMood(unit(o.seed, 5, key)), submittedAt };
}

function benchMood(u: number): string | null {
  let cumulative = 0;
  for (const [mood, weight] of MOOD_WEIGHTS) {
    cumulative += weight;
    if (u < cumulative) return mood;
  }
  return null;
}
