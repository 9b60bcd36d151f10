import type { FakeSlack } from "../dev/fake-slack/index.ts";
import { interactionForm, sign } from "../dev/slack-signing.ts";
import {
  BLOCKERS_NONE,
  BLOCKERS_REAL,
  DEMO_PEOPLE,
  DEMO_TEAM,
  MOOD_WEIGHTS,
  pick,
  pickWeighted,
  rng,
  TODAY,
  YESTERDAY,
} from "./people.ts";

/** How the simulated Slack hands the members' clicks and messages to the service. */
export interface DemoDelivery {
  interaction(payload: Record<string, unknown>): Promise<void>;
  /** An Events API envelope (`event_callback`). */
  event(envelope: Record<string, unknown>): Promise<void>;
}

/** Signed HTTP requests to the service's real /chat endpoints, as Slack posts them. */
export function signedHttp(appUrl: string, signingSecret: string): DemoDelivery {
  const post = async (path: string, body: string, contentType: string) => {
    const { headers } = sign(body, { nowMs: Date.now(), secret: signingSecret, contentType });
    const res = await fetch(`${appUrl}${path}`, { method: "POST", headers, body });
    if (!res.ok) throw new Error(`${path} answered ${res.status}`);
  };
  return {
    interaction: (payload) => post("/chat/interactions", interactionForm(payload), "application/x-www-form-urlencoded"),
    event: (envelope) => post("/chat/events", JSON.stringify(envelope), "application/json"),
  };
}

/** Envelopes over the fake's Socket Mode connection (`npm run demo -- --socket-mode`), acknowledged by the service. */
export function overSocket(fake: FakeSlack): DemoDelivery {
  const acked = async (ack: Promise<unknown>, what: string) => {
    if ((await ack) === undefined) throw new Error(`${what} envelope was never acknowledged`);
  };
  return {
    interaction: (payload) => acked(fake.socket.sendInteraction(payload), "an interactive"),
    event: (envelope) => acked(fake.socket.deliver("events_api", envelope).acked, "an events_api"),
  };
}

/** How the simulated members behave; the defaults are the demo's, tests answer at once. */
export interface SimulatorPace {
  /** How long a member waits before answering a DM. */
  delayMs: () => number;
  /** The share of asks nobody gets to. */
  neverAnswer: number;
  /** The pause between the messages of an answer typed in the conversation. */
  typingMs: number;
}

/**
 * Simulated members: they notice each standup DM (scheduled, Run now, or asked at their own 09:30 on a
 * member-timezone standup: every ask carries its run's Answer button), wait a little, and answer through the
 * service's real intake (signed HTTP requests or Socket Mode envelopes), as Slack would deliver them.
 */
export class MemberSimulator {
  readonly #handled = new Set<string>();
  readonly #r = rng(Date.now() % 100_000);
  readonly #pace: SimulatorPace;
  #timer: NodeJS.Timeout | undefined;
  #pending = new Set<NodeJS.Timeout>();
  #answering = new Set<Promise<void>>();
  /** The runs each member is answering in the conversation: a second one waits, as the service would make it. */
  #talking = new Map<string, Promise<void>>();

  constructor(
    private readonly fake: FakeSlack,
    private readonly deliver: DemoDelivery,
    pace: Partial<SimulatorPace> = {},
  ) {
    this.#pace = {
      delayMs: () => 5_000 + Math.floor(this.#r() * 90_000),
      neverAnswer: 0.1,
      typingMs: 1_500,
      ...pace,
    };
  }

  start(): void {
    this.#timer = setInterval(() => this.scan(), 2_000);
    this.#timer.unref();
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    for (const t of this.#pending) clearTimeout(t);
  }

  /** Until every answer started so far has been delivered (tests). */
  async settled(): Promise<void> {
    while (this.#pending.size > 0 || this.#answering.size > 0) {
      await Promise.all([...this.#answering, new Promise((resolve) => setTimeout(resolve, 20))]);
    }
  }

  /** Looks through every simulated member's DM for asks not seen yet, and schedules their answers. */
  scan(): void {
    for (const p of DEMO_PEOPLE) {
      if (p.admin) continue; // The person signed in answers for real, in Slack or not at all.
      const dm = this.fake.dmFor(DEMO_TEAM.id, p.id);
      for (const m of this.fake.messages(dm)) {
        if (this.#handled.has(m.ts)) continue;
        // The Answer button names the run: it tells an ask (whatever its wording) from confirmations and reminders.
        const runId = JSON.stringify(m.blocks ?? []).match(/"action_id":"standup_answer"[^}]*?"value":"(\d+)"/)?.[1];
        if (!runId || m.text.startsWith("Reminder")) continue;
        this.#handled.add(m.ts);
        const roll = this.#r();
        if (roll < this.#pace.neverAnswer) continue; // some people never get to it
        const t = setTimeout(() => {
          this.#pending.delete(t);
          // The modal names its run; an answer in the conversation goes to whichever run the DM is asking about,
          // so a member's conversations follow one another.
          const viaModal = this.#r() < 0.7;
          const answer = viaModal
            ? this.#viaModal(p.id, Number(runId), dm)
            : this.#inTurn(p.id, () => this.#viaConversation(p.id, dm));
          const done: Promise<void> = answer
            .catch((err: unknown) => {
              process.stderr.write(`demo: simulated answer failed: ${String(err)}\n`);
            })
            .finally(() => this.#answering.delete(done));
          this.#answering.add(done);
        }, this.#pace.delayMs());
        this.#pending.add(t);
      }
    }
  }

  #inTurn(userId: string, work: () => Promise<void>): Promise<void> {
    const next = (this.#talking.get(userId) ?? Promise.resolve()).then(work);
    this.#talking.set(
      userId,
      next.catch(() => undefined),
    );
    return next;
  }

  #answers(): [string, string, string] {
    const blockers = this.#r() < 0.15 ? pick(this.#r, BLOCKERS_REAL) : pick(this.#r, BLOCKERS_NONE);
    return [pick(this.#r, YESTERDAY), pick(this.#r, TODAY), blockers];
  }

  async #viaModal(userId: string, runId: number, dm: string): Promise<void> {
    const base = {
      team: { id: DEMO_TEAM.id, domain: DEMO_TEAM.domain },
      user: { id: userId, team_id: DEMO_TEAM.id },
      api_app_id: "A0FAKEUPBEAT",
      token: "demo",
    };
    await this.deliver.interaction({
      ...base,
      type: "block_actions",
      trigger_id: `demo.${runId}.${userId}`,
      channel: { id: dm },
      actions: [{ type: "button", action_id: "standup_answer", block_id: "a", value: String(runId), action_ts: "1" }],
    });
    const answers = this.#answers();
    const mood = pickWeighted(this.#r, MOOD_WEIGHTS);
    await this.deliver.interaction({
      ...base,
      type: "view_submission",
      trigger_id: `demo.sub.${runId}.${userId}`,
      view: {
        id: `V${runId}${userId}`,
        type: "modal",
        callback_id: "standup_modal",
        private_metadata: JSON.stringify({ runId }),
        state: {
          values: {
            ...Object.fromEntries(answers.map((a, i) => [`q${i}`, { answer: { type: "plain_text_input", value: a } }])),
            mood: {
              mood: {
                type: "static_select",
                selected_option: { value: mood, text: { type: "plain_text", text: mood } },
              },
            },
          },
        },
      },
    });
  }

  async #viaConversation(userId: string, dm: string): Promise<void> {
    let n = 0;
    for (const text of this.#answers()) {
      n += 1;
      await this.deliver.event({
        type: "event_callback",
        team_id: DEMO_TEAM.id,
        api_app_id: "A0FAKEUPBEAT",
        event_id: `EvDEMO${Date.now()}${userId}${n}`,
        event_time: Math.floor(Date.now() / 1000),
        event: { type: "message", channel_type: "im", channel: dm, user: userId, text, ts: `${Date.now() / 1000}` },
      });
      await new Promise((resolve) => setTimeout(resolve, this.#pace.typingMs));
    }
  }
}
