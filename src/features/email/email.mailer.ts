import type { Config } from "../../config.ts";

/**
 * The e-mail provider's HTTP API, in Resend's shape: `POST {EMAIL_API_URL}/emails` with a Bearer key and an
 * `Idempotency-Key`, so a retry after a lost answer never sends the message twice (the provider keeps keys a day).
 */

export const EMAIL_TIMEOUT_MS = 10_000;

export interface OutgoingEmail {
  to: string;
  subject: string;
  html: string;
  text: string;
  /** The one-click unsubscribe address (RFC 8058), for the List-Unsubscribe header. */
  unsubscribeUrl: string;
  /** Derived from the exactly-once key of the message: the same message always carries the same one. */
  idempotencyKey: string;
}

/** `earlier`: the provider already took an e-mail under this Idempotency-Key (an attempt whose answer was lost). */
export type SendOutcome = { kind: "sent"; id: string | null; earlier?: boolean } | { kind: "refused"; status: number };

/**
 * The provider could not take the message now (429, 5xx, 409 while the same key is still in flight, a network
 * error or the timeout): the job is retried with backoff. The message names the status only, never an address
 * or any content.
 */
export class EmailRetryableError extends Error {}

type MailConfig = Pick<Config, "emailApiKey" | "emailApiUrl" | "emailFrom">;

/** A subject is one header line whatever a workspace's name holds. */
function oneLine(text: string): string {
  return text.replace(/[\r\n\t]+/g, " ").trim();
}

function networkCode(err: unknown): string {
  if (err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError")) return "timeout";
  const cause = (err as { cause?: { code?: unknown } })?.cause;
  return typeof cause?.code === "string" ? cause.code : "network error";
}

export async function sendEmail(config: MailConfig, mail: OutgoingEmail): Promise<SendOutcome> {
  if (!config.emailApiKey) throw new Error("e-mail is off: EMAIL_API_KEY is not set");
  let res: Response;
  try {
    res = await fetch(`${config.emailApiUrl}/emails`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${config.emailApiKey}`,
        "content-type": "application/json",
        "idempotency-key": mail.idempotencyKey,
      },
      body: JSON.stringify({
        from: config.emailFrom,
        to: [mail.to],
        subject: oneLine(mail.subject),
        html: mail.html,
        text: mail.text,
        headers: {
          "List-Unsubscribe": `<${mail.unsubscribeUrl}>`,
          "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
      }),
      redirect: "error",
      signal: AbortSignal.timeout(EMAIL_TIMEOUT_MS),
    });
  } catch (err) {
    throw new EmailRetryableError(`e-mail provider unreachable (${networkCode(err)})`);
  }
  // Read the whole answer (it frees the connection); an error body may repeat the address, so it is never logged.
  const body = await res.text().catch(() => "");
  if (res.ok) {
    let id: string | null = null;
    try {
      const parsed = JSON.parse(body) as { id?: unknown };
      if (typeof parsed.id === "string") id = parsed.id.slice(0, 200);
    } catch {
      // A 2xx without a JSON id still means the provider took the message.
    }
    return { kind: "sent", id };
  }
  // The key was used with another body: an earlier attempt was taken, and the text changed since (a name, say).
  if (res.status === 409 && errorName(body) === "invalid_idempotent_request")
    return { kind: "sent", id: null, earlier: true };
  // Any other 409 is the same key still in flight: try again later.
  if (res.status === 429 || res.status === 409 || res.status >= 500) {
    throw new EmailRetryableError(`e-mail provider answered ${res.status}`);
  }
  return { kind: "refused", status: res.status };
}

function errorName(body: string): string | undefined {
  try {
    const name = (JSON.parse(body) as { name?: unknown }).name;
    return typeof name === "string" ? name : undefined;
  } catch {
    return undefined;
  }
}
