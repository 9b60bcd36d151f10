import type { AllMiddlewareArgs, App, SlackCommandMiddlewareArgs } from "@slack/bolt";

/**
 * What a feature registers its Slack listeners on: Bolt's own methods and signatures, so listeners are written as
 * for Bolt. Events, actions and views are keyed by a plain string (event type, action_id, view callback_id).
 */
export type ChatListeners = Pick<App, "event" | "action" | "view" | "use"> & {
  /**
   * A slash-command verb (the first word of the command's text, any case): `/upbeat kudos @ana thanks` runs the
   * `kudos` verb with `rest` = " @ana thanks". Empty text and verbs nobody registered run the `help` verb.
   */
  verb(name: string, handler: VerbHandler): void;
};

export type VerbArgs = SlackCommandMiddlewareArgs &
  Pick<AllMiddlewareArgs, "client"> & {
    /** The command's text after the verb, as typed (case kept). */
    rest: string;
  };
export type VerbHandler = (args: VerbArgs) => Promise<unknown>;

/** Runs every listener at once; rejects with the first failure (after all settled), as Bolt does with one. */
export async function runListeners(matched: readonly Listener[], args: Record<string, unknown>): Promise<void> {
  if (matched.length === 1) {
    await matched[0]!(args);
    return;
  }
  const settled = await Promise.allSettled(matched.map(async (listener) => listener(args)));
  const failed = settled.find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failed) throw failed.reason;
}

/** The verb that answers empty text and verbs nobody registered. */
export const HELP_VERB = "help";

// biome-ignore lint/suspicious/noExplicitAny: Bolt's listener arguments, passed through unchanged
export type Listener = (args: any) => Promise<unknown> | unknown;
/** Bolt's `event`, `action` and `view` as the router calls them: every type, action_id or callback_id. */
type RegisterAll = (constraint: RegExp, listener: (args: Record<string, unknown>) => Promise<void>) => void;

/**
 * Bolt runs every registered listener's middleware chain for every request, each on a fresh copy of its
 * arguments, to let each listener decide whether the request is its own; with twenty listeners that cost more than
 * the rest of handling an event. The router registers one Bolt listener per kind (event, action, view) and picks the
 * listeners of a request from a map. Behaviour is Bolt's: every matching listener runs, at once; one listener's
 * failure reaches Bolt's error handler as it would (several: the first); a request nothing matches is not acked.
 */
export class ChatRouter {
  readonly #events = new Map<string, Listener[]>();
  readonly #actions = new Map<string, Listener[]>();
  readonly #views = new Map<string, Listener[]>();
  readonly #verbs = new Map<string, VerbHandler>();
  readonly #middleware: Listener[] = [];
  readonly listeners: ChatListeners;

  constructor(private readonly bolt: App) {
    const keyed =
      (map: Map<string, Listener[]>, kind: string) =>
      (key: unknown, ...rest: unknown[]) => {
        if (typeof key !== "string" || rest.length !== 1 || typeof rest[0] !== "function") {
          throw new Error(`${kind} listeners are registered with a string and one function`);
        }
        map.set(key, [...(map.get(key) ?? []), rest[0] as Listener]);
      };
    this.listeners = {
      event: keyed(this.#events, "event") as App["event"],
      action: keyed(this.#actions, "action") as App["action"],
      view: keyed(this.#views, "view") as App["view"],
      // Kept here too: events that bypass Bolt (events-direct.ts) run the same global middleware.
      use: ((middleware: Parameters<App["use"]>[0]) => {
        this.#middleware.push(middleware as Listener);
        return bolt.use(middleware);
      }) as App["use"],
      verb: (name, handler) => {
        const key = name.toLowerCase();
        if (this.#verbs.has(key)) throw new Error(`slash-command verb "${name}" is registered twice`);
        this.#verbs.set(key, handler);
      },
    };
  }

  /** The listeners of an event type (undefined: none), for events dispatched without Bolt. */
  eventListeners(type: string): readonly Listener[] | undefined {
    return this.#events.get(type);
  }

  /** The global middleware features registered with `use`, in order. */
  get middleware(): readonly Listener[] {
    return this.#middleware;
  }

  /** Registers the dispatching listeners with Bolt; call once, after every feature registered its own. */
  mount(): void {
    const dispatch =
      (map: Map<string, Listener[]>, keyOf: (args: Record<string, unknown>) => unknown) =>
      async (args: Record<string, unknown>) => {
        const key = keyOf(args);
        const matched = typeof key === "string" ? map.get(key) : undefined;
        if (matched) await runListeners(matched, args);
      };
    if (this.#events.size > 0) {
      (this.bolt.event.bind(this.bolt) as unknown as RegisterAll)(
        /.*/,
        dispatch(this.#events, (a) => (a.event as { type?: unknown } | undefined)?.type),
      );
    }
    if (this.#actions.size > 0) {
      (this.bolt.action.bind(this.bolt) as unknown as RegisterAll)(
        /.*/,
        dispatch(this.#actions, (a) => (a.action as { action_id?: unknown } | undefined)?.action_id),
      );
    }
    if (this.#views.size > 0) {
      (this.bolt.view.bind(this.bolt) as unknown as RegisterAll)(
        /.*/,
        dispatch(this.#views, (a) => (a.view as { callback_id?: unknown } | undefined)?.callback_id),
      );
    }
    if (this.#verbs.size > 0) {
      // The command's name is the Slack app's choice (the manifest suggests /upbeat); whatever arrives is ours.
      this.bolt.command(/.*/, async (args) => {
        const text = args.command.text.trim();
        const word = text.split(/\s+/)[0]?.toLowerCase() ?? "";
        const handler = this.#verbs.get(word);
        if (handler) {
          await handler({ ...args, rest: text.slice(word.length) });
          return;
        }
        const help = this.#verbs.get(HELP_VERB);
        if (help) await help({ ...args, rest: text });
        else await args.ack();
      });
    }
  }
}
