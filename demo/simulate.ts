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

/**
 * Simulated members: they notice their standup DM, wait a little, and answer through the service's
 * real intake (signed HTTP requests or Socket Mode envelopes), as Slack would deliver them.
 */
export class MemberSimulator {
  readonly #handled = new Set<string>();
  readonly #r = rng(Date.now() % 100_000);
  #timer: NodeJS.Timeout | undefined;
  #pending = new Set<NodeJS.Timeout>();

  constructor(
    private readonly fake: FakeSlack,
    private readonly deliver: DemoDelivery,
  ) {}

  start(): void {
    this.#timer = setInterval(() => this.#scan(), 2_000);
    this.#timer.unref();
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    for (const t of this.#pending) clearTimeout(t);
  }

  #scan(): void {
    for (const p of DEMO_PEOPLE) {
      if (p.admin) continue; // The person signed in answers for real, in Slack or not at all.
      const dm = this.fake.dmFor(DEMO_TEAM.id, p.id);
      for (const m of this.fake.messages(dm)) {
        if (this.#handled.has(m.ts) || !m.text.startsWith("Time for standup")) continue;
        this.#handled.add(m.ts);
        const runId = JSON.stringify(m.blocks ?? []).match(/"action_id":"standup_answer","value":"(\d+)"/)?.[1];
        if (!runId) continue;
        const roll = this.#r();
        if (roll > 0.9) continue; // some people never get to it
        const delay = 5_000 + Math.floor(this.#r() * 90_000);
        const t = setTimeout(() => {
          this.#pending.delete(t);
          const answer = roll < 0.7 ? this.#viaModal(p.id, Number(runId), dm) : this.#viaConversation(p.id, dm);
          answer.catch((err: unknown) => process.stderr.write(`demo: simulated answer failed: ${String(err)}\n`));
        }, delay);
        this.#pending.add(t);
      }
    }
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
      await new Promise((resolve) => setTimeout(resolve, 1_500));
    }
  }
}
