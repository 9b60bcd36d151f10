import "./connect.css";
import { type ReactNode, useEffect, useState } from "react";
import { SignedOut } from "../components/signed-out.tsx";
import { FormError, Loading } from "../components/states.tsx";
import {
  type ConsentRequest,
  type McpScope,
  SCOPE_WORDS,
  useConsentRequest,
  useDecideRequest,
  useResumeRequest,
} from "../lib/ai-clients.ts";
import { ApiError, errorMessage } from "../lib/api.ts";

/**
 * The consent page an AI client's sign-in lands on (`/dashboard/connect?request=…`): who wants what, where the
 * answer goes, and Approve or Deny. Focused on purpose: no navigation to wander off into mid-flow.
 */

const START_AGAIN = "Start connecting again from your AI client.";

function hostOf(url: string | null): string {
  if (!url) return "";
  try {
    return new URL(url).host;
  } catch {
    return "";
  }
}

function Frame({ children }: { children: ReactNode }) {
  return (
    <main id="main" className="signin" tabIndex={-1}>
      <div className="signin-card consent">
        <span className="brand-mark brand-mark-large" aria-hidden="true" />
        {children}
      </div>
    </main>
  );
}

function Gone({ title, text }: { title: string; text: string }) {
  return (
    <Frame>
      <h1>{title}</h1>
      <p>{text}</p>
      <p>
        <strong>{START_AGAIN}</strong>
      </p>
    </Frame>
  );
}

/** Who vouches for the client: its own https document (metadata), or nobody (it registered itself). */
function ClientOrigin({ client }: { client: ConsentRequest["client"] }) {
  if (client.kind === "metadata_document") {
    return (
      <p className="consent-origin">
        Published by <strong>{hostOf(client.client_id) || client.client_id}</strong> (its client document).
      </p>
    );
  }
  const site = hostOf(client.uri);
  return (
    <p className="consent-origin">
      {site ? (
        <>
          Says it is from <strong>{site}</strong>{" "}
        </>
      ) : (
        "The client registered itself "
      )}
      <span className="badge badge-blocker">not verified</span>
      <span className="consent-why field-help">
        The client named itself; Upbeat cannot check who made it. Check the address it returns to, above.
      </span>
    </p>
  );
}

/** What the client asked for, as a choice when it asked for write: the person may allow reading only. */
function ScopeChoice({
  request,
  write,
  onChange,
}: {
  request: ConsentRequest;
  write: boolean;
  onChange: (write: boolean) => void;
}) {
  const asksWrite = request.scopes.some((s) => s.scope === "standups:write");
  if (!asksWrite) {
    return (
      <>
        <h2 className="consent-subtitle">It will be able to</h2>
        <ul className="consent-scopes">
          {request.scopes.map((s) => (
            <li key={s.scope}>
              {SCOPE_WORDS[s.scope as McpScope] ?? s.description}
              <span className="muted"> ({s.scope})</span>
            </li>
          ))}
        </ul>
      </>
    );
  }
  return (
    <fieldset className="consent-choice">
      <legend className="consent-subtitle">What may it do? It asked to read and write.</legend>
      <div className="field-check">
        <input
          id="consent-read"
          type="radio"
          name="consent-scope"
          checked={!write}
          onChange={() => onChange(false)}
          aria-describedby="consent-read-help"
        />
        <label htmlFor="consent-read">Read only</label>
      </div>
      <p id="consent-read-help" className="field-help consent-choice-help">
        {SCOPE_WORDS["standups:read"]} <span>(standups:read)</span>
      </p>
      <div className="field-check">
        <input
          id="consent-write"
          type="radio"
          name="consent-scope"
          checked={write}
          onChange={() => onChange(true)}
          aria-describedby="consent-write-help"
        />
        <label htmlFor="consent-write">Read and write</label>
      </div>
      <p id="consent-write-help" className="field-help consent-choice-help">
        Also: {SCOPE_WORDS["standups:write"].charAt(0).toLowerCase()}
        {SCOPE_WORDS["standups:write"].slice(1)} <span>(standups:write)</span>
      </p>
    </fieldset>
  );
}

function Consent({ request, id }: { request: ConsentRequest; id: string }) {
  const decide = useDecideRequest(id);
  const [leaving, setLeaving] = useState(false);
  // Defaults to what the client asked for; the person may narrow it to read only.
  const [write, setWrite] = useState(() => request.scopes.some((s) => s.scope === "standups:write"));
  const { client } = request;
  const scopes: McpScope[] = write ? ["standups:read", "standups:write"] : ["standups:read"];
  const choose = (decision: "approve" | "deny") =>
    decide.mutate(decision === "approve" ? { decision, scopes } : { decision }, {
      onSuccess: ({ redirect_to }) => {
        setLeaving(true);
        window.location.assign(redirect_to);
      },
    });
  const decided = decide.error instanceof ApiError && (decide.error.status === 404 || decide.error.status === 409);
  if (decided) return <Gone title="This request is no longer open" text={errorMessage(decide.error)} />;
  return (
    <Frame>
      <h1>
        {client.name} wants to access Upbeat in {request.workspace.name} as {request.user.name}
      </h1>
      <div className="consent-host">
        <span className="muted">After you answer, you go back to</span>
        <strong className="consent-host-name">{client.redirect_host}</strong>
      </div>
      <ClientOrigin client={client} />
      <ScopeChoice request={request} write={write} onChange={setWrite} />
      <p className="muted">
        Only approve a client you started connecting yourself. You can revoke it at any time under AI access in the
        dashboard.
      </p>
      {leaving ? (
        <Loading label={`Taking you back to ${client.redirect_host}…`} />
      ) : (
        <div className="consent-actions">
          <button
            type="button"
            className="button button-primary"
            disabled={decide.isPending}
            onClick={() => choose("approve")}
          >
            Approve
          </button>
          <button type="button" className="button" disabled={decide.isPending} onClick={() => choose("deny")}>
            Deny
          </button>
        </div>
      )}
      <FormError error={decide.error} />
    </Frame>
  );
}

/**
 * Signed out: the sign-in steps, and a button that makes the next sign-in in this browser come back here. Only this
 * click sets that, never the visit itself: any site can send a signed-out browser to a consent page.
 */
function SignInFirst({ id }: { id: string }) {
  const resume = useResumeRequest(id);
  if (resume.error instanceof ApiError && (resume.error.status === 404 || resume.error.status === 409)) {
    return <Gone title="This request is no longer open" text={errorMessage(resume.error)} />;
  }
  return (
    <SignedOut reason="To connect an AI client, sign in first. Press the button, then sign in: you come back to this page to approve it.">
      {resume.isSuccess ? (
        <p className="consent-resume" role="status">
          <strong>Done.</strong> Now sign in from Slack in this browser, as below, and you come back here.
        </p>
      ) : (
        <>
          <p>
            <button
              type="button"
              className="button button-primary"
              disabled={resume.isPending}
              onClick={() => resume.mutate()}
            >
              Continue here after I sign in
            </button>
          </p>
          <p className="muted">Only if you started connecting an AI client yourself just now.</p>
        </>
      )}
      <FormError error={resume.error} />
    </SignedOut>
  );
}

export function ConnectPage({ search }: { search: URLSearchParams }) {
  const id = search.get("request") ?? "";
  const request = useConsentRequest(id);
  const name = request.data?.client.name;
  useEffect(() => {
    document.title = name ? `Connect ${name} · Upbeat` : "Connect an AI client · Upbeat";
  }, [name]);

  if (id === "") return <Gone title="No connection request here" text="This address is missing its request." />;
  if (request.data) return <Consent request={request.data} id={id} />;
  const error = request.error;
  if (error instanceof ApiError && error.status === 401) {
    return <SignInFirst id={id} />;
  }
  if (error instanceof ApiError && error.status === 404) {
    return <Gone title="This connection request has expired" text="It is unknown or more than 10 minutes old." />;
  }
  if (error instanceof ApiError && error.status === 409) {
    return <Gone title="This request was already answered" text="It was approved or denied before." />;
  }
  if (error) {
    return (
      <Frame>
        <h1>The request could not load</h1>
        <p>{errorMessage(error)}</p>
        <button type="button" className="button" onClick={() => void request.refetch()}>
          Try again
        </button>
      </Frame>
    );
  }
  return (
    <main id="main" className="signin">
      <Loading label="Loading the request…" />
    </main>
  );
}
