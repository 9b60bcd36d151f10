import type { DeliveryKind } from "./intake.repo.ts";

/** Bolt's `authorize` for a workspace with no active installation: nothing to run, so not a failure to retry. */
export class NotInstalledError extends Error {
  constructor(teamId: string) {
    super(`team ${teamId} is not installed`);
  }
}

/** Bolt wraps what `authorize` threw in an AuthorizationError whose `original` it is. */
export function isNotInstalled(err: unknown): boolean {
  return err instanceof NotInstalledError || (err as { original?: unknown })?.original instanceof NotInstalledError;
}

const MAX_ERROR_LENGTH = 300;

/** The error that caused it all: Bolt wraps a listener's error (`original`), drizzle a driver's (`cause`). */
function innermost(err: unknown): unknown {
  let e = err;
  for (let depth = 0; depth < 5; depth++) {
    const inner =
      (e as { original?: unknown; cause?: unknown } | undefined)?.original ?? (e as { cause?: unknown })?.cause;
    if (!(inner instanceof Error)) return e;
    e = inner;
  }
  return e;
}

/**
 * The error as stored and logged: the innermost error's code and message (drizzle's own wrapper lists the query's
 * parameters, which can be answer text), with quoted parts and any parameter list left out, clipped. Never the
 * payload.
 */
export function describeFailure(err: unknown): string {
  const e = innermost(err) as { code?: unknown; message?: unknown } | undefined;
  const message = (typeof e?.message === "string" ? e.message : String(e)).split(/\bparams:/)[0]!.trim();
  const code = typeof e?.code === "string" && !message.includes(e.code) ? `${e.code}: ` : "";
  const text = `${code}${message}`.replace(/"[^"]*"|'[^']*'|`[^`]*`/g, "…").replace(/\s+/g, " ");
  return text.length > MAX_ERROR_LENGTH ? `${text.slice(0, MAX_ERROR_LENGTH - 1)}…` : text;
}

/**
 * Whether a failed delivery is worth another attempt (with an ack that answers nobody).
 * - Events: always; nobody waits for them and their listeners are idempotent (claims).
 * - Modal submissions (`view_submission`): when the listener failed before acknowledging, the answer was not stored
 *   and the member saw no result: it is stored later (submitting again edits the same response, so a member who
 *   retries meanwhile is not answered twice). One that failed after acknowledging had shown its answer; what failed
 *   after is work tied to the moment, such as opening a modal with the trigger id, which Slack accepts for 3 s only.
 * - Slash commands: never. One that fails before acknowledging is answered at once that nothing was done (the
 *   member types it again); running it again later as well would do it twice (a second kudo, say).
 * - Buttons (`block_actions`), shortcuts, `view_closed` and option requests: never. Their listeners acknowledge
 *   first and then open a modal (an expired trigger by the time a sweep runs) or do what the member can press again.
 */
export function rerunnable(kind: DeliveryKind, body: Record<string, unknown>, acked: boolean): boolean {
  if (kind === "event") return true;
  if (acked) return false;
  return kind === "interaction" && body.type === "view_submission";
}
