import { Empty, QueryView } from "../components/states.tsx";
import { formatInstant } from "../lib/format.ts";
import { useWebhookDeliveries } from "../lib/queries.ts";
import type { WebhookDelivery } from "../lib/types.ts";

const STATUS: Record<WebhookDelivery["status"], { label: string; badge: string }> = {
  pending: { label: "Pending", badge: "badge" },
  delivered: { label: "Delivered", badge: "badge badge-active" },
  failed: { label: "Failed", badge: "badge badge-failed" },
};

/** What the last attempt got: the HTTP status, and why it failed. */
function lastAnswer(d: WebhookDelivery): string {
  if (d.attempts === 0) return "Not sent yet";
  const code = d.last_status_code === null ? "" : `HTTP ${d.last_status_code}`;
  if (!d.last_error) return code;
  return code && !d.last_error.includes(String(d.last_status_code)) ? `${code}: ${d.last_error}` : d.last_error;
}

/** An endpoint's last 100 deliveries, newest first; refreshes while one is still pending. */
export function DeliveryLog({ endpointId, url }: { endpointId: number; url: string }) {
  const deliveries = useWebhookDeliveries(endpointId);
  return (
    <QueryView query={deliveries} loading="Loading deliveries…">
      {(list) =>
        list.length === 0 ? (
          <Empty title="No deliveries yet">
            <p>Send a test, or wait for the next standup answer.</p>
          </Empty>
        ) : (
          // At phone width the table scrolls inside this box: focusable and named, so a keyboard can scroll it too.
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus (WCAG 2.1.1)
          <section className="table-wrap" aria-label="Deliveries table" tabIndex={0}>
            <table className="table delivery-log">
              <caption className="sr-only">Deliveries to {url}, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Created</th>
                  <th scope="col">Event</th>
                  <th scope="col">Status</th>
                  <th scope="col" className="num">
                    Attempts
                  </th>
                  <th scope="col">Last answer</th>
                  <th scope="col" className="hide-narrow">
                    Next attempt
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.map((d) => (
                  <tr key={d.id} data-status={d.status}>
                    <td>{formatInstant(d.created_at)}</td>
                    <td>
                      <code>{d.type}</code>
                    </td>
                    <td>
                      <span className={STATUS[d.status].badge}>{STATUS[d.status].label}</span>
                    </td>
                    <td className="num">{d.attempts}</td>
                    <td className="delivery-answer">{lastAnswer(d)}</td>
                    <td className="hide-narrow">{d.next_attempt_at ? formatInstant(d.next_attempt_at) : "—"}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        )
      }
    </QueryView>
  );
}
