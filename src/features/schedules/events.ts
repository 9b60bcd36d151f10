/** What the schedules feature tells the rest of the product through `deps.events` (not a webhook event). */
export interface StandupDeletedEvent {
  scheduleId: string;
}

declare module "../../jobs/events.ts" {
  interface DomainEvents {
    /** A standup was deleted: it runs no more, and whatever was set up for it alone (its rules) goes too. */
    "standup.deleted": StandupDeletedEvent;
  }
}
