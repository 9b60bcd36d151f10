import type { UseQueryResult } from "@tanstack/react-query";
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

/**
 * The one way a page shows a query: its data once there is some (kept while a refetch runs or fails), else its
 * error with a retry button, else a loading line (also while retrying).
 */
export function QueryView<T>({
  query,
  loading,
  children,
}: {
  query: UseQueryResult<T>;
  loading?: string;
  children: (data: T) => ReactNode;
}) {
  if (query.data !== undefined) return children(query.data);
  if (query.isError && !query.isFetching)
    return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  return <Loading label={loading} />;
}

/** Why a form's or dialog's action failed (or was not sent): a server error goes through `errorMessage`. */
export function FormError({ error, className }: { error: unknown; className?: string }) {
  if (!error) return null;
  return (
    <p className={className ? `form-error ${className}` : "form-error"} role="alert">
      {errorMessage(error)}
    </p>
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

export interface NoticeMessage {
  kind: "success" | "error" | "warning";
  text: string;
}

/** A one-line result of an action or a caution: success and warnings in a polite live region, failure as an alert. */
export function Notice({
  kind,
  children,
  onDismiss,
}: {
  kind: NoticeMessage["kind"];
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
