import { type FormEvent, useState } from "react";
import { ConfirmDialog } from "../components/confirm-dialog.tsx";
import { CopyButton } from "../components/copy-button.tsx";
import { PageHeader } from "../components/layout.tsx";
import { Empty, FormError, Notice, QueryView } from "../components/states.tsx";
import { formatInstant } from "../lib/format.ts";
import { useCreateWebhook, useDeleteWebhook, useSendWebhookTest } from "../lib/mutations.ts";
import { useWebhooks } from "../lib/queries.ts";
import type { CreatedWebhookEndpoint, WebhookEndpoint, WebhookEventType } from "../lib/types.ts";
import { DeliveryLog } from "./webhook-log.tsx";
import { explainRefusal } from "./webhook-refusal.ts";

/** Every event type an endpoint can take (the contract's list), with what it means. */
const EVENTS: Record<WebhookEventType, string> = {
  "standup.submitted": "A member answers a standup",
  "standup.updated": "A member edits their answer",
  "blocker.reported": "An answer reports a blocker",
  "standup.completed": "A standup run closes, with its participation",
  "kudos.given": "Someone gives kudos",
  "blocker.resolved": "A blocker is resolved",
};
const EVENT_TYPES = Object.keys(EVENTS) as WebhookEventType[];

function CreateEndpoint({ onCreated }: { onCreated: (created: CreatedWebhookEndpoint) => void }) {
  const [url, setUrl] = useState("");
  const [events, setEvents] = useState<WebhookEventType[]>(EVENT_TYPES);
  const create = useCreateWebhook();
  const [problem, setProblem] = useState<string | undefined>();
  const toggle = (type: WebhookEventType) =>
    setEvents((list) => (list.includes(type) ? list.filter((t) => t !== type) : [...list, type]));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = !url.trim()
      ? "Enter the https:// address that should receive the events."
      : events.length === 0
        ? "Choose at least one event."
        : undefined;
    setProblem(found);
    if (found) return create.reset();
    create.mutate(
      { url: url.trim(), events },
      {
        onSuccess: (created) => {
          setUrl("");
          setEvents(EVENT_TYPES);
          onCreated(created);
        },
      },
    );
  };
  return (
    <form className="card" onSubmit={submit} noValidate>
      <h2>Add an endpoint</h2>
      <div className="field">
        <label htmlFor="webhook-url">Endpoint URL</label>
        <input
          id="webhook-url"
          className="input input-mono"
          type="url"
          inputMode="url"
          value={url}
          maxLength={2000}
          onChange={(e) => setUrl(e.target.value)}
          placeholder="https://hooks.example.com/upbeat"
          spellCheck={false}
          autoComplete="off"
          aria-describedby="webhook-url-help"
        />
        <p id="webhook-url-help" className="field-help">
          A public <code>https://</code> address. Upbeat POSTs each event there as JSON, signed per Standard Webhooks.
        </p>
      </div>
      <fieldset className="field event-choices">
        <legend>Events</legend>
        {EVENT_TYPES.map((type) => (
          <div key={type} className="field-check">
            <input id={`event-${type}`} type="checkbox" checked={events.includes(type)} onChange={() => toggle(type)} />
            <label htmlFor={`event-${type}`}>
              <code>{type}</code> <span className="muted">{EVENTS[type]}</span>
            </label>
          </div>
        ))}
      </fieldset>
      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={create.isPending}>
          {create.isPending ? "Adding…" : "Add endpoint"}
        </button>
      </div>
      <FormError error={problem ?? explainRefusal(create.error, create.variables?.url ?? url) ?? create.error} />
    </form>
  );
}

function NewSecret({ created, onDone }: { created: CreatedWebhookEndpoint; onDone: () => void }) {
  return (
    <section className="card secret" aria-labelledby="new-secret-title">
      <h2 id="new-secret-title">Signing secret</h2>
      <p>
        For <code>{created.url}</code>. <strong>Copy it now: it is shown only once.</strong> Your receiver needs it to
        check that each delivery comes from Upbeat; if it is lost, delete the endpoint and add it again.
      </p>
      <div className="secret-row">
        <code className="secret-value">{created.secret}</code>
        <CopyButton text={created.secret} label="Copy secret" className="button button-primary" />
      </div>
      <button type="button" className="button" onClick={onDone}>
        I have copied it
      </button>
    </section>
  );
}

function EndpointCard({
  endpoint,
  onDelete,
  onTested,
}: {
  endpoint: WebhookEndpoint;
  onDelete: () => void;
  onTested: (message: string) => void;
}) {
  const [showLog, setShowLog] = useState(false);
  const test = useSendWebhookTest();
  const logId = `log-${endpoint.id}`;
  const sendTest = () =>
    test.mutate(endpoint.id, {
      onSuccess: () => {
        setShowLog(true);
        onTested(`Test delivery queued for ${endpoint.url}. Its result appears in the deliveries log.`);
      },
    });
  return (
    <li className={`card schedule webhook${endpoint.active ? "" : " schedule-paused"}`}>
      <div className="schedule-main">
        <div className="schedule-title">
          <h2 className="schedule-channel webhook-url">{endpoint.url}</h2>
          <span className={`badge ${endpoint.active ? "badge-active" : "badge-failed"}`}>
            {endpoint.active ? "Active" : "Disabled"}
          </span>
        </div>
        {endpoint.active ? null : (
          <p className="text-warning">
            {endpoint.disabled_reason ?? "Disabled"} ({formatInstant(endpoint.disabled_at)}). It receives nothing more:
            fix the receiver, then delete this endpoint and add it again.
          </p>
        )}
        <ul className="event-chips" aria-label="Events">
          {endpoint.events.map((type) => (
            <li key={type}>
              <code>{type}</code>
            </li>
          ))}
        </ul>
        <p className="muted">Added {formatInstant(endpoint.created_at)}</p>
        <FormError error={test.error} />
      </div>
      <div className="schedule-actions">
        {endpoint.active ? (
          <button type="button" className="button button-small" onClick={sendTest} disabled={test.isPending}>
            {test.isPending ? "Sending…" : "Send test"}
          </button>
        ) : null}
        <button
          type="button"
          className="button button-small"
          aria-expanded={showLog}
          aria-controls={logId}
          onClick={() => setShowLog((v) => !v)}
        >
          {showLog ? "Hide deliveries" : "Deliveries"}
        </button>
        <button type="button" className="button button-small button-danger-outline" onClick={onDelete}>
          Delete<span className="sr-only"> endpoint {endpoint.url}</span>
        </button>
      </div>
      {showLog ? (
        <section id={logId} className="webhook-log" aria-label={`Deliveries to ${endpoint.url}`}>
          <DeliveryLog endpointId={endpoint.id} url={endpoint.url} />
        </section>
      ) : null}
    </li>
  );
}

export function WebhooksPage() {
  const endpoints = useWebhooks();
  const remove = useDeleteWebhook();
  const [created, setCreated] = useState<CreatedWebhookEndpoint | undefined>();
  const [deleting, setDeleting] = useState<WebhookEndpoint | undefined>();
  const [notice, setNotice] = useState<string | undefined>();

  const confirmDelete = () => {
    if (!deleting) return;
    remove.mutate(deleting.id, {
      onSuccess: () => {
        setNotice(`Deleted ${deleting.url}. It receives nothing more.`);
        if (created?.id === deleting.id) setCreated(undefined);
        setDeleting(undefined);
      },
    });
  };

  return (
    <>
      <PageHeader
        title="Webhooks"
        lead="Send standup answers, blockers, completed runs and kudos to your own systems as signed HTTPS requests."
      />
      {created ? (
        <NewSecret created={created} onDone={() => setCreated(undefined)} />
      ) : (
        <CreateEndpoint
          onCreated={(endpoint) => {
            setNotice(undefined);
            setCreated(endpoint);
          }}
        />
      )}
      {notice ? (
        <Notice kind="success" onDismiss={() => setNotice(undefined)}>
          {notice}
        </Notice>
      ) : null}
      <section className="panel" aria-labelledby="endpoints-title">
        <div className="panel-head">
          <h2 id="endpoints-title">Endpoints</h2>
        </div>
        <QueryView query={endpoints} loading="Loading endpoints…">
          {(list) =>
            list.length === 0 ? (
              <Empty title="No endpoints yet">
                <p>Add one above to receive events.</p>
              </Empty>
            ) : (
              <ul className="schedules">
                {list.map((e) => (
                  <EndpointCard
                    key={e.id}
                    endpoint={e}
                    onTested={setNotice}
                    onDelete={() => {
                      remove.reset();
                      setDeleting(e);
                    }}
                  />
                ))}
              </ul>
            )
          }
        </QueryView>
      </section>
      <ConfirmDialog
        open={deleting !== undefined}
        title="Delete this endpoint?"
        confirmLabel="Delete endpoint"
        danger
        busy={remove.isPending}
        error={remove.error}
        onConfirm={confirmDelete}
        onCancel={() => setDeleting(undefined)}
      >
        <p>
          <strong>{deleting?.url}</strong> stops receiving events at once, and its deliveries log is deleted. This
          cannot be undone.
        </p>
      </ConfirmDialog>
    </>
  );
}
