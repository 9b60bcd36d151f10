import type { ReactNode } from "react";
import { ApiError, errorMessage } from "../lib/api.ts";

export function Loading({ label = "Loading…" }: { label?: string }) {
  return (
    <div className="state state-loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      {label}
    </div>
  );
}

export function ErrorState({ error, onRetry, title }: { error: unknown; onRetry?: () => void; title?: string }) {
  const forbidden = error instanceof ApiError && error.status === 403;
  return (
    <div className={`state state-error${forbidden ? " state-forbidden" : ""}`} role="alert">
      <p className="state-title">{title ?? (forbidden ? "Admins only" : "Something went wrong")}</p>
      <p>{errorMessage(error)}</p>
      {onRetry && !forbidden ? (
        <button type="button" className="button" onClick={onRetry}>
          Try again
        </button>
      ) : null}
    </div>
  );
}

export function Empty({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="state state-empty">
      <p className="state-title">{title}</p>
      {children}
    </div>
  );
}

/** A one-line result of an action: success in a polite live region, failure as an alert. */
export function Notice({
  kind,
  children,
  onDismiss,
}: {
  kind: "success" | "error";
  children: ReactNode;
  onDismiss?: () => void;
}) {
  return (
    <div className={`notice notice-${kind}`} role={kind === "error" ? "alert" : "status"}>
      <span>{children}</span>
      {onDismiss ? (
        <button type="button" className="button-link notice-dismiss" onClick={onDismiss} aria-label="Dismiss message">
          ×
        </button>
      ) : null}
    </div>
  );
}

/** Shown instead of an admin page when the signed-in user is a member. */
export function AdminOnly() {
  return (
    <div className="state state-error state-forbidden" role="alert">
      <h1 tabIndex={-1} className="page-title">
        Admins only
      </h1>
      <p>This page is for workspace admins. Ask an admin in Slack to change your role if you need it.</p>
    </div>
  );
}
