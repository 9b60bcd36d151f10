/** What the standups feature tells the rest of the product (rules, webhooks) through `deps.events`. */
export interface StandupResponseEvent {
  responseId: number;
  runId: number;
  scheduleId: string;
  userId: string;
  /** The run's local date (YYYY-MM-DD). */
  standupDate: string;
}

export interface StandupCompletedEvent {
  runId: number;
  scheduleId: string;
  standupDate: string;
}

declare module "../../jobs/events.ts" {
  interface DomainEvents {
    /** A member's first answer to a run. */
    "standup.submitted": StandupResponseEvent;
    /** A later edit of that answer while the run is open. */
    "standup.updated": StandupResponseEvent;
    /** The first time a response carries a blocker (on submission, or the edit that adds it); once per response. */
    "blocker.reported": StandupResponseEvent;
    /** The run closed: no more answers are taken. */
    "standup.completed": StandupCompletedEvent;
  }
}
