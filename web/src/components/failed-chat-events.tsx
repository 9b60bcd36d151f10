import { formatInstant } from "../lib/format.ts";
import { useFailedChatEvents } from "../lib/queries.ts";
import type { FailedChatEvent } from "../lib/types.ts";
import { QueryView } from "./states.tsx";

const KIND: Record<FailedChatEvent["kind"], string> = {
  event: "Event",
  command: "Slash command",
  interaction: "Button or form",
};

/**
 * Slack deliveries Upbeat stored and acknowledged but could not process after every attempt (admins only): what
 * they were and why, never their content. Most workspaces never see a row here.
 */
export function FailedChatEvents() {
  const failed = useFailedChatEvents();
  return (
    <section className="card" aria-labelledby="failed-events-title">
      <h2 id="failed-events-title">Slack events that could not be processed</h2>
      <QueryView query={failed} loading="Loading…">
        {(list) =>
          list.length === 0 ? (
            <p className="field-help">
              None. Every message, answer and command from Slack is stored before Upbeat acknowledges it and is tried
              again for about 45 minutes if processing fails; anything that still fails is listed here for 30 days.
            </p>
          ) : (
            <>
              <p className="field-help">
                Upbeat received these and tried them again where that could help (for about 45 minutes), then gave up.
                What they carried was not stored: a standup answer or a command among them has to be sent again. The
                error is for whoever runs Upbeat.
              </p>
              <div className="table-wrap">
                <table className="table">
                  <caption className="sr-only">Slack events that could not be processed, newest first</caption>
                  <thead>
                    <tr>
                      <th scope="col">Received</th>
                      <th scope="col">What</th>
                      <th scope="col" className="num hide-narrow">
                        Attempts
                      </th>
                      <th scope="col">Last error</th>
                    </tr>
                  </thead>
                  <tbody>
                    {list.map((e) => (
                      <tr key={`${e.received_at}-${e.type}-${e.failed_at}`}>
                        <td>{formatInstant(e.received_at)}</td>
                        <td>
                          {KIND[e.kind]}
                          {e.type ? (
                            <>
                              {" "}
                              <code>{e.type}</code>
                            </>
                          ) : null}
                        </td>
                        <td className="num hide-narrow">{e.attempts}</td>
                        <td className="failed-event-error">{e.last_error ?? "—"}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </>
          )
        }
      </QueryView>
    </section>
  );
}
