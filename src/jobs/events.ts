import type { Tx } from "../db/client.ts";

/**
 * What happened in a workspace, by event type. Features add their own with declaration merging:
 * `declare module "../../jobs/events.ts" { interface DomainEvents { "x.y": {...} } }`.
 */
// biome-ignore lint/suspicious/noEmptyInterface: extended by features through declaration merging
export interface DomainEvents {}
export type EventType = keyof DomainEvents & string;

export interface DomainEvent<T extends EventType = EventType> {
  type: T;
  teamId: string;
  data: DomainEvents[T];
  /** When it happened (the emitter's clock). */
  at: Date;
}

/**
 * Runs inside the emitter's transaction: a subscriber records what it needs (a rule firing, a webhook delivery)
 * and enqueues its jobs with `{ tx }`, so its work exists exactly when the event does. It must not call Slack
 * or any other network service here.
 */
export type EventHandler<T extends EventType> = (tx: Tx, event: DomainEvent<T>) => Promise<void>;

type AnyHandler = (tx: Tx, event: DomainEvent) => Promise<void>;

/**
 * Features tell each other what happened without importing each other: the emitter (standups, kudos) calls
 * `emit` in the transaction that made the change; subscribers (rules, webhooks) register at start.
 */
export class EventBus {
  readonly #handlers = new Map<string, AnyHandler[]>();
  readonly #any: AnyHandler[] = [];

  on<T extends EventType>(type: T, handler: EventHandler<T>): void {
    const list = this.#handlers.get(type) ?? [];
    list.push(handler as unknown as AnyHandler);
    this.#handlers.set(type, list);
  }

  /** Every event, whatever its type (outbound webhooks). */
  onAny(handler: (tx: Tx, event: DomainEvent) => Promise<void>): void {
    this.#any.push(handler);
  }

  async emit<T extends EventType>(tx: Tx, event: DomainEvent<T>): Promise<void> {
    for (const handler of this.#handlers.get(event.type) ?? []) await handler(tx, event as unknown as DomainEvent);
    for (const handler of this.#any) await handler(tx, event as unknown as DomainEvent);
  }
}
