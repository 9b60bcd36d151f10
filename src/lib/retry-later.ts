/**
 * Thrown by a job's handler that must wait before it can go on (Slack asked for a Retry-After longer than a worker
 * should sleep, or the workspace's rate bucket is booked that far ahead). Not a failure: the queue runs the job again
 * `delayMs` from now as a fresh job, without counting it toward the retry limit or its backoff (src/jobs/queue.ts).
 * Whatever the handler claimed must be safe to run again: postOnce claims are.
 */
export class RetryLaterError extends Error {
  constructor(
    readonly delayMs: number,
    message: string,
  ) {
    super(message);
    this.name = "RetryLaterError";
  }
}
