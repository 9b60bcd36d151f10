/** What the kudos feature tells the rest of the product (webhooks) through `deps.events`. */
export interface KudoGivenEvent {
  kudoId: number;
  fromUser: string;
  toUser: string;
  message: string;
  channelId: string;
  /** ISO 8601 UTC timestamp. */
  createdAt: string;
}

declare module "../../jobs/events.ts" {
  interface DomainEvents {
    /** A kudo was stored: once per receiver per message, in the transaction that stored it. */
    "kudos.given": KudoGivenEvent;
  }
}
