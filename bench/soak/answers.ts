/**
 * The participants: every ask DM the app posts to the fake is read here (its run id from the Answer button)
 * and answered the way people do, after a while: most reply in the DM one question at a time (message.im
 * events), some open the modal (the Answer button, then a view_submission), a few press Skip today and the
 * rest never answer.
 */
import type { FakeSlack, RecordedCall } from "../../dev/fake-slack/index.ts";
import { deliverEvent } from "./load.ts";
import type { AppClient, Check } from "./stats.ts";
import { expectStatus } from "./stats.ts";
import { buttonPayload, interactionRequest, messageTs, modalSubmission, type Team } from "./world.ts";

/** Text of the ask DM (src/features/standups/messages.ts askMessage). */
const ASK_PREFIX = "Time for standup in <#";
/** The questions every soak and seeded schedule asks (the three built-in ones). */
const QUESTIONS = 3;
const MOODS = ["😀", "🙂", "😐", "😕", "😫"];
const ANSWERS = [
  ["Reviewed the billing webhook retries", "Working on the CSV export", "None"],
  ["Fixed flaky CI on main", "Pairing on the onboarding flow", "Waiting on a review for my PR"],
  ["Shipped the rate limiter", "Testing the Slack reminder job", "No blockers"],
  ["Benchmarked search indexing", "Planning the Postgres upgrade", "Need access to the staging database"],
];

export interface Ask {
  teamId: string;
  userId: string;
  runId: number;
  channelId: string;
  at: number;
}

export interface AnswerCounts {
  asks: number;
  dm: number;
  modal: number;
  skipped: number;
  ignored: number;
}

function runIdOf(call: RecordedCall): number | undefined {
  const blocks = Array.isArray(call.args.blocks) ? (call.args.blocks as { elements?: unknown[] }[]) : [];
  for (const b of blocks) {
    for (const e of (b.elements ?? []) as { action_id?: string; value?: string }[]) {
      if (e.action_id === "standup_answer") return Number(e.value);
    }
  }
  return undefined;
}

export class Participants {
  readonly counts: AnswerCounts = { asks: 0, dm: 0, modal: 0, skipped: 0, ignored: 0 };
  #cursor = 0;
  readonly #timers = new Set<NodeJS.Timeout>();
  readonly #teams: Map<string, Team>;
  /** DM channel id → [team, user]. */
  readonly #dmOwner = new Map<string, [Team, string]>();
  #stopped = false;

  constructor(
    private readonly fake: FakeSlack,
    teams: Team[],
    private readonly client: AppClient,
    private readonly random: () => number,
    private readonly onAsk: (ask: Ask) => void,
  ) {
    this.#teams = new Map(teams.map((t) => [t.id, t]));
    for (const t of teams) for (const [user, dm] of t.dmOf) this.#dmOwner.set(dm, [t, user]);
  }

  /** Reads the fake's new chat.postMessage calls (the list only grows) and plans an answer to each ask. */
  poll(): void {
    const calls = this.fake.callsTo("chat.postMessage");
    for (; this.#cursor < calls.length; this.#cursor++) {
      const c = calls[this.#cursor]!;
      if (!c.ok || typeof c.args.text !== "string" || !c.args.text.startsWith(ASK_PREFIX)) continue;
      const channel = String(c.args.channel ?? "");
      // The app posts to the DM id from conversations.open, or to the user id (Slack opens the DM then).
      const owner =
        this.#dmOwner.get(channel) ??
        (c.teamId && this.#teams.get(c.teamId)?.dmOf.has(channel)
          ? ([this.#teams.get(c.teamId)!, channel] as [Team, string])
          : undefined);
      const runId = runIdOf(c);
      if (!owner || runId === undefined || !Number.isSafeInteger(runId)) continue;
      const [team, userId] = owner;
      const ask: Ask = {
        teamId: team.id,
        userId,
        runId,
        channelId: c.args.text.slice(ASK_PREFIX.length).replace(/>$/, ""),
        at: c.at,
      };
      this.counts.asks += 1;
      this.onAsk(ask);
      if (!this.#stopped) this.#plan(team, ask);
    }
  }

  #later(ms: number, fn: () => void): void {
    if (this.#stopped) return;
    const t = setTimeout(() => {
      this.#timers.delete(t);
      if (!this.#stopped) fn();
    }, ms);
    this.#timers.add(t);
  }

  #plan(team: Team, ask: Ask): void {
    const r = this.random;
    const dm = team.dmOf.get(ask.userId)!;
    const answers = ANSWERS[Math.floor(r() * ANSWERS.length)]!;
    const x = r();
    const delay = 3_000 + r() * 40_000;
    if (x < 0.75) {
      // One message per question, a few seconds apart, as people type.
      this.counts.dm += 1;
      let at = delay;
      for (let q = 0; q < QUESTIONS; q++) {
        const text = answers[q]!;
        this.#later(at, () => {
          const event = { type: "message", channel: dm, channel_type: "im", user: ask.userId, text, ts: messageTs() };
          void deliverEvent(this.client, "POST /chat/events message.im (answer)", team.id, event);
        });
        at += 1_000 + r() * 4_000;
      }
    } else if (x < 0.88) {
      this.counts.modal += 1;
      this.#later(delay, () => {
        const press = interactionRequest(buttonPayload(team.id, ask.userId, dm, "standup_answer", ask.runId));
        void this.client.send("POST /chat/interactions block_actions", press, expectStatus(200));
      });
      const mood = MOODS[Math.floor(r() * MOODS.length)]!;
      this.#later(delay + 5_000 + r() * 20_000, () => {
        const submit = interactionRequest(modalSubmission(team.id, ask.userId, ask.runId, answers, mood));
        // An accepted submission is answered with an empty body; a refusal carries response_action "errors".
        const check: Check = expectStatus(200, (body) => (body === "" ? undefined : `refused: ${body.slice(0, 120)}`));
        void this.client.send("POST /chat/interactions view_submission", submit, check);
      });
    } else if (x < 0.93) {
      this.counts.skipped += 1;
      this.#later(delay, () => {
        const press = interactionRequest(buttonPayload(team.id, ask.userId, dm, "standup_skip", ask.runId));
        void this.client.send("POST /chat/interactions block_actions", press, expectStatus(200));
      });
    } else {
      this.counts.ignored += 1;
    }
  }

  /** Answers still planned (not yet sent). */
  get pending(): number {
    return this.#timers.size;
  }

  stop(): void {
    this.#stopped = true;
    for (const t of this.#timers) clearTimeout(t);
    this.#timers.clear();
  }
}
